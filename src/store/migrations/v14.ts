/**
 * Migration 14 (issue 26 item 9): a journal row small enough for a year on a small disk.
 *
 * A mark no longer stores its AFD type 7 line beside the fields the line is made of: it stores the
 * fields (each as the smallest value that gives its characters back) and the hash as 32 bytes, and
 * `line` is a virtual generated column that rebuilds the 137 characters byte for byte. A line the
 * fields do not rebuild exactly (one written by hand, damaged, with an uppercase hash) is kept
 * whole in `verbatim`, so the journal still holds every byte ever written and verification sees
 * what is there. `local_date` is generated from the mark's own date (the line's positions 11-20,
 * which the writer always took from it). A fact's hash is 32 bytes too (`hash_verbatim`: one that
 * is not 64 lowercase hex digits).
 *
 * The rows of version 13 are renamed to journal_marks_v13 / journal_facts_v13 here and copied in
 * bounded batches after the migration (store/journal-compact.ts), each batch its own transaction:
 * the migration itself costs the same whatever the journal holds. Triggers and indexes keep their
 * names; the indexes no longer repeat the NSR, which every index of a rowid table holds anyway.
 */

/** AAAA-MM-ddThh:mm:00ZZZZZ from local minutes since 1970 (read as UTC) and an offset in minutes. */
const afdDateTimeSql = (minutes: string, offset: string): string =>
  `strftime('%Y-%m-%dT%H:%M:00', ${minutes} * 60, 'unixepoch') || (CASE WHEN ${offset} < 0 THEN '-' ELSE '+' END) || printf('%02d%02d', abs(${offset}) / 60, abs(${offset}) % 60)`;

/**
 * The type 7 line the columns of a mark rebuild (domain/afd/mark.ts lays it out), as an SQL
 * expression over columns named as in journal_marks. Store code compares it with a line before
 * storing it (store/mark-columns.ts), so this is the one definition of the rebuild.
 */
export const markLineSql = `printf('%09d7%s%012d%s%s%s', nsr, ${afdDateTimeSql('marked', 'marked_offset')}, cpf, ${afdDateTimeSql('coalesce(recorded, marked)', 'coalesce(recorded_offset, marked_offset)')}, coalesce(tail, '040'), lower(hex(hash)))`;

export const migration14 = `
  DROP TRIGGER journal_marks_append_only_u;
  DROP TRIGGER journal_marks_append_only_d;
  DROP TRIGGER journal_facts_append_only_u;
  DROP TRIGGER journal_facts_append_only_d;
  DROP INDEX journal_marks_by_date;
  DROP INDEX journal_marks_by_punch;
  DROP INDEX journal_marks_by_chain;
  DROP INDEX journal_facts_by_nsr;
  DROP INDEX journal_facts_restored;
  ALTER TABLE journal_marks RENAME TO journal_marks_v13;
  ALTER TABLE journal_facts RENAME TO journal_facts_v13;

  CREATE TABLE journal_marks (
    nsr              INTEGER PRIMARY KEY,     -- 1.., never reused (journal_meta, journal-nsr.json)
    marked           INTEGER NOT NULL,        -- the mark's local date and time: minutes since 1970-01-01 00:00, read as UTC
    marked_offset    INTEGER NOT NULL,        -- its zone's offset from UTC, minutes
    recorded         INTEGER,                 -- the recording's local date and time, same form; null: as marked (a live capture)
    recorded_offset  INTEGER,                 -- null: marked_offset
    cpf              INTEGER NOT NULL,        -- the line's 12-digit CPF field as a number (0: not known at capture)
    tail             TEXT,                    -- positions 71-73 (collector, on-line flag); null: '040'
    hash             BLOB NOT NULL,           -- positions 74-137, the SHA-256, as 32 bytes
    verbatim         TEXT,                    -- the line as written when the columns do not rebuild it byte for byte; null: they do
    punch_id         INTEGER,                 -- punches.id at capture (null for an unresolved capture)
    unresolved_id    INTEGER,                 -- unresolved_punches.id at capture
    written_at       INTEGER NOT NULL,        -- UTC ms the record was written
    chain            TEXT NOT NULL DEFAULT '',-- the employer chain (migration 12)
    line             TEXT GENERATED ALWAYS AS (coalesce(verbatim, ${markLineSql})) VIRTUAL,
    local_date       TEXT GENERATED ALWAYS AS (date(marked * 60, 'unixepoch')) VIRTUAL
  );
  CREATE INDEX journal_marks_by_date ON journal_marks (local_date);
  CREATE INDEX journal_marks_by_punch ON journal_marks (punch_id) WHERE punch_id IS NOT NULL;
  CREATE INDEX journal_marks_by_chain ON journal_marks (chain);

  CREATE TABLE journal_facts (
    seq            INTEGER PRIMARY KEY,       -- 1.., gapless
    nsr            INTEGER NOT NULL,          -- the mark it concerns
    at             INTEGER NOT NULL,          -- UTC ms
    event          TEXT NOT NULL,
    detail         TEXT NOT NULL,
    hash_bin       BLOB,                      -- the fact's SHA-256 (domain/journal-fact.ts), 32 bytes
    hash_verbatim  TEXT,                      -- a hash that is not 64 lowercase hex digits, as written (hash_bin null)
    hash           TEXT GENERATED ALWAYS AS (coalesce(hash_verbatim, lower(hex(hash_bin)))) VIRTUAL
  );
  CREATE INDEX journal_facts_by_nsr ON journal_facts (nsr);
  CREATE INDEX journal_facts_restored ON journal_facts (nsr) WHERE event = 'restored';

  CREATE TRIGGER journal_marks_append_only_u BEFORE UPDATE ON journal_marks BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_marks_append_only_d BEFORE DELETE ON journal_marks
    WHEN OLD.nsr > (SELECT archived_nsr FROM journal_meta WHERE one = 1)
    BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only (only archived marks leave it)'); END;
  CREATE TRIGGER journal_facts_append_only_u BEFORE UPDATE ON journal_facts BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only'); END;
  CREATE TRIGGER journal_facts_append_only_d BEFORE DELETE ON journal_facts
    WHEN OLD.seq > (SELECT archived_seq FROM journal_meta WHERE one = 1)
    BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only (only archived facts leave it)'); END;
  `;
