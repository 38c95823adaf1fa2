/**
 * Migration 13 (issue 26 item 9): five years on a small disk.
 *
 * Marks and facts older than `journal.archiveAfterDays` move into monthly sealed archive files beside
 * the database (store/journal/journal-archive.ts). `journal_archives` lists every archive ever written with
 * its seal (the chains' hashes before and after it, the file's SHA-256), so a missing or changed file
 * is named by `journal verify`, and a file without its row (a crash before the commit) is ignored and
 * written again. `journal_meta.archived_nsr` / `archived_seq`: the marks and facts through these are
 * in archives; readers take them from there, and only those rows may be deleted (the triggers).
 * `journal_archive_heads`: each chain's last archived hash, so a chain (or the facts) whose every row
 * was archived continues from it.
 */
export const migration13 = `
  ALTER TABLE journal_meta ADD COLUMN archived_nsr INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE journal_meta ADD COLUMN archived_seq INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE journal_archives (
    name        TEXT PRIMARY KEY,              -- the files' common stem in journal-archive/ (YYYY-MM.<journal id>.<first NSR>)
    first_nsr   INTEGER NOT NULL,
    last_nsr    INTEGER NOT NULL,
    first_seq   INTEGER NOT NULL,              -- facts first_seq..last_seq (last < first: none)
    last_seq    INTEGER NOT NULL,
    seal        TEXT NOT NULL,                 -- the seal file's exact text (JSON; domain/journal-archive-format.ts)
    signed      INTEGER NOT NULL,              -- 1: a detached signature (.seal.json.p7s) was written beside it
    created_at  INTEGER NOT NULL,
    removed_at  INTEGER                        -- journal.keepYears let it go (an 'archive_removed' fact says so)
  );
  CREATE TABLE journal_archive_heads (
    chain  TEXT PRIMARY KEY,                   -- an employer chain (journal_marks.chain), or '#facts'
    num    INTEGER NOT NULL,                   -- its last archived NSR (or fact seq)
    hash   TEXT NOT NULL
  );
  DROP TRIGGER journal_marks_append_only_d;
  DROP TRIGGER journal_facts_append_only_d;
  CREATE TRIGGER journal_marks_append_only_d BEFORE DELETE ON journal_marks
    WHEN OLD.nsr > (SELECT archived_nsr FROM journal_meta WHERE one = 1)
    BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only (only archived marks leave it)'); END;
  CREATE TRIGGER journal_facts_append_only_d BEFORE DELETE ON journal_facts
    WHEN OLD.seq > (SELECT archived_seq FROM journal_meta WHERE one = 1)
    BEGIN SELECT RAISE(ABORT, 'the evidence journal is append-only (only archived facts leave it)'); END;
  CREATE TRIGGER journal_archives_keep BEFORE DELETE ON journal_archives BEGIN SELECT RAISE(ABORT, 'an archive''s row is kept (removed_at says it was let go)'); END;
  `;
