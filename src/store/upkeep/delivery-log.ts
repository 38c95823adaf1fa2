/**
 * The per-attempt delivery log of delivered punches (punch_journal: captured, sending, retries, sent),
 * pruned `retention.deliveryLogDays` after delivery (migration 17). Once a punch is delivered its log
 * answers only "how did the delivery go", for support in the days after; what counts (the mark, the
 * 'delivered' fact with the service's id) is in the evidence journal, and the row stays
 * `retention.deliveredDays` for the manager's lists. The lines of a punch not delivered are never
 * touched (reconciliation reads them: store/punches/punch-twins.ts).
 *
 * Delivered punches are walked by delivery time on punches_sent_at from where the last batch stopped
 * (delivery_log_pruned), so each is visited once whatever the table holds. A punch delivered with the
 * wall clock stepped back (sent_at behind the mark) keeps its lines until retention deletes the punch.
 */
import type { WritableDb } from '../database.js';

export type DeliveryLogBatch = { punches: number; lines: number; more: boolean };

export class DeliveryLog {
  private readonly stmts;

  constructor(private readonly db: WritableDb) {
    this.stmts = {
      mark: db.prepare('SELECT sent_at AS sentAt, id FROM delivery_log_pruned WHERE one = 1'),
      next: db.prepare(
        `SELECT id, sent_at AS sentAt FROM punches INDEXED BY punches_sent_at
         WHERE state = 'sent' AND sent_at < @cutoff AND (sent_at, id) > (@sentAt, @id) ORDER BY sent_at, id LIMIT @limit`,
      ),
      // The state asked again: only a delivered punch's lines go, whatever selected it.
      lines: db.prepare(
        `DELETE FROM punch_journal WHERE punch_id = @id AND EXISTS (SELECT 1 FROM punches WHERE id = @id AND state = 'sent')`,
      ),
      setMark: db.prepare(
        `INSERT INTO delivery_log_pruned (one, sent_at, id) VALUES (1, @sentAt, @id)
         ON CONFLICT (one) DO UPDATE SET sent_at = excluded.sent_at, id = excluded.id`,
      ),
    };
  }

  /** Up to `limit` punches delivered before `cutoff` lose their log lines, in one transaction. */
  prune(cutoff: number, limit: number): DeliveryLogBatch {
    return this.db
      .transaction((): DeliveryLogBatch => {
        const from = (this.stmts.mark.get() as { sentAt: number; id: number } | undefined) ?? { sentAt: -1, id: -1 };
        const rows = this.stmts.next.all({ cutoff, limit, ...from }) as { id: number; sentAt: number }[];
        let lines = 0;
        for (const { id } of rows) lines += this.stmts.lines.run({ id }).changes;
        const last = rows.at(-1);
        if (last) this.stmts.setMark.run(last);
        return { punches: rows.length, lines, more: rows.length === limit };
      })
      .immediate();
  }
}
