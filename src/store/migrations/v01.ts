/**
 * Migration 1, as shipped: terminals in the field have run it, so it is never edited.
 *
 * outbox, journal, roster cache, rate window, settings
 */
export const migration01 = `
  CREATE TABLE punches (
    id                    INTEGER PRIMARY KEY,
    captured_at           INTEGER NOT NULL,  -- UTC ms of capture, from the terminal's clock
    local_date            TEXT NOT NULL,     -- YYYY-MM-DD in time_zone, computed at capture
    local_time            TEXT NOT NULL,     -- HH:MM
    time_zone             TEXT NOT NULL,
    employee_key          TEXT NOT NULL,     -- the employee's API _id: one identity for repeat detection
    employee_external_id  TEXT,              -- sent as employee_external_id when present, else _id as employee_id
    employee_name         TEXT NOT NULL,
    credential_kind       TEXT NOT NULL,
    state                 TEXT NOT NULL CHECK (state IN ('pending','sending','in_doubt','sent','rejected')),
    attempts              INTEGER NOT NULL DEFAULT 0,
    next_attempt_at       INTEGER NOT NULL,
    last_error            TEXT,
    reject_reason         TEXT,
    remote_id             TEXT,
    sent_at               INTEGER,
    clock_flag            TEXT,
    updated_at            INTEGER NOT NULL,
    UNIQUE (employee_key, local_date, local_time)
  );
  CREATE INDEX punches_due ON punches (next_attempt_at, id) WHERE state IN ('pending','in_doubt');
  CREATE INDEX punches_state ON punches (state);

  CREATE TABLE punch_journal (
    id        INTEGER PRIMARY KEY,
    punch_id  INTEGER NOT NULL REFERENCES punches(id),
    at        INTEGER NOT NULL,
    event     TEXT NOT NULL,
    detail    TEXT
  );
  CREATE INDEX punch_journal_punch ON punch_journal (punch_id);

  CREATE TABLE roster_employees (
    id                   TEXT PRIMARY KEY,
    external_id          TEXT,
    full_name            TEXT NOT NULL,
    cpf                  TEXT,
    registration_number  TEXT,
    timezone             TEXT,
    work_schedule        TEXT,
    payment_source       TEXT
  );
  CREATE UNIQUE INDEX roster_by_external_id ON roster_employees (external_id) WHERE external_id IS NOT NULL;

  CREATE TABLE rate_slots (
    id           INTEGER PRIMARY KEY,
    taken_at     INTEGER NOT NULL,
    released_at  INTEGER,
    purpose      TEXT NOT NULL
  );

  CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
  );
  `;
