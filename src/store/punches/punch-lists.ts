/**
 * Reads for the admin screen's punch lists, each on an index (migrations v01-v05, v06-v11):
 * - waiting: unsent punches by punches_unsent_at (captured_at, partial) and held ones by
 *   punches_held / punches_state, merged oldest first; the total from punch_counts (no count pass);
 * - one employee's day: the unique (employee_key, utc_minute, local_time) index over the UTC
 *   minutes that can carry that local date in any zone (delivered punches moved into their compact
 *   form, migration 19: their capture time index over the same span);
 * - a date range, page by page: punches_captured_at (captured_at, rowid) with a keyset, so a page
 *   costs its own rows whatever the year holds.
 * Employees are found in the roster by its indexed keys, else by part of the name (a roster pass).
 * INDEXED BY where the planner, without statistics, would take punches_state and sort the backlog.
 * The day and the range read punch_history (both forms of a delivered punch); the waiting lists stay on punches.
 */
import { readCpf } from '../../domain/people/cpf.js';
import type { Db } from '../database.js';
import type { PunchRow } from './punch-row.js';

/** The columns the lists read: a punch row without the uploader's and the clock's bookkeeping. */
const LISTED = [
  'id',
  'captured_at',
  'local_date',
  'local_time',
  'time_zone',
  'employee_key',
  'employee_external_id',
  'employee_name',
  'state',
  'attempts',
  'last_error',
  'reject_reason',
  'held_reason',
  'remote_id',
  'sent_at',
  'nsr',
] as const satisfies ReadonlyArray<keyof PunchRow>;
export type ListedPunchRow = Pick<PunchRow, (typeof LISTED)[number]>;
export type FoundEmployee = { id: string; external_id: string | null; full_name: string };

const COLUMNS = LISTED.join(', ');
const MINUTE = 60_000;
const DAY = 86_400_000;
/** A local date lies within this of its UTC midnight in every zone (UTC-12 to UTC+14), and then some. */
const ZONE_MARGIN = 2 * DAY;

/** UTC midnight of a calendar day. */
const dayStart = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** `%` and `_` typed by a person are letters, not wildcards. */
const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class PunchLists {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      unsent: db.prepare<[number], ListedPunchRow>(
        `SELECT ${COLUMNS} FROM punches INDEXED BY punches_unsent_at WHERE state IN ('pending','sending','in_doubt') ORDER BY captured_at, id LIMIT ?`,
      ),
      held: db.prepare<[number], ListedPunchRow>(
        `SELECT ${COLUMNS} FROM punches WHERE state = 'held' ORDER BY captured_at, id LIMIT ?`,
      ),
      waitingTotal: db.prepare<[], { n: number }>(
        "SELECT COALESCE(SUM(n), 0) AS n FROM punch_counts WHERE state IN ('pending','sending','in_doubt','held')",
      ),
      byExternalId: db.prepare<[string], FoundEmployee>(
        'SELECT id, external_id, full_name FROM roster_employees WHERE external_id = ?',
      ),
      byRegistration: db.prepare<[string, number], FoundEmployee>(
        'SELECT id, external_id, full_name FROM roster_employees WHERE registration_number = ? LIMIT ?',
      ),
      byCpf: db.prepare<[string, number], FoundEmployee>(
        'SELECT id, external_id, full_name FROM roster_employees WHERE cpf = ? LIMIT ?',
      ),
      byId: db.prepare<[string], FoundEmployee>('SELECT id, external_id, full_name FROM roster_employees WHERE id = ?'),
      byName: db.prepare<[string, number], FoundEmployee>(
        "SELECT id, external_id, full_name FROM roster_employees WHERE full_name LIKE ? ESCAPE '\\' ORDER BY full_name, id LIMIT ?",
      ),
      // History (punch_history, migration 19): live rows by the repeat key's index, moved ones by capture time.
      day: db.prepare<[string, number, number, number, number, string], ListedPunchRow>(
        `SELECT ${COLUMNS} FROM punch_history WHERE employee_key = ? AND utc_minute BETWEEN ? AND ?
           AND captured_at BETWEEN ? AND ? AND local_date = ? ORDER BY captured_at, id`,
      ),
      // Both halves in capture order on their captured_at index, merged: a page costs its own rows.
      range: db.prepare<[number, number, number, number, string, string, number], ListedPunchRow>(
        `SELECT ${COLUMNS} FROM punch_history WHERE captured_at BETWEEN ? AND ? AND (captured_at, id) > (?, ?)
           AND local_date BETWEEN ? AND ? ORDER BY captured_at, id LIMIT ?`,
      ),
    };
  }

  /** Punches not yet delivered, oldest capture first, at most `limit`; `total` counts them all. */
  waiting(limit: number): { total: number; rows: ListedPunchRow[] } {
    const rows = [...this.stmts.unsent.all(limit), ...this.stmts.held.all(limit)];
    rows.sort((a, b) => a.captured_at - b.captured_at || a.id - b.id);
    return { total: this.stmts.waitingTotal.get()?.n ?? 0, rows: rows.slice(0, limit) };
  }

  /**
   * Employees a manager's query names: by external id, registration number, CPF (masked or not)
   * or API _id exactly; otherwise those whose name contains it (case-insensitive for ASCII).
   * At most `limit` + 1, so the caller can tell there were more.
   */
  findEmployees(query: string, limit: number): FoundEmployee[] {
    const q = query.trim();
    const found = new Map<string, FoundEmployee>();
    const add = (rows: ReadonlyArray<FoundEmployee | undefined>): void => {
      for (const r of rows) if (r && !found.has(r.id)) found.set(r.id, r);
    };
    add([this.stmts.byExternalId.get(q), this.stmts.byId.get(q)]);
    add(this.stmts.byRegistration.all(q, limit + 1));
    const cpf = readCpf(q);
    if (cpf.kind === 'cpf') add(this.stmts.byCpf.all(cpf.digits, limit + 1));
    if (found.size > 0) return [...found.values()].slice(0, limit + 1);
    return this.stmts.byName.all(`%${likeEscape(q)}%`, limit + 1);
  }

  /** One employee's punches of a local date, in capture order. */
  dayOf(employeeKey: string, date: string): ListedPunchRow[] {
    const lo = Math.floor((dayStart(date) - ZONE_MARGIN) / MINUTE);
    const hi = Math.floor((dayStart(date) + DAY + ZONE_MARGIN) / MINUTE);
    return this.stmts.day.all(employeeKey, lo, hi, lo * MINUTE, (hi + 1) * MINUTE - 1, date);
  }

  /**
   * Punches dated from..to (local dates, inclusive) after the keyset `after` (captured_at, id), in
   * capture order, at most `limit`: call again with the last row's keyset until a short page.
   */
  rangePage(
    from: string,
    to: string,
    after: { capturedAt: number; id: number } | null,
    limit: number,
  ): ListedPunchRow[] {
    const lo = dayStart(from) - ZONE_MARGIN;
    const hi = dayStart(to) + DAY + ZONE_MARGIN;
    const a = after ?? { capturedAt: lo - 1, id: 0 };
    return this.stmts.range.all(lo, hi, a.capturedAt, a.id, from, to, limit);
  }
}
