/**
 * The AFD type "9" record, the trailer (docs/afd-layout.md "Type 9"), and the signature line after it.
 *
 *   001-009 "999999999" · 010-018 count of type 2 · 019-027 type 3 · 028-036 type 4
 *   037-045 type 5 · 046-054 type 6 · 055-063 type 7 · 064 "9" (the type is the last character)
 *
 * The last line is 100 characters. REP-A and REP-P write "ASSINATURA_DIGITAL_EM_ARQUIVO_P7S" padded
 * with spaces: the signature itself is a detached CAdES .p7s. A file we export without that .p7s
 * keeps the line but says so (UNSIGNED_MARKER): claiming a .p7s that does not exist would be false.
 */

export const TRAILER_LENGTH = 64;
export const SIGNATURE_LINE_LENGTH = 100;
export const SIGNED_MARKER = 'ASSINATURA_DIGITAL_EM_ARQUIVO_P7S';
export const UNSIGNED_MARKER = 'ARQUIVO_NAO_ASSINADO';

export const COUNTED_TYPES = [2, 3, 4, 5, 6, 7] as const;
export type CountedType = (typeof COUNTED_TYPES)[number];
export type TypeCounts = Record<CountedType, number>;

export const noCounts = (): TypeCounts => ({ 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 });

export function buildTrailer(counts: TypeCounts): string {
  const fields = COUNTED_TYPES.map((t) => {
    const n = counts[t];
    if (!Number.isInteger(n) || n < 0 || n > 999_999_999) throw new RangeError(`count of type ${t} out of range: ${n}`);
    return String(n).padStart(9, '0');
  });
  return `999999999${fields.join('')}9`;
}

export type ParsedTrailer = { ok: true; counts: TypeCounts } | { ok: false; problem: string };

export function parseTrailer(line: string): ParsedTrailer {
  if (line.length !== TRAILER_LENGTH)
    return { ok: false, problem: `a trailer (type 9) has ${TRAILER_LENGTH} characters, this one ${line.length}` };
  if (!line.startsWith('999999999'))
    return { ok: false, problem: `a trailer starts with "999999999", this one "${line.slice(0, 9)}"` };
  if (line[63] !== '9') return { ok: false, problem: `record type at position 64 is "${line[63]}", not "9"` };
  const counts = noCounts();
  for (const [i, t] of COUNTED_TYPES.entries()) {
    const field = line.slice(9 + i * 9, 18 + i * 9);
    if (!/^\d{9}$/.test(field)) return { ok: false, problem: `count of type ${t} "${field}" is not 9 digits` };
    counts[t] = Number(field);
  }
  return { ok: true, counts };
}

/** The last line: the .p7s marker when a detached signature accompanies the file, else ours. */
export function signatureLine(signed: boolean): string {
  return (signed ? SIGNED_MARKER : UNSIGNED_MARKER).padEnd(SIGNATURE_LINE_LENGTH, ' ');
}

/**
 * What a last line says: 'p7s' (signature in a detached .p7s), 'unsigned' (ours, no signature),
 * 'other' (100 characters we cannot check, e.g. a REP-C's own field), or null when not 100 characters.
 */
export function signatureKind(line: string): 'p7s' | 'unsigned' | 'other' | null {
  if (line.length !== SIGNATURE_LINE_LENGTH) return null;
  if (line === signatureLine(true)) return 'p7s';
  if (line === signatureLine(false)) return 'unsigned';
  return 'other';
}
