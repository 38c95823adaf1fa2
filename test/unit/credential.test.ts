import { describe, expect, it } from 'vitest';
import { checkCode, MAX_CODE_LENGTH } from '../../src/domain/people/credential.js';

function refusal(raw: string): string {
  const r = checkCode(raw);
  if (r.ok) throw new Error(`expected ${JSON.stringify(raw)} to be refused, got ${JSON.stringify(r)}`);
  return r.reason;
}

describe('checkCode', () => {
  it('accepts typical badge and ID codes', () => {
    for (const code of [
      '0004817263',
      '12345',
      'A1B2C3',
      'emp-0042',
      'RH.2024.17',
      'site:badge:99',
      'x',
      '9'.repeat(MAX_CODE_LENGTH),
    ]) {
      expect(checkCode(code), code).toEqual({ ok: true, code });
    }
  });

  it('trims surrounding whitespace (the Enter a wedge reader types, stray spaces)', () => {
    expect(checkCode('  0004817263\r\n')).toEqual({ ok: true, code: '0004817263' });
    expect(checkCode('\tABC-1 ')).toEqual({ ok: true, code: 'ABC-1' });
  });

  it('refuses an empty or blank code', () => {
    expect(refusal('')).toMatch(/empty/);
    expect(refusal('   \n\t')).toMatch(/empty/);
  });

  it('refuses codes longer than 64 characters, saying how long they were', () => {
    expect(refusal('1'.repeat(65))).toMatch(/too long.*65.*64/);
    expect(refusal('A'.repeat(10_000))).toMatch(/too long.*10000/);
  });

  it('refuses control characters (garbled reads, pasted terminal escapes)', () => {
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
      expect(refusal(`12${c}34`), JSON.stringify(c)).toMatch(/control characters/);
      expect(refusal(`1234${c}`), JSON.stringify(c)).toMatch(/control characters/);
    }
    expect(refusal('\u001b[31m1234')).toMatch(/control characters/);
  });

  it('refuses characters a badge or ID never has', () => {
    for (const code of [
      '12 34',
      '"1234"',
      "12'34",
      '<script>alert(1)</script>',
      '1234;DROP TABLE',
      'a&b',
      '\u200b1234',
    ]) {
      expect(refusal(code), code).toMatch(/characters a badge or ID never has/);
    }
  });

  it('gives every refusal as a readable sentence, not a code', () => {
    for (const raw of ['', '1'.repeat(65), '\u0000', 'a b']) {
      expect(refusal(raw)).toMatch(/^[a-z][a-z0-9 (),]+/);
    }
  });
});
