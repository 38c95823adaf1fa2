/**
 * The outbox's statements on the durable connection: the capture's insert (one row a minute per
 * employee, the conflict answered by the row already there), the queue's picks by their indexes, and
 * the counts and lists status reads. Prepared once per outbox.
 */
import type { DurableDb } from '../database.js';

export function outboxStatements(db: DurableDb) {
  return {
    insert: db.prepare(
      `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_external_id,
         employee_name, credential_kind, state, next_attempt_at, clock_flag, updated_at, held_reason, utc_minute, collides,
         wall_at, mono_at, boot_id, anchored, nsr)
       VALUES (@capturedAt, @localDate, @localTime, @timeZone, @employeeKey, @employeeExternalId,
         @employeeName, @credentialKind, CASE WHEN @heldReason IS NULL THEN 'pending' ELSE 'held' END, @deadlineNow,
         @clockFlag, @deadlineNow, @heldReason, @utcMinute, @collides,
         @wallAt, @monoAt, @bootId, @anchored, @nsr)
       ON CONFLICT (employee_key, utc_minute, local_time) DO NOTHING
       RETURNING id, collides`,
    ),
    byMinute: db.prepare('SELECT * FROM punches WHERE employee_key = ? AND utc_minute = ? AND local_time = ?'),
    // Only asked when the zone's clock went back (a DST fall-back): the employee's own rows, by the unique index's
    // prefix.
    sameLocalMinute: db.prepare(
      'SELECT 1 FROM punches WHERE employee_key = ? AND local_date = ? AND local_time = ? LIMIT 1',
    ),
    colliding: db.prepare(
      'SELECT * FROM punches INDEXED BY punches_colliding WHERE collides = 1 ORDER BY id DESC LIMIT ?',
    ),
    collidingCount: db.prepare('SELECT COUNT(*) AS n FROM punches INDEXED BY punches_colliding WHERE collides = 1'),
    byId: db.prepare('SELECT * FROM punches WHERE id = ?'),
    dueBatch: db.prepare(
      // INDEXED BY: without statistics the planner takes punches_state and sorts the whole
      // backlog on every pick; this index hands them over in capture order.
      `SELECT * FROM punches INDEXED BY punches_unsent_by_id
       WHERE state IN ('pending','in_doubt') AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
    ),
    earliestDue: db.prepare(
      `SELECT MIN(next_attempt_at) AS t FROM punches INDEXED BY punches_due WHERE state IN ('pending','in_doubt')`,
    ),
    hasDue: db.prepare(
      `SELECT 1 FROM punches INDEXED BY punches_due WHERE state IN ('pending','in_doubt') AND next_attempt_at <= ? LIMIT 1`,
    ),
    retryRejected: db.prepare(
      `UPDATE punches SET state = 'pending', next_attempt_at = @now, reject_reason = NULL, updated_at = @now
       WHERE id = @id AND state = 'rejected'`,
    ),
    // `state <> 'sent'`: the condition of punches_state (partial since migration 17), so the index serves it.
    interrupted: db.prepare(
      `SELECT id FROM punches INDEXED BY punches_state WHERE state = 'sending' AND state <> 'sent'`,
    ),
    // Status and start cost the same after years of punches: counters kept by triggers and
    // indexes (migration 8), never a pass over the history.
    counts: db.prepare('SELECT state, n FROM punch_counts'),
    oldestUnsent: db.prepare(
      `SELECT MIN(captured_at) AS t FROM punches INDEXED BY punches_unsent_at WHERE state IN ('pending','sending','in_doubt')`,
    ),
    rejected: db.prepare(
      `SELECT * FROM punches INDEXED BY punches_state WHERE state = 'rejected' AND state <> 'sent' ORDER BY id LIMIT ?`,
    ),
    latestCapture: db.prepare('SELECT MAX(captured_at) AS t FROM punches INDEXED BY punches_captured_at'),
    rejectedIds: db.prepare(
      `SELECT id FROM punches INDEXED BY punches_state WHERE state = 'rejected' AND state <> 'sent'`,
    ),
    // Bounded below by the repeat window (at most 12 h), the latest picked by the caller: an ORDER BY sorted every
    // punch the employee has kept (a year's 500: 0.6-1.0 ms a punch); even over the window's few, it builds a sorter.
    since: db.prepare('SELECT * FROM punches WHERE employee_key = ? AND utc_minute >= ?'),
  };
}
