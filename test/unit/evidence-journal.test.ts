import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { factDetail, factHash, factLine, restoredDetail, restoredGap } from '../../src/domain/punch/journal-fact.js';
import { judgeReservation, nextReservation, type Sidecar } from '../../src/domain/punch/nsr-reservation.js';

const ID = 'a'.repeat(32);
const side = (reservedTo: number, pending: number | null = null, lastGiven: number | null = null): Sidecar => ({
  journalId: ID,
  reservedTo,
  pending,
  lastGiven,
});
const db = (reservedTo: number, nextNsr: number) => ({ journalId: ID, reservedTo, nextNsr });

describe('the NSR reservation: what the sidecar and the database say together', () => {
  it.each([
    ['they agree', side(2000), db(2000, 1500), { kind: 'consistent' }],
    ['no sidecar', null, db(2000, 1500), { kind: 'missing' }],
    [
      'another journal',
      { ...side(2000), journalId: 'b'.repeat(32) },
      db(2000, 10),
      { kind: 'foreign', sidecarJournalId: 'b'.repeat(32) },
    ],
    ['crash after the sidecar, before the commit', side(1000, 2000), db(1000, 1001), { kind: 'raise_undone' }],
    [
      'crash after the commit, before the sidecar said so',
      side(1000, 2000),
      db(2000, 1001),
      { kind: 'raise_committed' },
    ],
    [
      'a database older than a committed reservation',
      side(3000),
      db(2000, 1004),
      { kind: 'restored', from: 1004, to: 3000 },
    ],
    [
      'older, with a raise pending that may have committed',
      side(3000, 4000),
      db(2000, 1004),
      { kind: 'restored', from: 1004, to: 4000 },
    ],
    [
      'a clean stop after NSRs this database lacks',
      side(2000, null, 1010),
      db(2000, 1004),
      { kind: 'restored', from: 1004, to: 2000 },
    ],
    ['a clean stop, nothing missing', side(2000, null, 1003), db(2000, 1004), { kind: 'consistent' }],
    ['a sidecar behind the database', side(1000), db(2000, 1500), { kind: 'behind' }],
  ] as const)('%s', (_, s, d, expected) => {
    expect(judgeReservation(s, d)).toEqual(expected);
  });

  it('a raise covers what is needed, a block beyond', () => {
    expect(nextReservation(0, 1, 1000)).toBe(1000);
    expect(nextReservation(1000, 1001, 1000)).toBe(2000);
    expect(nextReservation(1000, 5000, 1000)).toBe(5999);
  });
});

describe("a fact's canonical line and hash", () => {
  const sha = (t: string) => createHash('sha256').update(t, 'utf8').digest('hex');

  it('is seq|nsr|ISO instant|event|detail, hashed with the previous hash', () => {
    const f = {
      seq: 7,
      nsr: 42,
      at: Date.parse('2026-03-02T11:05:00.123Z'),
      event: 'delivered' as const,
      detail: '65f0c0ffee0000000000abcd',
    };
    expect(factLine(f)).toBe('7|42|2026-03-02T11:05:00.123Z|delivered|65f0c0ffee0000000000abcd');
    expect(factHash(f, 'ab'.repeat(32), sha)).toBe(
      sha(`7|42|2026-03-02T11:05:00.123Z|delivered|65f0c0ffee0000000000abcd${'ab'.repeat(32)}`),
    );
    expect(factHash(f, '', sha)).not.toBe(factHash({ ...f, detail: 'x' }, '', sha));
  });

  it("keeps a detail on one line and reads a restore's gap back", () => {
    expect(factDetail('a\nb\tc|d')).toBe('a b c|d');
    expect(restoredGap(restoredDetail(4, 2000, 'why'))).toEqual({ from: 4, to: 2000 });
    expect(restoredGap('gap 9-3: backwards')).toBeNull();
  });
});
