/**
 * The AFD type "4" record, "ajuste do relógio" (Portaria MTP 671/2021, Annex V; docs/afd-layout.md):
 * the terminal's time before an adjustment and the time after it. This terminal writes one when it
 * learns that punches it already sealed were timed by a wrong clock (its first answer from the
 * service after a boot on a clock that was off): the marks keep what was sealed, the type 4 record
 * that follows them says by how much the clock was wrong. Pure.
 *
 *   001-009   9  NSR (the journal's one sequence, after the marks it corrects)
 *   010       1  "4"
 *   011-034  24  date-time before the adjustment (the terminal's own clock)
 *   035-058  24  date-time after it (the service's clock)
 *   059-069  11  CPF of who adjusted it: eleven zeros, no person did (our choice: the Annex names none)
 *   070-073   4  CRC-16/KERMIT of positions 1-69, four upper-case hex digits
 */
import { crc16Kermit, crcField } from './crc16.js';
import { isAfdDateTime } from './fields.js';

export const CLOCK_RECORD_LENGTH = 73;
export const NO_PERSON_CPF = '00000000000';

export type ClockAdjustment = { nsr: number; before: string; after: string; responsibleCpf?: string };

export function buildClockRecord(a: ClockAdjustment): string {
  if (!Number.isInteger(a.nsr) || a.nsr < 1 || a.nsr > 999_999_999) throw new RangeError(`NSR out of range: ${a.nsr}`);
  if (!isAfdDateTime(a.before) || !isAfdDateTime(a.after))
    throw new RangeError(`not AFD date-times: ${a.before} / ${a.after}`);
  const cpf = a.responsibleCpf ?? NO_PERSON_CPF;
  if (!/^\d{11}$/.test(cpf)) throw new RangeError('a CPF is 11 digits');
  const body = `${String(a.nsr).padStart(9, '0')}4${a.before}${a.after}${cpf}`;
  return body + crcField(crc16Kermit(body));
}

/** Minutes east of UTC of an AFD date-time's ZZZZZ. */
function offsetOf(dh: string): number {
  return (dh[19] === '-' ? -1 : 1) * (Number(dh.slice(20, 22)) * 60 + Number(dh.slice(22, 24)));
}

/** The UTC instant (ms) an AFD date-time names (its minute). */
export function afdInstantOf(dh: string): number {
  return (
    Date.UTC(
      Number(dh.slice(0, 4)),
      Number(dh.slice(5, 7)) - 1,
      Number(dh.slice(8, 10)),
      Number(dh.slice(11, 13)),
      Number(dh.slice(14, 16)),
    ) -
    offsetOf(dh) * 60_000
  );
}
