/**
 * Assembles an AFD export of this terminal (a REP-P writing type 7 marks only): header, the journal's
 * type 7 lines as they were sealed, trailer, signature line; CR LF after every line, the last too.
 * The store/agent side supplies the data and encodes the result as ISO 8859-1 (every character fits).
 */
import { buildHeader, type HeaderFields } from './header.js';
import { parseMark } from './mark.js';
import { buildTrailer, noCounts, signatureLine } from './trailer.js';

export const CRLF = '\r\n';

export type AfdExport = {
  /** Everything of the header but the generation time. */
  header: Omit<HeaderFields, 'generatedAt'>;
  /** The journal's type 7 lines, in NSR order, exactly as sealed (their hashes chain). */
  marks: readonly string[];
  /** AFD date-time of generation (afdDateTime). */
  generatedAt: string;
  /** True only when a detached CAdES .p7s of this text will accompany it. */
  signed: boolean;
};

export function buildAfd(e: AfdExport): string {
  const counts = noCounts();
  let previousNsr = 0;
  for (const [i, line] of e.marks.entries()) {
    const parsed = parseMark(line);
    if (!parsed.ok) throw new RangeError(`mark ${i + 1} is not a type 7 record: ${parsed.problem}`);
    if (parsed.mark.nsr <= previousNsr)
      throw new RangeError(`mark ${i + 1} (NSR ${parsed.mark.nsr}) is not after NSR ${previousNsr}`);
    previousNsr = parsed.mark.nsr;
    counts[7]++;
  }
  const lines = [
    buildHeader({ ...e.header, generatedAt: e.generatedAt }),
    ...e.marks,
    buildTrailer(counts),
    signatureLine(e.signed),
  ];
  return lines.map((l) => l + CRLF).join('');
}

/**
 * The Annex's name for a REP-P's file: "AFD" + INPI registration + employer CNPJ/CPF + "REP_P",
 * then, when given, "-" and the terminal that made it. The Annex gives no separators and no
 * extension; we add ".txt". Without a registration, the 17 zeros the header carries.
 * `employerId` is the 14-character CNPJ or the 11-digit CPF. The terminal: every terminal is an
 * installation of the REP-P with its own NSR sequence (docs/evidence-journal.md, "Who the REP-P
 * is"), so two terminals' files of one employer differ in their name as REP-C files differ by
 * the device's manufacturing number; the Annex's part stays the name's start.
 */
export function afdFileName(
  repRegistration: string | null,
  employerId: string,
  terminal: string | null = null,
): string {
  if (repRegistration !== null && !/^\d{1,17}$/.test(repRegistration))
    throw new RangeError(`an INPI registration is up to 17 digits: "${repRegistration}"`);
  if (!/^([0-9A-Z]{12}\d{2}|\d{11})$/.test(employerId)) throw new RangeError(`not a bare CNPJ or CPF: "${employerId}"`);
  if (terminal !== null && !TERMINAL_IN_NAME.test(terminal)) throw new RangeError(`not a terminal id: "${terminal}"`);
  return `AFD${(repRegistration ?? '').padStart(17, '0')}${employerId}REP_P${terminal === null ? '' : `-${terminal}`}.txt`;
}

/** A terminal id as the configuration allows it (config-fleet.ts terminalIdSchema). */
const TERMINAL_IN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * The terminal an AFD file name of ours names ("AFD…REP_P-<terminal>.txt"), or null (the Annex's bare name, or another
 * system's).
 */
export function terminalOfAfdFileName(fileName: string): string | null {
  const m = /^AFD\d{17}(?:[0-9A-Z]{12}\d{2}|\d{11})REP_P-([A-Za-z0-9][A-Za-z0-9._-]{0,62})\.txt$/.exec(fileName);
  return m?.[1] ?? null;
}
