/**
 * `GET /times` read for reconciliation. The spec shows the record's `time` as `YYYY-MM-DDTHH:MM`,
 * but a server may add seconds or an offset (`2026-11-23T07:31:00-03:00`): the first 16 characters
 * are the minute the terminal sent. A record that cannot be read is skipped, not the whole answer;
 * an answer without a `times` list cannot prove anything and is refused whole.
 */
export type TimeRecordRead = { minute: string; id: string | null; type: string | null };
export type TimesReading = { times: TimeRecordRead[]; skipped: number };

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function readTimes(raw: unknown): TimesReading {
  const list = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)['times'] : undefined;
  if (!Array.isArray(list)) throw new Error('the answer has no times list');
  const times: TimeRecordRead[] = [];
  let skipped = 0;
  for (const item of list) {
    const r = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : null;
    const time = r?.['time'];
    if (!r || typeof time !== 'string' || !MINUTE.test(time)) {
      skipped++;
      continue;
    }
    const id = r['_id'];
    const type = r['type'];
    times.push({ minute: time.slice(0, 16), id: typeof id === 'string' ? id : null, type: typeof type === 'string' ? type : null });
  }
  return { times, skipped };
}
