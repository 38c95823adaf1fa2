/**
 * Issue 26, items 5 and 10: one reading of who the REP-P is (docs/evidence-journal.md, "Who the
 * REP-P is"). Each terminal is an installation of the REP-P with its own NSR sequence, so its file
 * name carries its id after the Annex's part; its reader is the collector of that installation, so
 * a mark is on-line when the journal recorded it as it was taken, off-line when it came later.
 */
import { describe, expect, it } from 'vitest';
import { afdFileName, terminalOfAfdFileName } from '../../src/domain/afd/export.js';
import { collectedOnline, parseMark, sealMark } from '../../src/domain/afd/mark.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';

describe('the AFD file name names the terminal', () => {
  it('keeps the Annex part ("AFD" + INPI + CNPJ/CPF + "REP_P") and adds "-" and the terminal', () => {
    expect(afdFileName('5120230012345', '11222333000181', 'portaria-norte')).toBe(
      'AFD0000512023001234511222333000181REP_P-portaria-norte.txt',
    );
    expect(afdFileName(null, '52998224725', 'tc-abcdefgh')).toBe(
      'AFD0000000000000000052998224725REP_P-tc-abcdefgh.txt',
    );
    // Without a terminal (a journal no terminal made): the Annex's bare name.
    expect(afdFileName('5120230012345', '11222333000181')).toBe('AFD0000512023001234511222333000181REP_P.txt');
  });

  it('two terminals of one employer never get one name', () => {
    const a = afdFileName('5120230012345', '11222333000181', 'caixa-01');
    const b = afdFileName('5120230012345', '11222333000181', 'caixa-02');
    expect(a).not.toBe(b);
  });

  it('refuses what is not a terminal id (no path separators or spaces in a file name)', () => {
    for (const bad of ['../x', 'a/b', 'a b', '', '-lead', 'x'.repeat(64)]) {
      expect(() => afdFileName(null, '11222333000181', bad), bad).toThrow(/terminal id/);
    }
  });

  it('reads the terminal back from a name of ours, and none from the Annex bare name or another system', () => {
    expect(terminalOfAfdFileName('AFD0000512023001234511222333000181REP_P-portaria-norte.txt')).toBe('portaria-norte');
    expect(terminalOfAfdFileName('AFD0000000000000000052998224725REP_P-tc-abcdefgh.txt')).toBe('tc-abcdefgh');
    expect(terminalOfAfdFileName('AFD0000512023001234511222333000181REP_P.txt')).toBeNull();
    expect(terminalOfAfdFileName('AFD00004003750000000011222333000181REP_C.txt')).toBeNull();
    expect(terminalOfAfdFileName('julho.txt')).toBeNull();
  });
});

describe('the on-line flag (type 7, position 073) follows the reading: the terminal is the REP-P', () => {
  const T = Date.parse('2026-11-23T19:24:31-03:00');

  it('a mark recorded in the journal as it was taken is on-line, whatever the service did', () => {
    expect(collectedOnline(T, T)).toBe(true);
  });

  it("a mark that reached the journal after it was taken (an older version's punch, journalled at the upgrade) is off-line", () => {
    expect(collectedOnline(T, T + 86_400_000)).toBe(false);
  });

  it('the sealed line writes "0" for on-line and "1" for off-line, and reads back the same', () => {
    const fields = {
      nsr: 1,
      markedAt: '2026-11-23T19:24:00-0300',
      cpf: '52998224725',
      recordedAt: '2026-11-23T19:24:00-0300',
      collector: '04',
    };
    const live = sealMark({ ...fields, online: collectedOnline(T, T) }, '', sha256Latin1);
    const late = sealMark(
      { ...fields, recordedAt: '2026-11-24T19:24:00-0300', online: collectedOnline(T, T + 86_400_000) },
      '',
      sha256Latin1,
    );
    expect(live.line[72]).toBe('0');
    expect(late.line[72]).toBe('1');
    const back = parseMark(late.line);
    expect(back.ok && back.mark.online).toBe(false);
  });
});
