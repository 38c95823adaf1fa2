/**
 * Without the site's stream (no Redis, or Redis out of reach), the service's records of the day
 * tell a terminal of punches taken at the others (issue 30): `GET /times` for one person and day,
 * in the budget's lowest band (before the self-service reads), standing aside while punches are
 * due. Never on the punch path.
 */
import type { ApiOutcome } from '../../api/classify.js';
import { describeOutcome } from '../../api/classify.js';
import type { EmployeeRef } from '../../api/shapes.js';
import type { TimesReading } from '../../api/time-records.js';
import { recordWallMinute, type WallZone } from '../../domain/time/record-time.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';

export type PresenceTimesDeps = {
  getTimes(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesReading>>;
  budget: RateBudget;
  /** While true, these reads wait (the outbox has punches due). */
  punchesDue: () => boolean;
};

/**
 * ok: the HH:MM of the day's records in `zone`; stop: the budget stopped (the agent stops) or the token was refused.
 */
export type DayTimes = { ok: true; times: string[] } | { ok: false; reason: string; stop: boolean };

export async function readDayTimes(
  d: PresenceTimesDeps,
  ref: EmployeeRef,
  date: string,
  zone: WallZone,
  signal: AbortSignal,
): Promise<DayTimes> {
  const ticket = await d.budget.acquire(Priority.presence, 'presence', { signal, standAside: d.punchesDue });
  if (!ticket) return { ok: false, reason: 'stopped', stop: true };
  let res: ApiOutcome<TimesReading>;
  try {
    res = await d.getTimes(ref, date, date);
  } finally {
    d.budget.release(ticket);
  }
  if (res.kind !== 'ok') return { ok: false, reason: describeOutcome(res), stop: res.kind === 'auth' };
  const times = res.value.times
    .map((t) => recordWallMinute(t.time, zone))
    .filter((m) => m.startsWith(`${date}T`))
    .map((m) => m.slice(11, 16));
  return { ok: true, times };
}
