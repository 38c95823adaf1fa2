/**
 * Migration 19 (issue 26 item 9): delivered punches in a compact form once their delivery log is gone.
 *
 * A delivered punch is final: after `retention.deliveryLogDays` nothing but the manager's lists, the
 * audit and the journal's checks read it, until retention deletes it (`retention.deliveredDays`). Its
 * row in `punches` (285 B with the six indexes) moves into `punches_delivered` (store/upkeep/punch-mover.ts):
 * - employee and zone by reference to two small lookup tables (`punch_people`, `punch_shapes`);
 * - the local date and time as the minutes between the local wall clock and UTC (`local_offset`);
 * - the service's 24-hex id as its 12 bytes (a BLOB; any other id kept as it was, NULL as NULL);
 * - sent_at as milliseconds after captured_at; anchored and collides as two bits of `flags`;
 * - what a delivered punch no longer uses (next attempt, checks, clock readings, reasons) not kept;
 * - two indexes: by capture time (the lists) and by NSR (the journal's reads).
 * The mover checks that the row reads back exactly before it deletes it from `punches`.
 *
 * `punch_history` is the one place that knows both: `punches` UNION ALL the compact rows decoded, with
 * exactly the columns of `punches`. Readers of delivered history read it; the queue and today's
 * reads stay on `punches`. `punch_counts` keeps counting a moved punch as 'sent' (the triggers below
 * add what the one on `punches` takes away). Nothing is moved by the migration itself.
 *
 * Each column of the view's second half has the affinity of the first's (CAST): the planner can then
 * flatten the view into a query and merge the two halves in index order (a page of a list costs its
 * rows, not a sort of the whole range).
 */
export const migration19 = `
  CREATE TABLE punch_people (
    ref                   INTEGER PRIMARY KEY,
    employee_key          TEXT NOT NULL,
    employee_external_id  TEXT,
    employee_name         TEXT NOT NULL
  );
  CREATE INDEX punch_people_by_key ON punch_people (employee_key);
  CREATE TABLE punch_shapes (
    ref              INTEGER PRIMARY KEY,
    time_zone        TEXT NOT NULL,
    credential_kind  TEXT NOT NULL,
    clock_flag       TEXT
  );
  CREATE INDEX punch_shapes_by_zone ON punch_shapes (time_zone);
  CREATE TABLE punches_delivered (
    id            INTEGER PRIMARY KEY,   -- punches.id, kept
    captured_at   INTEGER NOT NULL,
    local_offset  INTEGER NOT NULL,      -- local minute (local_date local_time) - captured_at / 60000
    person        INTEGER NOT NULL,      -- punch_people.ref
    shape         INTEGER NOT NULL,      -- punch_shapes.ref
    attempts      INTEGER NOT NULL,
    sent_after    INTEGER NOT NULL,      -- sent_at - captured_at, ms
    nsr           INTEGER NOT NULL,
    flags         INTEGER NOT NULL,      -- 1: anchored, 2: collides
    remote_id,                           -- 12-byte BLOB for a lowercase 24-hex id; otherwise as in punches
    last_error    TEXT
  );
  CREATE INDEX punches_delivered_captured_at ON punches_delivered (captured_at);
  CREATE UNIQUE INDEX punches_delivered_by_nsr ON punches_delivered (nsr);
  CREATE TABLE punches_moved_through (
    one      INTEGER PRIMARY KEY CHECK (one = 1),
    sent_at  INTEGER NOT NULL,               -- the mover has looked at the punches delivered through (sent_at, id)
    id       INTEGER NOT NULL
  );
  CREATE TRIGGER punches_delivered_final BEFORE UPDATE ON punches_delivered BEGIN
    SELECT RAISE(ABORT, 'a delivered punch is final');
  END;
  CREATE TRIGGER punches_delivered_count_insert AFTER INSERT ON punches_delivered BEGIN
    INSERT INTO punch_counts (state, n) VALUES ('sent', 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER punches_delivered_count_delete AFTER DELETE ON punches_delivered BEGIN
    UPDATE punch_counts SET n = n - 1 WHERE state = 'sent';
  END;
  CREATE VIEW punch_history AS
    SELECT id, captured_at, local_date, local_time, time_zone, employee_key, employee_external_id, employee_name,
      credential_kind, state, attempts, next_attempt_at, last_error, reject_reason, remote_id, sent_at, clock_flag,
      updated_at, held_reason, utc_minute, collides, checks, wall_at, mono_at, boot_id, anchored, nsr
    FROM punches
    UNION ALL
    SELECT d.id, d.captured_at,
      CAST(date((d.captured_at / 60000 + d.local_offset) * 60, 'unixepoch') AS TEXT),
      CAST(strftime('%H:%M', (d.captured_at / 60000 + d.local_offset) * 60, 'unixepoch') AS TEXT),
      s.time_zone, e.employee_key, e.employee_external_id, e.employee_name, s.credential_kind, CAST('sent' AS TEXT),
      d.attempts, CAST(NULL AS INTEGER), d.last_error, CAST(NULL AS TEXT),
      CAST(CASE WHEN typeof(d.remote_id) = 'blob' THEN lower(hex(d.remote_id)) ELSE d.remote_id END AS TEXT),
      CAST(d.captured_at + d.sent_after AS INTEGER), s.clock_flag, CAST(NULL AS INTEGER), CAST(NULL AS TEXT),
      CAST(d.captured_at / 60000 AS INTEGER), CAST((d.flags >> 1) & 1 AS INTEGER), CAST(NULL AS INTEGER),
      CAST(NULL AS INTEGER), CAST(NULL AS REAL), CAST(NULL AS TEXT), CAST(d.flags & 1 AS INTEGER), d.nsr
    FROM punches_delivered d JOIN punch_people e ON e.ref = d.person JOIN punch_shapes s ON s.ref = d.shape;
  `;
