import type { Resolution } from '../../domain/people/identity.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import type { TimeReading } from '../../domain/time/anchored-time.js';
import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { DurableDb } from '../../store/database.js';
import { cpfForMark } from '../../store/journal/mark-fields.js';
import type { UnresolvedPunch, UnresolvedPunches } from '../../store/punches/unresolved.js';
import type { RosterEmployee } from '../../store/roster/roster.js';

/**
 * Punches kept for codes no roster knew, matched after a roster sync (Capture.resolvePending): each one the
 * roster now knows joins the outbox at the time it was captured, its unresolved row closed, one transaction
 * per punch. Apart from capture.ts, which identifies and commits (passed in), as the one loop that runs
 * after a sync rather than on a punch's path.
 */
export function resolvePending(
  d: { db: DurableDb; unresolved: UnresolvedPunches; clock: Clock; log: Logger },
  /** Capture.identify for the row's code and input kind. */
  identify: (row: UnresolvedPunch) => Resolution<RosterEmployee>,
  /** Capture.commit. */
  commit: (
    employee: RosterEmployee,
    credentialKind: string,
    when: TimeReading,
    o: { capturedEarlier: boolean; nsr: number | null },
  ) => PunchResult,
): { resolved: number; remaining: number } {
  let resolved = 0;
  const now = d.clock.now();
  const rows = d.unresolved.all();
  for (const row of rows) {
    const found = identify(row);
    if (found.kind !== 'found') {
      d.unresolved.markChecked(row.id, now);
      continue;
    }
    const employee = found.employee;
    // IMMEDIATE: the repeat check reads before the insert writes.
    d.db
      .transaction(() => {
        // Its own clock readings: an unanchored one is recomputed before it is sent, as any punch.
        const when = {
          at: row.captured_at,
          wall: row.captured_at,
          mono: row.mono_at ?? 0,
          bootId: row.boot_id ?? '',
          anchored: row.anchored !== 0,
        };
        const r = commit(employee, row.credential_kind, when, { capturedEarlier: true, nsr: row.nsr });
        if (!r.ok) throw new Error(`punch refused: ${r.reason} ${JSON.stringify(r.params ?? {})}`);
        const became = r.repeat
          ? `a repeat of punch ${r.punchId} (NSR ${r.nsr ?? '?'}), not sent again`
          : `punch ${r.punchId}`;
        d.unresolved.resolve(
          row,
          now,
          `employee ${employee.id} cpf ${cpfForMark(employee.cpf) ?? 'unknown'}: ${became}`,
        );
      })
      .immediate();
    resolved++;
  }
  if (resolved > 0)
    d.log.info('unresolved punches matched after roster sync', { resolved, remaining: rows.length - resolved });
  return { resolved, remaining: rows.length - resolved };
}
