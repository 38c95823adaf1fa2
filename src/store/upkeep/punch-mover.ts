/**
 * Moves delivered punches into their compact form (migration 19: `punches_delivered`) once their
 * delivery log is gone (store/upkeep/delivery-log.ts, `retention.deliveryLogDays` after delivery): a
 * delivered punch is final, and from then on only the lists, the audit and the journal read it, through
 * `punch_history`. Walked by delivery time on punches_sent_at up to where the delivery log's pruning
 * stopped (delivery_log_pruned), from where the last batch stopped (punches_moved_through), each batch its own
 * transaction: each punch is looked at once.
 *
 * Only a row in state 'sent' with an NSR, no delivery log line left and nothing the compact form does
 * not keep (a held or reject reason; clock readings, which an unanchored punch keeps as evidence)
 * moves, and only if it reads back exactly (local date and time, the service's id): the INSERT's own
 * WHERE asks it, and the row leaves `punches` only when the insert took it. Anything else stays where
 * it is (retention deletes it in time). Held, rejected, pending, sending and in-doubt rows never move.
 */
import type { WritableDb } from '../database.js';

export type MoveBatch = { moved: number; more: boolean };

/** The compact row's local minute against UTC; the checks below make sure it decodes to the row's. */
const LOCAL_OFFSET = `unixepoch(p.local_date || ' ' || p.local_time) / 60 - p.captured_at / 60000`;
const LOCAL_MINUTE = `(p.captured_at / 60000 + ${LOCAL_OFFSET}) * 60`;
const IS_HEX24 = `length(p.remote_id) = 24 AND p.remote_id NOT GLOB '*[^0-9a-f]*'`;

export class PunchMover {
  private readonly stmts;

  constructor(private readonly db: WritableDb) {
    this.stmts = {
      upTo: db.prepare('SELECT sent_at AS sentAt, id FROM delivery_log_pruned WHERE one = 1'),
      from: db.prepare('SELECT sent_at AS sentAt, id FROM punches_moved_through WHERE one = 1'),
      next: db.prepare(
        `SELECT id, sent_at AS sentAt FROM punches INDEXED BY punches_sent_at
         WHERE state = 'sent' AND (sent_at, id) > (@fromSentAt, @fromId) AND (sent_at, id) <= (@sentAt, @id)
         ORDER BY sent_at, id LIMIT @limit`,
      ),
      setFrom: db.prepare(
        `INSERT INTO punches_moved_through (one, sent_at, id) VALUES (1, @sentAt, @id)
         ON CONFLICT (one) DO UPDATE SET sent_at = excluded.sent_at, id = excluded.id`,
      ),
      person: db.prepare(
        `INSERT INTO punch_people (employee_key, employee_external_id, employee_name)
         SELECT p.employee_key, p.employee_external_id, p.employee_name FROM punches p WHERE p.id = @id AND NOT EXISTS
           (SELECT 1 FROM punch_people e WHERE e.employee_key = p.employee_key
              AND e.employee_external_id IS p.employee_external_id AND e.employee_name = p.employee_name)`,
      ),
      shape: db.prepare(
        `INSERT INTO punch_shapes (time_zone, credential_kind, clock_flag)
         SELECT p.time_zone, p.credential_kind, p.clock_flag FROM punches p WHERE p.id = @id AND NOT EXISTS
           (SELECT 1 FROM punch_shapes s WHERE s.time_zone = p.time_zone
              AND s.credential_kind = p.credential_kind AND s.clock_flag IS p.clock_flag)`,
      ),
      copy: db.prepare(
        `INSERT INTO punches_delivered
           (id, captured_at, local_offset, person, shape, attempts, sent_after, nsr, flags, remote_id, last_error)
         SELECT p.id, p.captured_at, ${LOCAL_OFFSET},
           (SELECT e.ref FROM punch_people e WHERE e.employee_key = p.employee_key
              AND e.employee_external_id IS p.employee_external_id AND e.employee_name = p.employee_name),
           (SELECT s.ref FROM punch_shapes s WHERE s.time_zone = p.time_zone
              AND s.credential_kind = p.credential_kind AND s.clock_flag IS p.clock_flag),
           p.attempts, p.sent_at - p.captured_at, p.nsr, p.anchored | (p.collides << 1),
           CASE WHEN ${IS_HEX24} THEN unhex(p.remote_id) ELSE p.remote_id END, p.last_error
         FROM punches p
         WHERE p.id = @id AND p.state = 'sent' AND p.nsr IS NOT NULL AND p.sent_at IS NOT NULL
           AND p.held_reason IS NULL AND p.reject_reason IS NULL
           AND p.wall_at IS NULL AND p.mono_at IS NULL AND p.boot_id IS NULL AND p.utc_minute = p.captured_at / 60000 AND p.anchored IN (0, 1) AND p.collides IN (0, 1)
           AND typeof(p.attempts) = 'integer' AND (p.remote_id IS NULL OR typeof(p.remote_id) = 'text')
           AND date(${LOCAL_MINUTE}, 'unixepoch') = p.local_date
           AND strftime('%H:%M', ${LOCAL_MINUTE}, 'unixepoch') = p.local_time
           AND NOT EXISTS (SELECT 1 FROM punch_journal j WHERE j.punch_id = p.id)`,
      ),
      drop: db.prepare(`DELETE FROM punches WHERE id = @id AND state = 'sent'`),
    };
  }

  /** Up to `limit` delivered punches whose delivery log is gone move, in one transaction. */
  move(limit: number): MoveBatch {
    return this.db
      .transaction((): MoveBatch => {
        const upTo = this.stmts.upTo.get() as { sentAt: number; id: number } | undefined;
        if (!upTo) return { moved: 0, more: false };
        const from = (this.stmts.from.get() as { sentAt: number; id: number } | undefined) ?? { sentAt: -1, id: -1 };
        const rows = this.stmts.next.all({ ...upTo, fromSentAt: from.sentAt, fromId: from.id, limit }) as {
          id: number;
          sentAt: number;
        }[];
        let moved = 0;
        for (const { id } of rows) {
          this.stmts.person.run({ id });
          this.stmts.shape.run({ id });
          if (this.stmts.copy.run({ id }).changes === 1) moved += this.stmts.drop.run({ id }).changes;
        }
        const last = rows.at(-1);
        if (last) this.stmts.setFrom.run(last);
        return { moved, more: rows.length === limit };
      })
      .immediate();
  }
}
