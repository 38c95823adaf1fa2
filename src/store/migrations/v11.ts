/**
 * Migration 11, as shipped: terminals in the field have run it, so it is never edited.
 *
 * the evidence journal (Portaria 671; store/journal/evidence-journal.ts): one AFD type 7 record per
 * punch, keyed by its NSR, chained by SHA-256, and the later facts about each punch in a
 * chain of their own. No foreign keys: retention prunes punches, the journal is never pruned.
 * The triggers make both tables append-only for our own code (a bug that would rewrite
 * evidence fails loudly); they stop no one who edits the file: the chains and the sidecar
 * (journal-nsr.json) are what show that. Punches and unresolved punches carry their NSR
 * (a resolved punch keeps the NSR of its capture); rows from before are journalled at the
 * agent's next open (store/journal/journal-backfill.ts). A migration that rebuilds punches must keep
 * nsr and its indexes.
 */
export const migration11 = `
  CREATE TABLE journal_marks (
    nsr            INTEGER PRIMARY KEY,        -- 1.., never reused (journal_meta, journal-nsr.json)
    line           TEXT NOT NULL CHECK (length(line) = 137),  -- the AFD type 7 record as written (domain/afd/mark.ts)
    punch_id       INTEGER,                    -- punches.id at capture (null for an unresolved capture)
    unresolved_id  INTEGER,                    -- unresolved_punches.id at capture
    local_date     TEXT NOT NULL,              -- the mark's local date (AFD export by date)
    written_at     INTEGER NOT NULL            -- UTC ms the record was written
  );
  CREATE INDEX journal_marks_by_date ON journal_marks (local_date, nsr);
  CREATE INDEX journal_marks_by_punch ON journal_marks (punch_id) WHERE punch_id IS NOT NULL;

  CREATE TABLE journal_facts (
    seq     INTEGER PRIMARY KEY,               -- 1.., gapless
    nsr     INTEGER NOT NULL,                  -- the mark it concerns (a journal event: the first NSR it names)
    at      INTEGER NOT NULL,                  -- UTC ms
    event   TEXT NOT NULL,
    detail  TEXT NOT NULL,
    hash    TEXT NOT NULL                      -- SHA-256 of the fact's line and the previous fact's hash (domain/journal-fact.ts)
  );
  CREATE INDEX journal_facts_by_nsr ON journal_facts (nsr);
  CREATE INDEX journal_facts_restored ON journal_facts (nsr) WHERE event = 'restored';

  CREATE TABLE journal_meta (
    one          INTEGER PRIMARY KEY CHECK (one = 1),
    journal_id   TEXT NOT NULL,                -- 128 random bits: the sidecar of another journal is not ours
    reserved_to  INTEGER NOT NULL DEFAULT 0,   -- NSRs reserved through this one (the sidecar holds it first)
    nsr_floor    INTEGER NOT NULL DEFAULT 1,   -- the next NSR is at least this (raised past a restore's gap)
    created_at   INTEGER NOT NULL
  );
  INSERT INTO journal_meta (one, journal_id, created_at) VALUES (1, lower(hex(randomblob(16))), CAST(unixepoch('subsec') * 1000 AS INTEGER));

  CREATE TRIGGER journal_marks_append_only_u BEFORE UPDATE ON journal_marks BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_marks_append_only_d BEFORE DELETE ON journal_marks BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_facts_append_only_u BEFORE UPDATE ON journal_facts BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_facts_append_only_d BEFORE DELETE ON journal_facts BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_meta_keep_id BEFORE UPDATE OF journal_id ON journal_meta BEGIN SELECT RAISE(ABORT, 'the journal id never changes'); END;
  CREATE TRIGGER journal_meta_keep_row BEFORE DELETE ON journal_meta BEGIN SELECT RAISE(ABORT, 'the journal id never changes'); END;

  ALTER TABLE punches ADD COLUMN nsr INTEGER;
  CREATE UNIQUE INDEX punches_by_nsr ON punches (nsr) WHERE nsr IS NOT NULL;
  CREATE INDEX punches_unjournalled ON punches (captured_at, id) WHERE nsr IS NULL;
  ALTER TABLE unresolved_punches ADD COLUMN nsr INTEGER;
  CREATE INDEX unresolved_unjournalled ON unresolved_punches (captured_at, id) WHERE nsr IS NULL;
  `;
