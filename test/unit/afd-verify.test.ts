/**
 * verifyAfd on whole files (docs/afd-layout.md "Verifying a file"): an export of ours passes, and
 * each kind of tampering an auditor would care about is named with the line it is on.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildAfd, type AfdExport } from '../../src/domain/afd/export.js';
import { sealMark, type MarkFields, type Sha256Hex } from '../../src/domain/afd/mark.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';

const sha256: Sha256Hex = (text) => createHash('sha256').update(text, 'latin1').digest('hex');

/** A journal of `n` marks from NSR 1, sealed in order. */
function journal(n: number): string[] {
  const lines: string[] = [];
  let previous = '';
  for (let i = 1; i <= n; i++) {
    const minute = String(i).padStart(2, '0');
    const fields: MarkFields = {
      nsr: i,
      markedAt: `2026-08-03T08:${minute}:00-0300`,
      cpf: i % 2 ? '12345678909' : '52998224725',
      recordedAt: `2026-08-03T08:${minute}:00-0300`,
      collector: '04',
      online: true,
    };
    const m = sealMark(fields, previous, sha256);
    lines.push(m.line);
    previous = m.hash;
  }
  return lines;
}

const exportOf = (marks: readonly string[], signed = false): AfdExport => ({
  header: {
    employer: { kind: 'cnpj', id: '11222333000181' },
    cnoOrCaepf: null,
    employerName: 'RELOJOARIA SÃO JOÃO LTDA',
    repRegistration: null,
    firstDate: '2026-08-03',
    lastDate: '2026-08-03',
    developer: { kind: 'cnpj', id: '11444777000161' },
  },
  marks,
  generatedAt: '2026-08-04T09:00:00-0300',
  signed,
});

const marks = journal(4);
const file = buildAfd(exportOf(marks));
const lines = file.split('\r\n').slice(0, -1); // header, 4 marks, trailer, signature
const join = (ls: readonly string[]): string => ls.map((l) => `${l}\r\n`).join('');

describe('verifyAfd on our own export', () => {
  it('passes a complete export and says it is unsigned', () => {
    const v = verifyAfd(file, sha256);
    expect(v).toMatchObject({
      ok: true,
      lines: 7,
      firstProblem: null,
      counts: { 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 4 },
      signature: 'unsigned',
      chain: { kind: 'from-start', line: 2, nsr: 1 },
    });
    expect(v.warnings).toEqual(['the file says it is not signed (no .p7s)']);
    expect(verifyAfd(buildAfd(exportOf(marks, true)), sha256)).toMatchObject({
      ok: true,
      signature: 'p7s',
      warnings: [],
    });
  });

  it('passes an export that starts mid-journal, trusting its first mark as the anchor and saying so', () => {
    const v = verifyAfd(buildAfd(exportOf(marks.slice(2))), sha256);
    expect(v).toMatchObject({ ok: true, chain: { kind: 'anchored', line: 2, nsr: 3 } });
    expect(v.warnings.join('\n')).toMatch(/line 2, NSR 3\) is the chain's anchor/);
  });
});

describe('verifyAfd finds tampering and names the line', () => {
  it('a changed character in a mark', () => {
    const tampered = [...lines];
    tampered[2] = (tampered[2] as string).replace('T08:02:00', 'T07:02:00'); // NSR 2 punched an hour earlier
    expect(verifyAfd(join(tampered), sha256).firstProblem).toEqual({
      line: 3,
      message: 'the hash of NSR 2 does not follow from the type 7 record before it (line 2)',
    });
  });

  it('a changed character in the first mark of a file that starts at NSR 1', () => {
    const tampered = [...lines];
    tampered[1] = (tampered[1] as string).replace('012345678909', '052998224725'); // someone else's punch
    expect(verifyAfd(join(tampered), sha256).firstProblem).toEqual({
      line: 2,
      message: "the hash of NSR 1, the journal's first type 7 record, does not match its fields",
    });
  });

  it('a deleted mark', () => {
    const v = verifyAfd(join(lines.filter((_, i) => i !== 2)), sha256);
    expect(v.firstProblem).toEqual({
      line: 3,
      message: 'the hash of NSR 3 does not follow from the type 7 record before it (line 2)',
    });
    expect(v.ok).toBe(false);
  });

  it('a swapped pair of marks', () => {
    const swapped = [...lines];
    [swapped[2], swapped[3]] = [swapped[3] as string, swapped[2] as string];
    expect(verifyAfd(join(swapped), sha256).firstProblem).toEqual({
      line: 3,
      message: 'the hash of NSR 3 does not follow from the type 7 record before it (line 2)',
    });
  });

  it('a wrong CRC in the header', () => {
    const bad = [...lines];
    const header = bad[0] as string;
    bad[0] = header.slice(0, 298) + (header.slice(298) === '0000' ? '0001' : '0000');
    expect(verifyAfd(join(bad), sha256).firstProblem).toMatchObject({
      line: 1,
      message: expect.stringContaining('CRC'),
    });
  });

  it('a wrong count in the trailer', () => {
    const bad = [...lines];
    bad[5] = (bad[5] as string).replace('0000000049', '0000000059');
    expect(verifyAfd(join(bad), sha256).firstProblem).toEqual({
      line: 6,
      message: 'the trailer counts 5 records of type 7, the file has 4',
    });
  });

  it('LF instead of CR LF', () => {
    const lf = file.replace(/\r\n/, '\n'); // only the header's end
    expect(verifyAfd(lf, sha256).firstProblem).toEqual({ line: 1, message: 'line ends with LF alone, not CR LF' });
    const third = join(lines.slice(0, 2)) + `${lines[2]}\n` + join(lines.slice(3));
    expect(verifyAfd(third, sha256).firstProblem).toEqual({ line: 3, message: 'line ends with LF alone, not CR LF' });
  });

  it('a blank line, a missing trailer, a line after the signature', () => {
    expect(verifyAfd(join([...lines.slice(0, 3), '', ...lines.slice(3)]), sha256).firstProblem).toEqual({
      line: 4,
      message: 'a blank line',
    });
    expect(verifyAfd(join(lines.slice(0, 5)), sha256).firstProblem).toMatchObject({
      line: 5,
      message: expect.stringContaining('no trailer'),
    });
    expect(verifyAfd(join([...lines, lines[6] as string]), sha256).firstProblem).toMatchObject({
      line: 8,
      message: expect.stringContaining('after the signature line'),
    });
  });

  it('a file that does not start with the header', () => {
    expect(verifyAfd(join(lines.slice(1)), sha256).firstProblem).toEqual({
      line: 1,
      message: 'the first line is not the header (type 1)',
    });
  });
});

describe('verifyAfd on a REP-C file from another system', () => {
  // The header is a real Control iD REP-C's (employer zeroed by whoever published it), CRC-16/MODBUS
  // as the device wrote it. The marks follow its form with synthetic CPFs; their CRCs were computed in Python.
  const header =
    '000000000110000000000000000000000000000ControliD' +
    ' '.repeat(141) +
    '06613047045011970' +
    '2025-09-24' +
    '2025-09-25' +
    '2025-09-25T15:11:00-0300' +
    '003' +
    '1' +
    '08238299000129' +
    ' '.repeat(30) +
    '5753';
  const mark1 = '000000391' + '3' + '2025-09-24T13:32:00-0300' + '052998224725' + '9F2F';
  const mark2 = '000000392' + '3' + '2025-09-24T17:45:00-0300' + '012345678909' + 'BA75';
  const trailer = '999999999' + '000000000' + '000000002' + '0'.repeat(36) + '9';
  const signature = '0'.repeat(100); // as the device writes it

  it('passes, noting the MODBUS CRC, the NSR not starting at 1 and the unchecked signature line', () => {
    const v = verifyAfd(join([header, mark1, mark2, trailer, signature]), sha256);
    expect(v).toMatchObject({ ok: true, lines: 5, counts: { 3: 2, 7: 0 }, signature: 'other', chain: null });
    expect(v.warnings.join('\n')).toMatch(/CRC-16\/MODBUS/);
    expect(v.warnings.join('\n')).toMatch(/signature line \(5\)/);
  });

  it('still finds NSRs out of order, and a gap is only a warning', () => {
    const before = '000000390' + '3' + '2025-09-24T17:45:00-0300' + '012345678909' + '6954';
    const later = '000000395' + '3' + '2025-09-24T17:45:00-0300' + '012345678909' + '4684';
    expect(verifyAfd(join([header, mark1, before, trailer, signature]), sha256).firstProblem).toEqual({
      line: 3,
      message: 'NSR 390 does not follow NSR 391 (line 2): NSRs must increase',
    });
    const withGap = verifyAfd(join([header, mark1, later, trailer, signature]), sha256);
    expect(withGap.ok).toBe(true);
    expect(withGap.warnings.join('\n')).toMatch(/1 gap in the NSR sequence/);
  });
});
