/**
 * Migration 3, as shipped: terminals in the field have run it, so it is never edited.
 *
 * identity — badge enrollments (kept across roster syncs), PINs (scrypt hashes only),
 * attempt counters, the audit log, punches of not-yet-known credentials, lookup indexes
 */
export const migration03 = `
  CREATE TABLE badge_enrollments (
    code         TEXT PRIMARY KEY,
    employee_id  TEXT NOT NULL,        -- roster _id; no foreign key: it must outlive roster syncs
    enrolled_at  INTEGER NOT NULL,
    enrolled_via TEXT NOT NULL
  );
  CREATE INDEX badge_enrollments_by_employee ON badge_enrollments (employee_id);
  CREATE INDEX roster_by_registration ON roster_employees (registration_number) WHERE registration_number IS NOT NULL;
  CREATE INDEX roster_by_cpf ON roster_employees (cpf) WHERE cpf IS NOT NULL;

  CREATE TABLE employee_pins (
    employee_id  TEXT PRIMARY KEY,
    salt         BLOB NOT NULL,
    hash         BLOB NOT NULL,
    params       TEXT NOT NULL,        -- scrypt parameters as JSON, so they can be raised later
    set_at       INTEGER NOT NULL
  );
  CREATE TABLE pin_attempts (
    employee_id   TEXT PRIMARY KEY,
    failures      INTEGER NOT NULL,    -- wrong PINs in a row
    locked_until  INTEGER
  );

  CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY,
    at           INTEGER NOT NULL,
    event        TEXT NOT NULL,
    employee_id  TEXT,
    detail       TEXT
  );
  CREATE INDEX audit_log_at ON audit_log (at);

  CREATE TABLE unresolved_punches (
    id               INTEGER PRIMARY KEY,
    captured_at      INTEGER NOT NULL,
    code             TEXT NOT NULL,
    credential_kind  TEXT NOT NULL,
    last_checked_at  INTEGER
  );
  `;
