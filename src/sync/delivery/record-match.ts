/**
 * Which of the service's time records is a punch's: the one rule the reconciler (is an in-doubt
 * punch on the service?) and `timeclock audit compare` (is each mark?) share.
 */
import type { TimeRecordRead, TimesReading } from '../../api/time-records.js';
import { isValidTimeZone } from '../../domain/time/local-time.js';
import { instantOfWall, recordNamesMinute, type WallZone } from '../../domain/time/record-time.js';
import type { PunchRow } from '../../store/punches/punch-row.js';

/** What a punch sent: its wall minute (`YYYY-MM-DDTHH:MM`, no offset on the wire) and the zone it is wall time of. */
export type SentMinute = { minute: string; where: WallZone };

/** A record the API made ('registro externo', spec rule 2), or one whose type the server does not say. */
export function isApiRecord(t: Pick<TimeRecordRead, 'type'>): boolean {
  return t.type === null || t.type === 'registro externo';
}

/**
 * The punch's record: made by the API, and naming the punch's wall minute in the punch's zone
 * (a record without an offset as it stands; one with an offset or an HTTP date by its instant,
 * to the minute: `…23:27:00Z` is 20:27 in São Paulo).
 */
export function isRecordOf(t: TimeRecordRead, sent: SentMinute): boolean {
  return isApiRecord(t) && recordNamesMinute(t.time, sent.minute, sent.where);
}

/** A punch row's sent minute. Its zone was checked at capture; should it no longer be known, the offset it had then. */
export function sentMinuteOf(p: Pick<PunchRow, 'local_date' | 'local_time' | 'time_zone' | 'captured_at'>): SentMinute {
  const minute = `${p.local_date}T${p.local_time}`;
  if (isValidTimeZone(p.time_zone)) return { minute, where: { zone: p.time_zone } };
  const utc = Math.floor(p.captured_at / 60_000) * 60_000;
  return { minute, where: { offsetMinutes: Math.round((instantOfWall(minute, 0) - utc) / 60_000) } };
}

/**
 * Other punches of the same employee, wall minute and zone (a DST fall-back's second 01:45) already settled as sent.
 */
export type SettledTwins = { count: number; recordIds: ReadonlyArray<string | null> };

export type PunchVerdict =
  | { kind: 'present'; record: TimeRecordRead }
  | { kind: 'absent' }
  /** The list lacks enough matching records but has some it could not read: it proves nothing. */
  | { kind: 'unproven'; reason: string };

/**
 * What a `GET /times` list says of a punch. Records are counted, not just found: when `twins.count`
 * other punches of the employee name the same wall minute and are already settled, the list shows
 * this one only if it holds at least `twins.count + 1` matching records (two 01:45 across a
 * fall-back need two records; finding the first must not settle the second). The record taken
 * is one no twin has claimed by `_id`. Absence is proved only by a list read whole.
 */
export function verdictOf(reading: TimesReading, sent: SentMinute, twins: SettledTwins): PunchVerdict {
  const matching = reading.times.filter((t) => isRecordOf(t, sent));
  if (matching.length > twins.count) {
    const record =
      matching.find((t) => t.id === null || !twins.recordIds.includes(t.id)) ??
      (matching[twins.count] as TimeRecordRead);
    return { kind: 'present', record };
  }
  if (reading.skipped > 0) {
    const have =
      twins.count > 0
        ? `${matching.length} matching record(s) for ${twins.count + 1} punches at ${sent.minute}`
        : `no record at ${sent.minute}`;
    return {
      kind: 'unproven',
      reason: `${have}, and ${reading.skipped} record(s) of the list have a time that cannot be read`,
    };
  }
  return { kind: 'absent' };
}
