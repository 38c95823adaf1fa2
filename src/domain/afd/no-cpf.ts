/**
 * The type 7 records of an AFD whose CPF field is all zeros (issue 26): a punch the terminal could
 * not tie to a worker's CPF. The file is still valid; an inspector is told each such NSR.
 */
import { parseMark } from './mark.js';

/** NSRs of the type 7 lines (CR LF separated, ISO 8859-1 text) without a CPF, in file order. */
export function marksWithoutCpf(latin1: string): number[] {
  const out: number[] = [];
  for (const line of latin1.split('\r\n')) {
    if (line.length !== 137 || line[9] !== '7') continue;
    const parsed = parseMark(line);
    if (parsed.ok && parsed.mark.cpf === null) out.push(parsed.mark.nsr);
  }
  return out;
}
