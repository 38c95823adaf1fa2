/**
 * Migration 10, as shipped: terminals in the field have run it, so it is never edited.
 *
 * a roster is swapped in by renaming tables, not by copying rows (store/roster/roster-tables.ts):
 * staging becomes a twin of roster_employees, indexes included, under index names of its own
 * (they are global and follow a renamed table); unfit employees are indexed by name, so
 * roster health lists the first 50 without a pass. After a swap the roster's indexes are named
 * roster_g<n>_…: a later migration finds them by tbl_name in sqlite_master, and one that
 * changes roster_employees changes roster_staging the same way (new staging tables are cloned
 * from roster_employees). Enrolled badges are counted by triggers: status no longer counts
 * 100,000 of them on every refresh.
 */
export const migration10 = `
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
  `;
