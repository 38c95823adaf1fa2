/**
 * `GET /times` read for reconciliation and the audit. The spec shows the record's `time` as
 * `YYYY-MM-DDTHH:MM`; a service that stores instants may write it with seconds and an offset, in
 * UTC or as an HTTP date (domain/time/record-time.ts reads each). A record that cannot be read is
 * counted in `skipped`, not the whole answer: the records read can still show a punch is there,
 * but such a list cannot show one is not. An answer without a `times` list is refused whole.
 */
import { parseRecordTime, type RecordTime } from '../domain/time/record-time.js';

/** `text`: the `time` as the service wrote it (for messages). */
export type TimeRecordRead = { time: RecordTime; text: string; id: string | null; type: string | null };
export type TimesReading = { times: TimeRecordRead[]; skipped: number };

export function readTimes(raw: unknown): TimesReading {
  const list = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)['times'] : undefined;
  if (!Array.isArray(list)) throw new Error('the answer has no times list');
  const times: TimeRecordRead[] = [];
  let skipped = 0;
  for (const item of list) {
    const r = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : null;
    const text = r?.['time'];
    const time = typeof text === 'string' ? parseRecordTime(text) : null;
    if (!r || time === null) {
      skipped++;
      continue;
    }
    const id = r['_id'];
    const type = r['type'];
    times.push({
      time,
      text: text as string,
      id: typeof id === 'string' ? id : null,
      type: typeof type === 'string' ? type : null,
    });
  }
  return { times, skipped };
}
