import { describe, expect, it } from 'vitest';
import {
  applyTransforms,
  codeTransformsSchema,
  splitWiegand26,
  type CodeTransforms,
} from '../../src/input/code-transforms.js';

function refusal(code: string, t: CodeTransforms): string {
  const r = applyTransforms(code, t);
  if (r.ok) throw new Error(`expected ${JSON.stringify(code)} to be refused, got ${JSON.stringify(r)}`);
  return r.reason;
}

/**
 * The 26-bit Wiegand (H10301) frame for a facility and card number, built bit by bit here (not by
 * the code under test): [even parity][8 facility bits][16 card bits][odd parity], most significant first.
 */
function wiegand26(facility: number, card: number): number {
  const data: number[] = [];
  for (let i = 7; i >= 0; i--) data.push((facility >> i) & 1);
  for (let i = 15; i >= 0; i--) data.push((card >> i) & 1);
  const ones = (bits: number[]) => bits.filter((b) => b === 1).length;
  const even = ones(data.slice(0, 12)) % 2; // makes the first 13 bits even
  const odd = 1 - (ones(data.slice(12)) % 2); // makes the last 13 bits odd
  return [even, ...data, odd].reduce((n, b) => n * 2 + b, 0);
}

describe('applyTransforms', () => {
  it('with no transforms, passes the code unchanged', () => {
    expect(applyTransforms('AB-12', {})).toEqual({ ok: true, code: 'AB-12' });
  });

  it('strips a prefix and a suffix when present', () => {
    expect(applyTransforms(';0004817263?', { stripPrefix: ';', stripSuffix: '?' })).toEqual({
      ok: true,
      code: '0004817263',
    });
    expect(applyTransforms('0004817263', { stripPrefix: ';', stripSuffix: '?' })).toEqual({
      ok: true,
      code: '0004817263',
    });
    expect(applyTransforms('ID:42', { stripPrefix: 'ID:' })).toEqual({ ok: true, code: '42' });
  });

  it('refuses a code that is empty after stripping', () => {
    expect(refusal('%%', { stripPrefix: '%%' })).toMatch(/empty/);
  });

  it('keeps only digits', () => {
    expect(applyTransforms('EMP-00-42 ', { digitsOnly: true })).toEqual({ ok: true, code: '0042' });
    expect(refusal('ABC', { digitsOnly: true })).toMatch(/no digits/);
  });

  it('hexadecimal to decimal, exact for long numbers, refusing non-hex', () => {
    expect(applyTransforms('00ff', { hexToDecimal: true })).toEqual({ ok: true, code: '255' });
    expect(applyTransforms('1A2b3C', { hexToDecimal: true })).toEqual({ ok: true, code: '1715004' });
    expect(applyTransforms('FFFFFFFFFFFFFFFFFF', { hexToDecimal: true })).toEqual({
      ok: true,
      code: '4722366482869645213695',
    });
    expect(refusal('12G4', { hexToDecimal: true })).toMatch(/not hexadecimal/);
    expect(refusal('0x1f', { hexToDecimal: true })).toMatch(/not hexadecimal/);
  });

  it('minimum and maximum length, on the result of the other steps', () => {
    expect(applyTransforms('1234', { minLength: 4, maxLength: 4 })).toEqual({ ok: true, code: '1234' });
    expect(refusal('123', { minLength: 4 })).toMatch(/too short \(3 characters, at least 4\)/);
    expect(refusal('12345', { maxLength: 4 })).toMatch(/too long \(5 characters, at most 4\)/);
    // 'ff' is 2 characters, '255' is 3
    expect(refusal('ff', { hexToDecimal: true, maxLength: 2 })).toMatch(/too long/);
  });

  it('runs in the documented order: strip, digits only, hex to decimal, Wiegand, length', () => {
    // strip before digitsOnly: the suffix '9' would otherwise stay
    expect(applyTransforms('A12B9', { stripSuffix: '9', digitsOnly: true })).toEqual({ ok: true, code: '12' });
    // digitsOnly before hexToDecimal: 'x' removed, then '10' read as hex
    expect(applyTransforms('x10', { digitsOnly: true, hexToDecimal: true })).toEqual({ ok: true, code: '16' });
    const frame = wiegand26(18, 12345);
    expect(
      applyTransforms(`;${frame.toString(16)}?`, {
        stripPrefix: ';',
        stripSuffix: '?',
        hexToDecimal: true,
        wiegand26: true,
        minLength: 9,
        maxLength: 9,
      }),
    ).toEqual({
      ok: true,
      code: '018-12345',
    });
  });
});

describe('Wiegand 26', () => {
  it('splits facility 18, card 12345 (frame built with correct parity)', () => {
    const frame = wiegand26(18, 12345);
    expect(frame).toBeLessThan(2 ** 26);
    // facility 18 = 00010010, card 12345 = 0011000000111001. First 12 data bits 000100100011: 4 ones ->
    // even parity 0. Last 12 data bits 000000111001: 4 ones -> odd parity 1.
    expect(frame.toString(2).padStart(26, '0')).toBe('0' + '00010010' + '0011000000111001' + '1');
    expect(frame).toBe(0b0_00010010_0011000000111001_1);
    expect(applyTransforms(String(frame), { wiegand26: true })).toEqual({ ok: true, code: '018-12345' });
    expect(applyTransforms(frame.toString(16), { hexToDecimal: true, wiegand26: true })).toEqual({
      ok: true,
      code: '018-12345',
    });
  });

  it('pads facility to 3 digits and card to 5, across the range', () => {
    for (const [f, c, want] of [
      [0, 0, '000-00000'],
      [1, 1, '001-00001'],
      [255, 65535, '255-65535'],
      [128, 32768, '128-32768'],
    ] as const) {
      expect(splitWiegand26(String(wiegand26(f, c)))).toEqual({ ok: true, code: want });
    }
  });

  it('refuses a wrong even or odd parity bit', () => {
    const frame = wiegand26(18, 12345);
    expect(refusal(String(frame ^ (1 << 25)), { wiegand26: true })).toMatch(/even parity/);
    expect(refusal(String(frame ^ 1), { wiegand26: true })).toMatch(/odd parity/);
    // a flipped data bit breaks the parity of its half
    expect(refusal(String(frame ^ (1 << 20)), { wiegand26: true })).toMatch(/even parity/);
    expect(refusal(String(frame ^ (1 << 3)), { wiegand26: true })).toMatch(/odd parity/);
  });

  it('refuses more than 26 bits and non-decimal input', () => {
    expect(refusal(String(2 ** 26 + 1), { wiegand26: true })).toMatch(/more than 26 bits/);
    expect(refusal('99999999999999999999999', { wiegand26: true })).toMatch(/more than 26 bits/);
    expect(refusal('12AB', { wiegand26: true })).toMatch(/decimal/);
  });
});

describe('codeTransformsSchema', () => {
  it('accepts a valid configuration', () => {
    const t = { stripPrefix: ';', stripSuffix: '?', digitsOnly: true, minLength: 4, maxLength: 12 };
    expect(codeTransformsSchema.parse(t)).toEqual(t);
    expect(codeTransformsSchema.parse({})).toEqual({});
    expect(codeTransformsSchema.parse({ hexToDecimal: true, wiegand26: true })).toEqual({
      hexToDecimal: true,
      wiegand26: true,
    });
  });

  it('refuses unknown keys, bad lengths and min > max', () => {
    expect(codeTransformsSchema.safeParse({ stripprefix: ';' }).success).toBe(false);
    expect(codeTransformsSchema.safeParse({ minLength: 0 }).success).toBe(false);
    expect(codeTransformsSchema.safeParse({ maxLength: 65 }).success).toBe(false);
    expect(codeTransformsSchema.safeParse({ minLength: 2.5 }).success).toBe(false);
    expect(codeTransformsSchema.safeParse({ stripPrefix: '' }).success).toBe(false);
    expect(codeTransformsSchema.safeParse({ digitsOnly: 'yes' }).success).toBe(false);
    const r = codeTransformsSchema.safeParse({ minLength: 10, maxLength: 4 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/minLength must not be greater than maxLength/);
  });
});
