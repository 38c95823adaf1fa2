/**
 * Verifies a whole AFD, ours or another system's (docs/afd-layout.md "Verifying a file"): CRLF lines,
 * no blank line, header first, records in strictly increasing NSR, trailer counts, the signature line
 * last, every line's form and CRC, and the type 7 SHA-256 chain. The caller decodes the bytes as
 * ISO 8859-1 and passes the hash function (domain does no I/O). Every problem found is kept; the
 * result names the one on the earliest line.
 */
import { afdInstantOf } from './clock-record.js';
import { markHashMatches, type Sha256Hex } from './mark.js';
import { parseRecord, recordDate, type AfdRecord } from './records.js';
import { COUNTED_TYPES, noCounts, signatureKind, type TypeCounts } from './trailer.js';

export type AfdProblem = { line: number; message: string };

export type AfdVerification = {
  ok: boolean;
  /** Lines in the file, the signature line included. */
  lines: number;
  /** Records of each type actually present (not what the trailer claims). */
  counts: TypeCounts;
  firstProblem: AfdProblem | null;
  warnings: string[];
  /** How the type 7 chain was tied down: from the journal's start, or trusting the first mark's hash. */
  chain: { kind: 'from-start' | 'anchored'; line: number; nsr: number } | null;
  /** What the last line says: a detached .p7s, our unsigned marker, 100 other characters, or nothing. */
  signature: 'p7s' | 'unsigned' | 'other' | 'absent';
};

type Line = { n: number; text: string };

/** Splits on CRLF; a CR or LF on its own is a problem, named with its line. */
function splitLines(text: string, problems: AfdProblem[], warnings: string[]): Line[] {
  let n = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      if (text[i - 1] !== '\r') problems.push({ line: n, message: 'line ends with LF alone, not CR LF' });
      n++;
    } else if (c === '\r' && text[i + 1] !== '\n') {
      problems.push({ line: n, message: 'line ends with CR alone, not CR LF' });
    }
  }
  const parts = text.split(/\r?\n/);
  if (parts[parts.length - 1] === '') parts.pop();
  else warnings.push(`the last line (${parts.length}) does not end with CR LF`);
  return parts.map((t, i) => ({ n: i + 1, text: t }));
}

export function verifyAfd(text: string, sha256: Sha256Hex): AfdVerification {
  const problems: AfdProblem[] = [];
  const warnings: string[] = [];
  const problem = (line: number, message: string): void => void problems.push({ line, message });
  const lines = splitLines(text, problems, warnings);
  const counts = noCounts();
  let chain: AfdVerification['chain'] = null;
  let signature: AfdVerification['signature'] = 'absent';

  if (lines.length === 0) problem(1, 'the file is empty');
  const trailerAt = lines.findIndex((l) => l.text.startsWith('999999999') && l.text.length === 64);
  if (lines.length > 0 && trailerAt < 0)
    problem(lines.length, 'no trailer (a type 9 record: "999999999" + counts + "9")');
  const body = trailerAt < 0 ? lines : lines.slice(0, trailerAt + 1);

  // After the trailer: at most one line, the signature; any 100 characters are accepted there (REP-C write their own).
  if (trailerAt >= 0) {
    const after = lines.slice(trailerAt + 1);
    const last = after[0];
    if (last === undefined) warnings.push('no signature line after the trailer');
    else {
      const kind = signatureKind(last.text);
      if (kind === null)
        problem(
          last.n,
          last.text === '' ? 'a blank line' : `the signature line has 100 characters, this one ${last.text.length}`,
        );
      else signature = kind;
      if (kind === 'unsigned') warnings.push('the file says it is not signed (no .p7s)');
      if (kind === 'other') warnings.push(`the signature line (${last.n}) is not the .p7s marker; it was not checked`);
    }
    for (const extra of after.slice(1))
      problem(
        extra.n,
        extra.text === '' ? 'a blank line' : 'a line after the signature line: the trailer must be second to last',
      );
  }

  const records: { n: number; record: AfdRecord }[] = [];
  for (const { n, text: t } of body) {
    if (t === '') {
      problem(n, 'a blank line');
      continue;
    }
    if (!/^[\x20-\x7e\xa0-\xff]*$/.test(t)) problem(n, 'a character outside ISO 8859-1 text');
    const parsed = parseRecord(t);
    if (!parsed.ok) problem(n, parsed.problem);
    else records.push({ n, record: parsed.record });
  }

  const first = records[0];
  if (lines.length > 0 && (first === undefined || first.n !== 1 || first.record.type !== 1)) {
    if (!problems.some((p) => p.line === 1)) problem(1, 'the first line is not the header (type 1)');
  }
  const header = first?.record.type === 1 ? first.record.header : null;

  let previousNsr: { nsr: number; line: number } | null = null;
  let gaps = 0;
  let outOfRange: { line: number; date: string } | null = null;
  let modbusLine: number | null = null;
  let previousMark: { hash: string; line: number } | null = null;
  // The first mark can be checked against "no predecessor" only when the journal's NSRs 1..its NSR are all here.
  let contiguousFromOne = true;
  // Marks whose time is before the previous mark's (time running backwards against NSR order), and the clock
  // adjustments.
  let lastMarked: { at: number; n: number; nsr: number; markedAt: string } | null = null;
  const backwards: {
    n: number;
    nsr: number;
    markedAt: string;
    before: { n: number; nsr: number; markedAt: string };
  }[] = [];
  const adjustments: { n: number; nsr: number; before: string; after: string }[] = [];

  for (const { n, record: r } of records) {
    if (r.type === 1 && n !== 1) problem(n, 'a second header (type 1)');
    if ('crc' in r && r.crc === 'modbus' && modbusLine === null) modbusLine = n;
    if (r.type === 9) {
      for (const t of COUNTED_TYPES) {
        if (r.counts[t] !== counts[t])
          problem(n, `the trailer counts ${r.counts[t]} records of type ${t}, the file has ${counts[t]}`);
      }
      continue;
    }
    if (r.type === 'signature') problem(n, 'a signature line before the trailer');
    if (r.type === 1 || r.type === 'signature') continue;
    counts[r.type]++;
    const nsr = r.nsr;
    if (previousNsr === null) contiguousFromOne = nsr === 1;
    else if (nsr <= previousNsr.nsr)
      problem(n, `NSR ${nsr} does not follow NSR ${previousNsr.nsr} (line ${previousNsr.line}): NSRs must increase`);
    else if (nsr !== previousNsr.nsr + 1) {
      gaps++;
      contiguousFromOne = false;
    }
    previousNsr = { nsr, line: n };
    const date = recordDate(r);
    if (header && date && outOfRange === null && (date < header.firstDate || date > header.lastDate))
      outOfRange = { line: n, date };

    if (r.type === 4) adjustments.push({ n, nsr, before: r.before, after: r.after });
    const markedAt = r.type === 7 ? r.mark.markedAt : r.type === 3 ? r.markedAt : null;
    if (markedAt !== null) {
      const at = afdInstantOf(markedAt);
      if (lastMarked !== null && at < lastMarked.at) backwards.push({ n, nsr, markedAt, before: lastMarked });
      lastMarked = { at, n, nsr, markedAt };
    }

    if (r.type !== 7) continue;
    const line = r.mark.line;
    if (previousMark !== null) {
      if (!markHashMatches(line, previousMark.hash, sha256))
        problem(
          n,
          `the hash of NSR ${nsr} does not follow from the type 7 record before it (line ${previousMark.line})`,
        );
    } else if (markHashMatches(line, '', sha256)) {
      chain = { kind: 'from-start', line: n, nsr };
    } else if (contiguousFromOne) {
      problem(n, `the hash of NSR ${nsr}, the journal's first type 7 record, does not match its fields`);
    } else {
      chain = { kind: 'anchored', line: n, nsr };
      warnings.push(
        `the first type 7 record (line ${n}, NSR ${nsr}) is the chain's anchor: its predecessor is not in this file, so its own hash was trusted and the rest checked against it`,
      );
    }
    previousMark = { hash: r.mark.hash, line: n };
  }

  if (modbusLine !== null) {
    if (counts[7] > 0)
      problem(modbusLine, 'CRC-16/MODBUS in a REP-P file: the Annex requires CRC-16/KERMIT for REP-A and REP-P');
    else
      warnings.push(
        `CRCs are CRC-16/MODBUS (first on line ${modbusLine}), as some REP-C write; the Annex fixes CRC-16/KERMIT only for REP-A and REP-P`,
      );
  }
  const b = backwards[0];
  if (b !== undefined) {
    const fix = adjustments.find((a) => a.n > b.n);
    const why = fix
      ? `a clock adjustment (type 4, NSR ${fix.nsr}, line ${fix.n}: ${fix.before} -> ${fix.after}) says the terminal's clock was wrong before it`
      : 'no clock adjustment (type 4) after it explains it';
    const more = backwards.length > 1 ? ` (${backwards.length} places in all)` : '';
    warnings.push(
      `time runs backwards against NSR order: NSR ${b.nsr} (line ${b.n}) is marked ${b.markedAt}, before NSR ${b.before.nsr} (line ${b.before.n}, ${b.before.markedAt})${more}; ${why}`,
    );
  }
  if (gaps > 0)
    warnings.push(
      `${gaps} gap${gaps === 1 ? '' : 's'} in the NSR sequence (records of other types or dates are not in this file)`,
    );
  if (outOfRange)
    warnings.push(
      `line ${outOfRange.line} is dated ${outOfRange.date}, outside the header's ${header?.firstDate} to ${header?.lastDate}`,
    );

  const firstProblem = problems.reduce<AfdProblem | null>((a, p) => (a === null || p.line < a.line ? p : a), null);
  return { ok: firstProblem === null, lines: lines.length, counts, firstProblem, warnings, chain, signature };
}
