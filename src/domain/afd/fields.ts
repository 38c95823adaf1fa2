/**
 * Field forms shared by the AFD record layouts (docs/afd-layout.md "Field forms"): D and DH dates,
 * fixed-width padding, and identifier fields that other systems write in either of the two ways the
 * Annex allows to be read (zero-padded on the left, or left-aligned with trailing spaces per its rule 7).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):00([+-])(\d{2})(\d{2})$/;

/** "AAAA-MM-dd" naming a real calendar day. */
export function isAfdDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/** "AAAA-MM-ddThh:mm:00ZZZZZ" with a real day, hh 00-23, mm 00-59 and a zone of at most ±14:59. */
export function isAfdDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m || !isAfdDate(m[1] as string)) return false;
  return Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[5]) <= 14 && Number(m[6]) <= 59;
}

/** The local date part of a DH ("2025-09-24T13:32:00-0300" -> "2025-09-24"). */
export const dateOf = (dateTime: string): string => dateTime.slice(0, 10);

/** Text that fits one line of an ISO 8859-1 file: no control characters, nothing above U+00FF. */
export function isLineText(text: string): boolean {
  return /^[\x20-\x7e\xa0-\xff]*$/.test(text);
}

/** An A field: left-aligned, space-filled; refuses text that does not fit rather than cutting it. */
export function alpha(text: string, size: number, what: string): string {
  if (!isLineText(text)) throw new RangeError(`${what} has a character ISO 8859-1 cannot carry on one line`);
  if (text.length > size) throw new RangeError(`${what} has ${text.length} characters, the field ${size}`);
  return text.padEnd(size, ' ');
}

/** An N field: right-aligned, zero-filled (as NSRs and the CPF in real AFDs are). */
export function numeric(digits: string, size: number, what: string): string {
  if (!/^\d*$/.test(digits) || digits.length > size)
    throw new RangeError(`${what} is not up to ${size} digits: "${digits}"`);
  return digits.padStart(size, '0');
}

/**
 * Reads an identifier written into a wider N field (a CPF of 11 in 12 or 14, a CNO of 12 in 14):
 * either right-aligned with zeros or left-aligned with spaces. Returns the significant characters,
 * or null when the field is neither. `core` matches the identifier itself.
 */
export function readPaddedId(field: string, core: RegExp): string | null {
  const trimmed = field.trimEnd();
  if (trimmed.length < field.length) return core.test(trimmed) ? trimmed : null;
  for (let zeros = 0; zeros <= field.length; zeros++) {
    const rest = field.slice(zeros);
    if (core.test(rest) && /^0*$/.test(field.slice(0, zeros))) return rest;
  }
  return null;
}

/** A 12-character CPF field as the records use it: "0" + 11 digits, or 11 digits + a space. */
export function readCpf12(field: string): string | null {
  return readPaddedId(field, /^\d{11}$/);
}
