/**
 * Workers whose punches the evidence cannot fully name (issue 26), listed before they punch:
 * without a CPF (their marks carry twelve zeros), and without an employer of their own (a payment
 * source the service does not know or that has not been read yet; none at all is roster health's: their receipts and
 * AFD fall
 * back to the configured employer). Read through partial indexes (migration 12; SQLite picks them: their names change
 * with each roster swap): the cost is the
 * few listed, not the roster.
 */
import type { Db } from '../database.js';
import { readSetting } from '../settings/settings.js';
import { SUMMARY_KEY } from './roster-summary.js';

export type GapEmployee = { id: string; externalId: string | null; name: string };
export type RosterGaps = {
  noCpf: { count: number; employees: GapEmployee[] };
  /**
   * Workers whose payment source the service does not know (`unknown`) or that was not read yet
   * (`unread`). Those with no payment source at all are roster health's `missingEmployer`.
   */
  noEmployer: { count: number; employees: (GapEmployee & { reason: 'unknown' | 'unread' })[] };
};

type Row = { id: string; external_id: string | null; full_name: string };
const employee = (r: Row): GapEmployee => ({ id: r.id, externalId: r.external_id, name: r.full_name });

export function rosterGaps(db: Db, limit = 20): RosterGaps {
  try {
    const noCpfCount = (
      db.prepare('SELECT COUNT(*) AS n FROM roster_employees WHERE cpf IS NULL').get() as { n: number }
    ).n;
    const noCpf = (
      db
        .prepare('SELECT id, external_id, full_name FROM roster_employees WHERE cpf IS NULL ORDER BY full_name LIMIT ?')
        .all(limit) as Row[]
    ).map(employee);
    // Payment sources the cache cannot name: few (a site has few employers). Found by a skip scan,
    // one index seek per distinct source (a DISTINCT would read the index's entry of every employee).
    const sources = db
      .prepare(
        `WITH RECURSIVE sources(id) AS (
           SELECT MIN(payment_source) FROM roster_employees WHERE payment_source IS NOT NULL
           UNION ALL
           SELECT (SELECT MIN(payment_source) FROM roster_employees WHERE payment_source > sources.id) FROM sources WHERE sources.id IS NOT NULL
         )
         SELECT sources.id AS id, e.missing AS missing, e.id IS NULL AS unread
         FROM sources LEFT JOIN employers e ON e.id = sources.id WHERE sources.id IS NOT NULL`,
      )
      .all() as { id: string; missing: number | null; unread: number }[];
    const bad = sources.filter((s) => s.unread || s.missing);
    const byId = db.prepare(
      'SELECT id, external_id, full_name FROM roster_employees WHERE payment_source = ? ORDER BY full_name LIMIT ?',
    );
    // Counted at the swap (roster-summary.ts): a pass over a source's index entries is 0.4 s for 100,000 on a busy
    // machine, at every status. Counted here only for a summary that does not keep them.
    const kept = bad.length > 0 ? readSetting(db, SUMMARY_KEY)?.sources : null;
    const countOf = db.prepare('SELECT COUNT(*) AS n FROM roster_employees WHERE payment_source = ?');
    let count = 0;
    const employees: RosterGaps['noEmployer']['employees'] = [];
    for (const s of bad) {
      count += kept ? (kept[s.id] ?? 0) : (countOf.get(s.id) as { n: number }).n;
      if (employees.length < limit) {
        const reason = s.unread ? ('unread' as const) : ('unknown' as const);
        employees.push(...(byId.all(s.id, limit - employees.length) as Row[]).map((r) => ({ ...employee(r), reason })));
      }
    }
    return { noCpf: { count: noCpfCount, employees: noCpf }, noEmployer: { count, employees } };
  } catch (e) {
    // A database of an older schema (read-only, not migrated yet): nothing known.
    if (/no such table/.test((e as Error).message))
      return { noCpf: { count: 0, employees: [] }, noEmployer: { count: 0, employees: [] } };
    throw e;
  }
}
