/**
 * Schema migrations 6 to 11, as shipped: terminals in the field have run them, so they are
 * never edited (store/migrations.ts lists every file in order; new migrations go in a new file).
 */
export const migrationsV6toV11: readonly string[] = [
  // 6: reconciliation checks that got an answer proving nothing (a 404, an unreadable list), so an
  //    in-doubt punch is handed to a person after a bounded number instead of asking for ever
  `
  ALTER TABLE punches ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
  `,
  // 7: service-anchored time: what capture read (wall clock, monotonic clock, boot) so a punch
  //    taken before the first answer of its boot can be recomputed on the service's clock before
  //    it is sent; rows from before count as anchored (nothing to recompute them with)
  `
  ALTER TABLE punches ADD COLUMN wall_at INTEGER;
  ALTER TABLE punches ADD COLUMN mono_at REAL;
  ALTER TABLE punches ADD COLUMN boot_id TEXT;
  ALTER TABLE punches ADD COLUMN anchored INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX punches_unanchored ON punches (boot_id) WHERE anchored = 0;
  ALTER TABLE unresolved_punches ADD COLUMN mono_at REAL;
  ALTER TABLE unresolved_punches ADD COLUMN boot_id TEXT;
  ALTER TABLE unresolved_punches ADD COLUMN anchored INTEGER NOT NULL DEFAULT 1;
  `,
  // 8: status costs the same after years as on day one: punches by state are counted as states
  //    change (triggers; seeded once here), the oldest unsent and the latest capture come from
  //    indexes. A migration that rebuilds punches must create these triggers again (DROP TABLE
  //    drops them).
  `
  CREATE TABLE punch_counts (
    state  TEXT PRIMARY KEY,
    n      INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO punch_counts (state, n) SELECT state, COUNT(*) FROM punches GROUP BY state;
  CREATE TRIGGER punch_counts_insert AFTER INSERT ON punches BEGIN
    INSERT INTO punch_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER punch_counts_delete AFTER DELETE ON punches BEGIN
    UPDATE punch_counts SET n = n - 1 WHERE state = OLD.state;
  END;
  CREATE TRIGGER punch_counts_update AFTER UPDATE OF state ON punches WHEN OLD.state IS NOT NEW.state BEGIN
    UPDATE punch_counts SET n = n - 1 WHERE state = OLD.state;
    INSERT INTO punch_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE INDEX punches_unsent_at ON punches (captured_at) WHERE state IN ('pending','sending','in_doubt');
  CREATE INDEX punches_captured_at ON punches (captured_at);
  `,
  // 9: retention (store/upkeep/retention.ts) finds the oldest delivered punches by when they were
  //    delivered, without reading the rest; their journal rows come from punch_journal_punch
  `
  CREATE INDEX punches_sent_at ON punches (sent_at) WHERE state = 'sent';
  `,
  // 10: a roster is swapped in by renaming tables, not by copying rows (store/roster/roster-tables.ts):
  //     staging becomes a twin of roster_employees, indexes included, under index names of its own
  //     (they are global and follow a renamed table); unfit employees are indexed by name, so
  //     roster health lists the first 50 without a pass. After a swap the roster's indexes are named
  //     roster_g<n>_…: a later migration finds them by tbl_name in sqlite_master, and one that
  //     changes roster_employees changes roster_staging the same way (new staging tables are cloned
  //     from roster_employees). Enrolled badges are counted by triggers: status no longer counts
  //     100,000 of them on every refresh.
  `
  CREATE INDEX roster_unfit ON roster_employees (full_name)
    WHERE work_schedule IS NULL OR payment_source IS NULL OR timezone_invalid IS NOT NULL;
  DROP TABLE roster_staging;
  CREATE TABLE roster_staging (
    id                   TEXT PRIMARY KEY,
    external_id          TEXT,
    full_name            TEXT NOT NULL,
    cpf                  TEXT,
    registration_number  TEXT,
    timezone             TEXT,
    work_schedule        TEXT,
    payment_source       TEXT,
    allow_api_record     INTEGER,
    timezone_invalid     TEXT
  );
  CREATE UNIQUE INDEX roster_g1_by_external_id ON roster_staging (external_id) WHERE external_id IS NOT NULL;
  CREATE INDEX roster_g1_by_registration ON roster_staging (registration_number) WHERE registration_number IS NOT NULL;
  CREATE INDEX roster_g1_by_cpf ON roster_staging (cpf) WHERE cpf IS NOT NULL;
  CREATE INDEX roster_g1_not_allowed ON roster_staging (full_name) WHERE allow_api_record = 0;
  CREATE INDEX roster_g1_unfit ON roster_staging (full_name)
    WHERE work_schedule IS NULL OR payment_source IS NULL OR timezone_invalid IS NOT NULL;

  CREATE TABLE badge_count (
    one  INTEGER PRIMARY KEY CHECK (one = 1),
    n    INTEGER NOT NULL
  );
  INSERT INTO badge_count (one, n) SELECT 1, COUNT(*) FROM badge_enrollments;
  CREATE TRIGGER badge_count_insert AFTER INSERT ON badge_enrollments BEGIN
    UPDATE badge_count SET n = n + 1;
  END;
  CREATE TRIGGER badge_count_delete AFTER DELETE ON badge_enrollments BEGIN
    UPDATE badge_count SET n = n - 1;
  END;
  `,
  // 11: the evidence journal (Portaria 671; store/journal/evidence-journal.ts): one AFD type 7 record per
  //     punch, keyed by its NSR, chained by SHA-256, and the later facts about each punch in a
  //     chain of their own. No foreign keys: retention prunes punches, the journal is never pruned.
  //     The triggers make both tables append-only for our own code (a bug that would rewrite
  //     evidence fails loudly); they stop no one who edits the file: the chains and the sidecar
  //     (journal-nsr.json) are what show that. Punches and unresolved punches carry their NSR
  //     (a resolved punch keeps the NSR of its capture); rows from before are journalled at the
  //     agent's next open (store/journal/journal-backfill.ts). A migration that rebuilds punches must keep
  //     nsr and its indexes.
  `
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
  `,
];
