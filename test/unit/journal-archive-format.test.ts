import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealMark } from '../../src/domain/afd/mark.js';
import {
  ArchiveEncoder,
  decodeArchive,
  type ArchivedFact,
  type ArchivedMark,
} from '../../src/domain/punch/journal-archive-format.js';
import { factHash } from '../../src/domain/punch/journal-fact.js';

const latin1 = (t: string) => createHash('sha256').update(t, 'latin1').digest('hex');
const utf8 = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');
const sha = { latin1, utf8 };

/** Marks of two employer chains, chained as the journal chains them, starting after `before`. */
function marks(n: number, before: Map<string, string>): ArchivedMark[] {
  const last = new Map(before);
  const out: ArchivedMark[] = [];
  for (let nsr = 101; nsr < 101 + n; nsr++) {
    const chain = nsr % 3 === 0 ? 'cnpj:11444777000161' : '';
    const m = sealMark(
      {
        nsr,
        markedAt: '2026-03-02T08:00:00-0300',
        cpf: '52998224725',
        recordedAt: '2026-03-02T08:00:00-0300',
        collector: '04',
        online: true,
      },
      last.get(chain) ?? '',
      latin1,
    );
    last.set(chain, m.hash);
    out.push({
      nsr,
      line: m.line,
      punchId: nsr + 7,
      unresolvedId: nsr === 105 ? 3 : null,
      localDate: nsr < 110 ? '2026-03-02' : '2026-03-03',
      writtenAt: 1_772_449_200_000 + nsr * 1_000,
      chain,
    });
  }
  return out;
}

describe('the archive text', () => {
  it('reads back exactly what was written, hashes recomputed from the seal, a damaged hash kept as it was', () => {
    const before = new Map([['', 'a'.repeat(64)]]);
    const ms = marks(20, before);
    // A row whose stored hash is not the chain's (damage the journal's verification reports): kept as is.
    const damaged = ms[4] as ArchivedMark;
    ms[4] = { ...damaged, line: damaged.line.slice(0, 73) + 'f'.repeat(64) };
    const facts: ArchivedFact[] = [];
    let prev = 'b'.repeat(64);
    for (let seq = 51; seq < 56; seq++) {
      const f = {
        seq,
        nsr: 100 + seq - 50,
        at: 1_772_449_300_000 + seq,
        event: 'delivered' as const,
        detail: `65f0a1b2c3d4e5f6a7b8c9${seq} \u00e9`,
      };
      const hash = seq === 53 ? 'c'.repeat(64) : factHash(f, prev, utf8);
      facts.push({ ...f, hash });
      prev = hash;
    }
    const heads = new Map([
      ['', { num: 100, hash: 'a'.repeat(64) }],
      ['cnpj:11444777000161', null],
    ]);
    const enc = new ArchiveEncoder(
      '0123456789abcdef0123456789abcdef',
      51,
      heads,
      { num: 50, hash: 'b'.repeat(64) },
      sha,
    );
    enc.marks(ms.slice(0, 7));
    enc.marks(ms.slice(7));
    enc.facts(facts);
    const text = enc.text();
    // Only rows whose hash is not recomputable carry one: the damaged mark, the next mark of its chain
    // (sealed after the original hash), and the damaged fact (the fact after it chained from it).
    expect(text.match(/[0-9a-f]{64}/g)).toHaveLength(3);
    const chains = {
      '': { before: { num: 100, hash: 'a'.repeat(64) }, after: { num: 0, hash: '' } },
      'cnpj:11444777000161': { before: null, after: { num: 0, hash: '' } },
    };
    const back = decodeArchive(
      text,
      {
        journalId: '0123456789abcdef0123456789abcdef',
        chains,
        factChain: { before: { num: 50, hash: 'b'.repeat(64) }, after: null },
      },
      sha,
    );
    expect(back.marks).toEqual(ms);
    expect(back.facts).toEqual(facts);
  });

  it('refuses an archive of another journal, and a line that is not a record', () => {
    const seal = { journalId: 'x', chains: {}, factChain: { before: null, after: null } };
    expect(() => decodeArchive('timeclock-journal-archive 1 y 0\n', seal, sha)).toThrow(/journal y, not x/);
    expect(() => decodeArchive('timeclock-journal-archive 1 x 0\nQ\tnothing\n', seal, sha)).toThrow(
      /line 2: not a record/,
    );
  });
});
