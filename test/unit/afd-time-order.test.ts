import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildClockRecord } from '../../src/domain/afd/clock-record.js';
import { buildAfd } from '../../src/domain/afd/export.js';
import { sealMark } from '../../src/domain/afd/mark.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';

const sha = (t: string) => createHash('sha256').update(t, 'latin1').digest('hex');
const header = {
  employer: { kind: 'cnpj', id: '11222333000181' },
  cnoOrCaepf: null,
  employerName: 'EXEMPLO LTDA',
  repRegistration: null,
  firstDate: '2026-11-23',
  lastDate: '2026-11-23',
  developer: null,
} as const;

/** Marks sealed at these times in NSR order (1, 2, …), chained. */
function marks(times: string[]): string[] {
  let prev = '';
  return times.map((t, i) => {
    const m = sealMark(
      {
        nsr: i + 1,
        markedAt: `2026-11-23T${t}:00-0300`,
        cpf: '52998224725',
        recordedAt: `2026-11-23T${t}:00-0300`,
        collector: '04',
        online: true,
      },
      prev,
      sha,
    );
    prev = m.hash;
    return m.line;
  });
}

describe('afd verify: time against NSR order', () => {
  it('warns when a mark is earlier than the one before it, and says nothing explains it', () => {
    const text = buildAfd({
      header,
      marks: marks(['19:24', '17:25', '19:30']),
      generatedAt: '2026-11-23T20:00:00-0300',
      signed: false,
    });
    const v = verifyAfd(text, sha);
    expect(v.ok).toBe(true);
    expect(v.warnings.join('\n')).toMatch(
      /time runs backwards against NSR order: NSR 2 \(line 3\) is marked 2026-11-23T17:25:00-0300, before NSR 1 \(line 2, 2026-11-23T19:24:00-0300\); no clock adjustment \(type 4\) after it explains it/,
    );
  });

  it('says nothing when time and NSR order agree', () => {
    const v = verifyAfd(
      buildAfd({
        header,
        marks: marks(['07:58', '12:01', '13:00']),
        generatedAt: '2026-11-23T20:00:00-0300',
        signed: false,
      }),
      sha,
    );
    expect(v.warnings.filter((w) => /backwards/.test(w))).toEqual([]);
  });

  it('a type 4 record is 73 characters with a KERMIT CRC the verifier accepts', () => {
    const line = buildClockRecord({ nsr: 3, before: '2026-11-23T17:26:00-0300', after: '2026-11-23T19:26:00-0300' });
    expect(line).toHaveLength(73);
    expect(line).toMatch(/^00000000342026-11-23T17:26:00-03002026-11-23T19:26:00-030000000000000[0-9A-F]{4}$/);
  });
});
