/**
 * Reads for the employee's day on the result screen: their own punches of the last two days (for
 * entry or exit and the day's list) and who punched in today without punching out (whom to
 * prefetch). Both ride existing indexes: (employee_key, utc_minute, …) and (captured_at).
 */
import type { Db } from '../database.js';

export type OwnPunch = { date: string; time: string };
export type OpenShift = { employeeKey: string; externalId: string | null; timeZone: string; punches: number };

const MINUTE = 60_000;

export class DayPunches {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      // Held punches count too: the employee punched, whatever the service has been told.
      recent: db.prepare<[string, number], OwnPunch>(
        'SELECT local_date AS date, local_time AS time FROM punches WHERE employee_key = ? AND utc_minute >= ? ORDER BY utc_minute, local_time',
      ),
      // By captured_at, named: for the GROUP BY SQLite otherwise walks the (employee_key, …) key over
      // every punch kept (0.4–0.6 s on the event loop beside a year of 250,000).
      open: db.prepare<[number, number], OpenShift>(
        `SELECT employee_key AS employeeKey, max(employee_external_id) AS externalId, max(time_zone) AS timeZone, count(*) AS punches
           FROM punches INDEXED BY punches_captured_at WHERE captured_at >= ? GROUP BY employee_key HAVING count(*) % 2 = 1 ORDER BY max(captured_at) LIMIT ?`,
      ),
    };
  }

  /** The employee's punches captured since `sinceMs` (service time), oldest first. */
  recent(employeeKey: string, sinceMs: number): OwnPunch[] {
    return this.stmts.recent.all(employeeKey, Math.floor(sinceMs / MINUTE));
  }

  /**
   * Employees with an odd number of punches since `sinceMs`: in, and not out yet; those who punched longest ago first.
   */
  openShifts(sinceMs: number, limit: number): OpenShift[] {
    return this.stmts.open.all(sinceMs, limit);
  }
}
