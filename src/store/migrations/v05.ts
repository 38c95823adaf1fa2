/**
 * Migration 5, as shipped: terminals in the field have run it, so it is never edited.
 *
 * a punch can be held (kept, not sent: the employee's contract forbids API records), and a
 * repeat is the same UTC minute, not the same wall minute (a DST fall-back gives one local
 * minute twice, an hour apart: two punches, both kept, the second flagged as colliding) —
 * SQLite cannot change a CHECK or UNIQUE constraint, so the table is rebuilt (migrate() turns
 * foreign keys off around it); the roster keeps allow_external_api_record as 1/0/NULL (NULL:
 * not defined) and a time zone the terminal could not load
 */
export const migration05 = `
  CREATE TABLE punches_v5 (
    id                    INTEGER PRIMARY KEY,
    captured_at           INTEGER NOT NULL,
    local_date            TEXT NOT NULL,
    local_time            TEXT NOT NULL,
    time_zone             TEXT NOT NULL,
    employee_key          TEXT NOT NULL,
    employee_external_id  TEXT,
    employee_name         TEXT NOT NULL,
    credential_kind       TEXT NOT NULL,
    state                 TEXT NOT NULL CHECK (state IN ('pending','sending','in_doubt','sent','rejected','held')),
    attempts              INTEGER NOT NULL DEFAULT 0,
    next_attempt_at       INTEGER NOT NULL,
    last_error            TEXT,
    reject_reason         TEXT,
    remote_id             TEXT,
    sent_at               INTEGER,
    clock_flag            TEXT,
    updated_at            INTEGER NOT NULL,
    held_reason           TEXT,              -- why a 'held' punch waits (outbox.ts HeldReason); NULL otherwise
    utc_minute            INTEGER NOT NULL,  -- captured_at / 60000: the repeat key
    collides              INTEGER NOT NULL DEFAULT 0, -- 1: another punch of the employee has the same local minute
    -- with local_time: the old key (employee, local minute) maps onto this one without a clash,
    -- so the copy below can never drop a punch
    UNIQUE (employee_key, utc_minute, local_time)
  );
  INSERT INTO punches_v5 (id, captured_at, local_date, local_time, time_zone, employee_key, employee_external_id, employee_name,
      credential_kind, state, attempts, next_attempt_at, last_error, reject_reason, remote_id, sent_at, clock_flag, updated_at, utc_minute)
    SELECT id, captured_at, local_date, local_time, time_zone, employee_key, employee_external_id, employee_name,
      credential_kind, state, attempts, next_attempt_at, last_error, reject_reason, remote_id, sent_at, clock_flag, updated_at,
      captured_at / 60000
    FROM punches;
  DROP TABLE punches;
  ALTER TABLE punches_v5 RENAME TO punches;
  CREATE INDEX punches_due ON punches (next_attempt_at, id) WHERE state IN ('pending','in_doubt');
  CREATE INDEX punches_state ON punches (state);
  CREATE INDEX punches_unsent_by_id ON punches (id, next_attempt_at) WHERE state IN ('pending','in_doubt');
  CREATE INDEX punches_held ON punches (employee_key) WHERE state = 'held';
  CREATE INDEX punches_colliding ON punches (id) WHERE collides = 1;

  ALTER TABLE roster_employees ADD COLUMN allow_api_record INTEGER;
  ALTER TABLE roster_employees ADD COLUMN timezone_invalid TEXT;
  ALTER TABLE roster_staging ADD COLUMN allow_api_record INTEGER;
  ALTER TABLE roster_staging ADD COLUMN timezone_invalid TEXT;
  CREATE INDEX roster_not_allowed ON roster_employees (full_name) WHERE allow_api_record = 0;
  `;
