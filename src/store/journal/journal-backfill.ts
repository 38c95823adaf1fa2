import { localDateTime } from '../../domain/time/local-time.js';
import type { EvidenceJournal } from './evidence-journal.js';

/**
 * Punches taken before the journal existed (a terminal upgraded with its history): journalled once,
 * in capture order, at the agent's open. Their marks are written now, so their recording time is
 * the upgrade's and they are marked off-line (the record was not written as the punch was taken);
 * one 'backfilled' fact per batch names the NSRs it gave. A batch is one transaction: a stop
 * half-way leaves whole batches, and the next open goes on with the rest (the partial indexes on
 * `nsr IS NULL` find them without reading the journalled rows: nothing to do costs nothing).
 */

export type BackfillOptions = {
  /** The upgrade's instant (UTC ms): the records' recording time. */
  now: number;
  /** The zone of unresolved captures (the site's, else the terminal's): they have none of their own. */
  unresolvedZone: string;
  batch?: number;
};

export type BackfillResult = { marks: number; ms: number; first: number | null; last: number | null };

type Candidate = {
  kind: 'p' | 'u';
  id: number;
  captured_at: number;
  local_date: string | null;
  local_time: string | null;
  time_zone: string | null;
  cpf: string | null;
};

function parseCandidate(raw: unknown): Candidate {
  const r = raw as Record<string, unknown>;
  const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
  if ((r['kind'] !== 'p' && r['kind'] !== 'u') || typeof r['id'] !== 'number' || typeof r['captured_at'] !== 'number') {
    throw new Error('backfill: an unexpected punch row');
  }
  return {
    kind: r['kind'],
    id: r['id'],
    captured_at: r['captured_at'],
    local_date: str(r['local_date']),
    local_time: str(r['local_time']),
    time_zone: str(r['time_zone']),
    cpf: str(r['cpf']),
  };
}

export function backfillJournal(journal: EvidenceJournal, o: BackfillOptions): BackfillResult {
  const t0 = performance.now();
  const db = journal.db;
  const batch = o.batch ?? 2_000;
  const stmts = {
    // Both kinds merged by capture time, each from its partial index in that order.
    next: db.prepare(
      `SELECT 'p' AS kind, p.id, p.captured_at, p.local_date, p.local_time, p.time_zone, r.cpf
         FROM punches p INDEXED BY punches_unjournalled LEFT JOIN roster_employees r ON r.id = p.employee_key WHERE p.nsr IS NULL
       UNION ALL
       SELECT 'u' AS kind, u.id, u.captured_at, NULL, NULL, NULL, NULL
         FROM unresolved_punches u INDEXED BY unresolved_unjournalled WHERE u.nsr IS NULL
       ORDER BY captured_at, kind, id LIMIT ?`,
    ),
    punch: db.prepare('UPDATE punches SET nsr = ? WHERE id = ? AND nsr IS NULL'),
    unresolved: db.prepare('UPDATE unresolved_punches SET nsr = ? WHERE id = ? AND nsr IS NULL'),
  };
  let marks = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (;;) {
    const done = db
      .transaction((): number => {
        const rows = (stmts.next.all(batch) as unknown[]).map(parseCandidate);
        if (rows.length === 0) return 0;
        // One reservation for the whole batch (one sidecar write, not one per block of it).
        const from = journal.reserveNsr(rows.length - 1);
        let nsr = from;
        for (const row of rows) {
          const zone = row.time_zone ?? o.unresolvedZone;
          const local =
            row.local_date !== null && row.local_time !== null
              ? { date: row.local_date, time: row.local_time }
              : localDateTime(row.captured_at, zone);
          journal.appendMark({
            nsr,
            at: row.captured_at,
            localDate: local.date,
            localTime: local.time,
            zone,
            recordedAt: o.now,
            cpf: row.cpf,
            ...(row.kind === 'p' ? { punchId: row.id } : { unresolvedId: row.id }),
          });
          (row.kind === 'p' ? stmts.punch : stmts.unresolved).run(nsr, row.id);
          nsr++;
        }
        journal.facts.append(
          from,
          o.now,
          'backfilled',
          `${from}-${nsr - 1}: ${rows.length} punches taken before the evidence journal existed, journalled at upgrade`,
        );
        first ??= from;
        last = nsr - 1;
        return rows.length;
      })
      .immediate();
    journal.settle();
    marks += done;
    if (done < batch) break;
  }
  return { marks, ms: Math.round(performance.now() - t0), first, last };
}
