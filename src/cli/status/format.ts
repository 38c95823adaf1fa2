import { cutText } from '../../domain/people/long-text.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import type { Lang } from '../../messages/lang.js';
import { consoleLine, punchText } from '../../messages/punch-text.js';
import { cliLang } from '../common/lang.js';

/** A name on the console's one line per punch: as the receipt's QR code keeps it (`--json` has it whole). */
export const CONSOLE_NAME_MAX = 120;

/** One line per punch for the headless terminal: what the employee would read on screen, with the receipt's NSR. */
export function punchLine(r: PunchResult, lang: Lang = cliLang()): string {
  const name = r.employeeName;
  const long = typeof name === 'string' && name.length > CONSOLE_NAME_MAX;
  return consoleLine(lang, long ? { ...r, employeeName: cutText(name, CONSOLE_NAME_MAX) } : r);
}

/** "1 mark", "2 marks": the command line's own English lines (the catalogue words what employees and managers read). */
export function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

export function punchJson(r: PunchResult): string {
  return JSON.stringify(
    r.ok
      ? {
          ok: true,
          repeat: r.repeat,
          punch_id: r.punchId,
          nsr: r.nsr,
          employee_name: r.employeeName,
          employee_external_id: r.employeeExternalId,
          local_date: r.localDate,
          local_time: r.localTime,
          message: punchText('en', r),
          note: r.note ?? null,
        }
      : {
          ok: false,
          reason: r.reason,
          employee_external_id: r.employeeExternalId ?? null,
          local_date: null,
          local_time: null,
          message: punchText('en', r),
        },
  );
}

/** `timeclock status` as text (status-text.ts), here where the CLI's other formats are. */
export { statusText } from './status-text.js';
