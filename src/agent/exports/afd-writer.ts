/**
 * The AFD's bytes: header, the marks page by page (the type 4 clock records between them in NSR
 * order), trailer and signature line, checked as they are written and hashed for the signature.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CRLF } from '../../domain/afd/export.js';
import { buildHeader, type HeaderFields } from '../../domain/afd/header.js';
import { parseMark } from '../../domain/afd/mark.js';
import { buildTrailer, noCounts, signatureLine } from '../../domain/afd/trailer.js';
import type { StoredMark } from '../../store/journal/journal-read.js';
import type { ExportFile } from '../host/export-file.js';
import { AfdExportError } from './afd-header-plan.js';

export type Written = {
  marks: number;
  firstNsr: number | null;
  lastNsr: number | null;
  bytes: number;
  /** Of the bytes written, for the signature. */ sha256: Buffer;
  noCpf: number[];
};

export const nsr9 = (n: number): string => String(n).padStart(9, '0');

/** A page of the marks to write, after NSR `after`. */
export type MarkPages = (after: number, n: number) => StoredMark[];

/**
 * Header, the marks page by page (a turn of the event loop between pages), trailer, signature line; fsynced and hashed
 * as written.
 */
export async function writeAfd(
  pages: MarkPages,
  clockRecords: readonly { nsr: number; line: string }[],
  out: ExportFile,
  header: HeaderFields,
  signed: boolean,
  pageSize: number,
): Promise<Written> {
  let bytes = 0;
  const hash = createHash('sha256');
  const put = async (text: string): Promise<void> => {
    const buf = Buffer.from(text, 'latin1');
    hash.update(buf);
    await out.write(buf);
    bytes += buf.length;
  };
  await put(buildHeader(header) + CRLF);
  const counts = noCounts();
  // Type 4 records (a clock found wrong after marks were sealed on it) go in NSR order between the marks.
  const adjustments = [...clockRecords];
  const noCpf: number[] = [];
  let first: number | null = null;
  let last = 0;
  for (;;) {
    const page = pages(last, pageSize);
    let text = '';
    for (const m of page) {
      while (adjustments[0] !== undefined && adjustments[0].nsr < m.nsr) {
        text += (adjustments.shift() as { line: string }).line + CRLF;
        counts[4]++;
      }
      // What buildAfd checks, a page at a time: a type 7 line, NSRs increasing.
      const parsed = parseMark(m.line);
      if (!parsed.ok || parsed.mark.nsr !== m.nsr || m.nsr <= last) {
        throw new AfdExportError(
          `the journal's mark NSR ${m.nsr} is not a type 7 record in order (${parsed.ok ? 'NSR out of order' : parsed.problem})`,
          'journal_invalid',
          { nsr: String(m.nsr) },
        );
      }
      first ??= m.nsr;
      last = m.nsr;
      if (parsed.mark.cpf === null) noCpf.push(m.nsr);
      counts[7]++;
      text += m.line + CRLF;
    }
    if (text) await put(text);
    if (page.length < pageSize) break;
    await nextTurn();
  }
  if (adjustments.length > 0) {
    await put(adjustments.map((a) => a.line + CRLF).join(''));
    counts[4] += adjustments.length;
  }
  await put(buildTrailer(counts) + CRLF + signatureLine(signed) + CRLF);
  return {
    marks: counts[7],
    firstNsr: first,
    lastNsr: first === null ? null : last,
    bytes,
    sha256: hash.digest(),
    noCpf,
  };
}
