/**
 * The punches of a date range as CSV for a spreadsheet: RFC 4180 (every field quoted when it holds
 * a comma, a quote, CR or LF; quotes doubled; CR LF between records), UTF-8 with a BOM so Excel on
 * Windows reads accents right. A text cell that a spreadsheet would take for a formula is written as
 * text (OWASP's CSV injection rule). Written page by page, yielding to the event loop between pages,
 * so a year of punches never stalls capture; through agent/host/export-file.ts, so a link or folder
 * planted under the file's name on a drive is refused, never written through.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { localDateTime } from '../../domain/time/local-time.js';
import type { ListedPunchRow, PunchLists } from '../../store/punches/punch-lists.js';
import { ExportFile } from '../host/export-file.js';

export const CSV_BOM = '\uFEFF';
export const CSV_EOL = '\r\n';
export const CSV_HEADER = [
  'local_date',
  'local_time',
  'employee_external_id',
  'employee_name',
  'state',
  'sent_at',
  'nsr',
  'service_id',
] as const;
/** Rows read and written per turn of the event loop. */
export const CSV_PAGE = 500;

/**
 * What makes a spreadsheet read a cell as a formula (or, tab and CR, hide one behind them):
 * OWASP's list. An employee's name comes from the service; "=HYPERLINK(...)" must stay a name.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field: a text starting like a formula gets a leading "'" (the spreadsheet shows it as text);
 * quoted only when it must be (RFC 4180 §2.6), quotes inside doubled (§2.7). Numbers are numbers.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const s = typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
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
  return csvRecord([
    r.local_date,
    r.local_time,
    r.employee_external_id,
    r.employee_name,
    r.state,
    sentAtText(r),
    r.nsr,
    r.remote_id,
  ]);
}

export type CsvWritten = { rows: number; bytes: number };

/**
 * Writes the punches dated from..to to `file` (replacing a regular file of that name, refusing a
 * link or anything else: ExportTargetError); resolves once it is on disk under its name.
 */
export async function writePunchCsv(
  lists: Pick<PunchLists, 'rangePage'>,
  from: string,
  to: string,
  file: string,
  page = CSV_PAGE,
): Promise<CsvWritten> {
  const out = await ExportFile.create(file, { replace: true, mode: 0o600 });
  let rows = 0;
  try {
    const put = (text: string): Promise<void> => out.write(text);
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
    await out.commit();
  } catch (e) {
    await out.discard();
    throw e;
  }
  return { rows, bytes: out.bytes };
}
