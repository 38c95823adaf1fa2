import { readEmployee, type EmployeeRecord, type RecordReading, type SkipReason } from '../../api/roster-records.js';
import { isValidTimeZone } from '../../domain/time/local-time.js';
import type { RosterEmployee } from '../../store/roster/roster.js';

/** Prefix of the roster key of an employee the service sent without `_id`. */
export const EXTERNAL_KEY_PREFIX = 'ext:';

/** A usable record (it has `_id` or `external_id`) as the roster keeps it. */
export function toRosterEmployee(e: EmployeeRecord): RosterEmployee {
  const id = e.id ?? `${EXTERNAL_KEY_PREFIX}${e.externalId ?? ''}`;
  const zoneOk = e.timezone === null || isValidTimeZone(e.timezone);
  return {
    id,
    external_id: e.externalId,
    full_name: e.fullName ?? e.registrationNumber ?? e.externalId ?? id,
    cpf: e.cpf,
    registration_number: e.registrationNumber,
    timezone: zoneOk ? e.timezone : null,
    work_schedule: e.workSchedule,
    payment_source: e.paymentSource,
    allow_api_record: e.allowApiRecord === null ? null : e.allowApiRecord ? 1 : 0,
    timezone_invalid: zoneOk ? null : e.timezone,
  };
}

/** A record as the service sent it, read on its own: a roster row, or why it cannot be one. */
export function rosterRowOf(
  raw: unknown,
): { ok: true; employee: RosterEmployee } | Extract<RecordReading, { ok: false }> {
  const r = readEmployee(raw);
  return r.ok ? { ok: true, employee: toRosterEmployee(r.employee) } : r;
}

/** A record the terminal could not use: where it stood in the listing (1-based), its id if any, why. */
export type SkippedRecord = { position: number; id: string | null; reason: SkipReason };
export type Skipped = { count: number; examples: SkippedRecord[] };

/** How many skipped records are listed by name (the rest are counted). */
const SKIPPED_LISTED = 20;

/** The usable rows of a page; the others counted in `skipped` (`listedBefore`: records of earlier pages). */
export function usableRows(items: readonly unknown[], listedBefore: number, skipped: Skipped): RosterEmployee[] {
  const usable: RosterEmployee[] = [];
  items.forEach((raw, i) => {
    const r = rosterRowOf(raw);
    if (r.ok) usable.push(r.employee);
    else {
      skipped.count++;
      if (skipped.examples.length < SKIPPED_LISTED)
        skipped.examples.push({ position: listedBefore + i + 1, id: r.id, reason: r.reason });
    }
  });
  return usable;
}
