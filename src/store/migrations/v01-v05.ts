/**
 * Schema migrations 1 to 5, as shipped: terminals in the field have run them, so they are
 * never edited (store/migrations.ts lists every file in order; new migrations go in a new file).
 */
export const migrationsV1toV5: readonly string[] = [
  // 1: outbox, journal, roster cache, rate window, settings
  `
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
  `,
  // 2: unsent punches in capture order without sorting the backlog on every pick; the old index
  //    on next_attempt_at is kept for "when is the next one due"
  `
  CREATE INDEX punches_unsent_by_id ON punches (id, next_attempt_at) WHERE state IN ('pending','in_doubt');
  `,
  // 3: identity — badge enrollments (kept across roster syncs), PINs (scrypt hashes only),
  //    attempt counters, the audit log, punches of not-yet-known credentials, lookup indexes
  `
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
  `,
  // 4: the roster being fetched, page by page, so a sync holds one page in memory rather than
  //    the whole site; swapped into roster_employees in one transaction when complete
  `
  CREATE TABLE roster_staging (
    id                   TEXT PRIMARY KEY,
    external_id          TEXT UNIQUE,
    full_name            TEXT NOT NULL,
    cpf                  TEXT,
    registration_number  TEXT,
    timezone             TEXT,
    work_schedule        TEXT,
    payment_source       TEXT
  );
  `,
  // 5: a punch can be held (kept, not sent: the employee's contract forbids API records), and a
  //    repeat is the same UTC minute, not the same wall minute (a DST fall-back gives one local
  //    minute twice, an hour apart: two punches, both kept, the second flagged as colliding) —
  //    SQLite cannot change a CHECK or UNIQUE constraint, so the table is rebuilt (migrate() turns
  //    foreign keys off around it); the roster keeps allow_external_api_record as 1/0/NULL (NULL:
  //    not defined) and a time zone the terminal could not load
  `
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
  `,
];
