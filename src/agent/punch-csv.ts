/**
 * The punches of a date range as CSV for a spreadsheet: RFC 4180 (every field quoted when it holds
 * a comma, a quote, CR or LF; quotes doubled; CR LF between records), UTF-8 with a BOM so Excel on
 * Windows reads accents right. Written page by page, yielding to the event loop between pages, so a
 * year of punches never stalls capture.
 */
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { localDateTime } from '../domain/local-time.js';
import type { ListedPunchRow, PunchLists } from '../store/punch-lists.js';

export const CSV_BOM = '\uFEFF';
export const CSV_EOL = '\r\n';
export const CSV_HEADER = ['local_date', 'local_time', 'employee_external_id', 'employee_name', 'state', 'sent_at', 'nsr', 'service_id'] as const;
/** Rows read and written per turn of the event loop. */
export const CSV_PAGE = 500;

/** One field: quoted only when it must be (RFC 4180 §2.6), quotes inside doubled (§2.7). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRecord(fields: ReadonlyArray<string | number | null>): string {
  return fields.map(csvField).join(',') + CSV_EOL;
}

/** A delivered punch's delivery time in its own zone, as a spreadsheet reads it: "YYYY-MM-DD HH:MM". */
function sentAtText(r: ListedPunchRow): string | null {
  if (r.sent_at === null) return null;
  const l = localDateTime(r.sent_at, r.time_zone);
  return `${l.date} ${l.time}`;
}

export function csvRow(r: ListedPunchRow): string {
  return csvRecord([r.local_date, r.local_time, r.employee_external_id, r.employee_name, r.state, sentAtText(r), r.nsr, r.remote_id]);
}

export type CsvWritten = { rows: number; bytes: number };

/** Writes the punches dated from..to to `file` (replacing it); resolves once it is on disk. */
export async function writePunchCsv(lists: Pick<PunchLists, 'rangePage'>, from: string, to: string, file: string, page = CSV_PAGE): Promise<CsvWritten> {
  const fh = await fs.promises.open(file, 'w', 0o600);
  let rows = 0;
  let bytes = 0;
  try {
    const put = async (text: string): Promise<void> => {
      const buf = Buffer.from(text, 'utf8');
      await fh.write(buf);
      bytes += buf.length;
    };
    await put(CSV_BOM + csvRecord(CSV_HEADER));
    let after: { capturedAt: number; id: number } | null = null;
    for (;;) {
      const got = lists.rangePage(from, to, after, page);
      if (got.length > 0) await put(got.map(csvRow).join(''));
      rows += got.length;
      const last = got[got.length - 1];
      if (got.length < page || !last) break;
      after = { capturedAt: last.captured_at, id: last.id };
      await nextTurn();
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  return { rows, bytes };
}
