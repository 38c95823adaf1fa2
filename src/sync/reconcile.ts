import type { TimeRecordRead, TimesReading } from '../api/time-records.js';
import { addDays } from '../domain/local-time.js';
import type { PunchRow } from '../store/outbox.js';

/**
 * The days to ask `GET /times` for: the day before to the day after the punch's, so the record is
 * inside the interval whether the server's end date is inclusive or exclusive, and whatever day
 * boundary it uses; the match is made here, by minute.
 */
export function checkRange(p: Pick<PunchRow, 'local_date'>): { start: string; end: string } {
  return { start: addDays(p.local_date, -1), end: addDays(p.local_date, 1) };
}

/** The server's record of this punch: same minute (seconds and offsets ignored), a record the API made. */
export function recordOf(reading: TimesReading, p: Pick<PunchRow, 'local_date' | 'local_time'>): TimeRecordRead | null {
  const wanted = `${p.local_date}T${p.local_time}`;
  return reading.times.find((t) => t.minute === wanted && (t.type === null || t.type === 'registro externo')) ?? null;
}
