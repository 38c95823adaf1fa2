/**
 * The chain head signed with an AFD export (issue 26 item 8) held against the file's own marks:
 * what `timeclock afd verify` reports on its "chain head at export" line.
 */
import { describe, expect, it } from 'vitest';
import { checkChainHead, chainHeadText, parseChainHead } from '../../src/domain/afd/chain-head.js';
import { sealMark } from '../../src/domain/afd/mark.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';

const marks: string[] = [];
let previous = '';
for (let nsr = 1; nsr <= 3; nsr++) {
  const m = sealMark(
    {
      nsr,
      markedAt: `2026-08-03T08:0${nsr}:00-0300`,
      cpf: '12345678909',
      recordedAt: `2026-08-03T08:0${nsr}:00-0300`,
      collector: '04',
      online: true,
    },
    previous,
    sha256Latin1,
  );
  marks.push(m.line);
  previous = m.hash;
}
const afd = ['header', ...marks, 'trailer'].join('\r\n');
const head = (nsr: number, hash: string) => ({ journalId: 'f'.repeat(32), employerId: '11222333000181', nsr, hash });
const hashOf = (i: number) => (marks[i] as string).slice(73);

describe('the chain head signed with an export', () => {
  it('reads back what it writes, and nothing else', () => {
    const h = head(3, hashOf(2));
    expect(parseChainHead(chainHeadText(h))).toEqual(h);
    expect(parseChainHead('journal=x;nsr=1')).toBeNull();
  });

  it('agrees with a file that ends at it, or before it', () => {
    expect(checkChainHead(afd, '11222333000181', head(3, hashOf(2)))).toMatchObject({
      ok: true,
      text: expect.stringMatching(/the file's last mark, its hash matches/),
    });
    expect(checkChainHead(afd, '11222333000181', head(9, 'a'.repeat(64)))).toMatchObject({
      ok: true,
      text: expect.stringMatching(
        /after this file's last mark \(NSR 3\); a later export reaching NSR 9 must show this hash there/,
      ),
    });
  });

  it('names a file whose mark at the head has another hash, marks after the head, or another employer', () => {
    expect(checkChainHead(afd, '11222333000181', head(3, hashOf(1)))).toMatchObject({
      ok: false,
      text: expect.stringMatching(/the file's mark of that NSR has another hash/),
    });
    expect(checkChainHead(afd, '11222333000181', head(2, hashOf(1)))).toMatchObject({
      ok: false,
      text: expect.stringMatching(/the file has marks after it \(NSR 3\)/),
    });
    expect(checkChainHead(afd, '99888777000166', head(3, hashOf(2)))).toMatchObject({
      ok: false,
      text: expect.stringMatching(/is of employer 11222333000181, not this file's 99888777000166/),
    });
  });
});
