/**
 * What reconciliation reads about a punch beside its row (sync/delivery/reconcile.ts): the punches of the
 * same employee that share its wall minute and zone (a DST fall-back shows 01:45 twice) already
 * settled, and whether a list of the service's records has said it is absent since it was last
 * released by a person. Read-only.
 */
import type { Db } from '../database.js';
import type { PunchRow } from './punch-row.js';

/** The punch_journal event of a check whose list proved the punch absent (Outbox.markAbsent). */
export const ABSENT_EVENT = 'absent_on_server';

export type SettledTwinRows = { count: number; recordIds: Array<string | null> };

export class PunchTwins {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      // By the unique index's prefix (employee_key): an employee's own rows only.
      settled: db.prepare(
        `SELECT remote_id FROM punches WHERE employee_key = ? AND local_date = ? AND local_time = ? AND time_zone = ?
           AND id <> ? AND state = 'sent' ORDER BY id`,
      ),
      // A person's release (resend, retry) starts the count again: only what came after it.
      lastVerdict: db.prepare(
        `SELECT event FROM punch_journal
         WHERE punch_id = ? AND event IN ('${ABSENT_EVENT}', 'resend_requested', 'retry_requested') ORDER BY id DESC LIMIT 1`,
      ),
    };
  }

  settled(p: Pick<PunchRow, 'id' | 'employee_key' | 'local_date' | 'local_time' | 'time_zone'>): SettledTwinRows {
    const rows = this.stmts.settled.all(p.employee_key, p.local_date, p.local_time, p.time_zone, p.id) as {
      remote_id: string | null;
    }[];
    return { count: rows.length, recordIds: rows.map((r) => r.remote_id) };
  }

  foundAbsent(id: number): boolean {
    return (this.stmts.lastVerdict.get(id) as { event: string } | undefined)?.event === ABSENT_EVENT;
  }
}
