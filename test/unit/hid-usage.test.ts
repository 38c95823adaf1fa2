/**
 * The HID usage table (usage page 0x07) the boot-keyboard decoder and the capture encoder read:
 * keys to characters, the inverse on the main row, and every character a badge code may contain.
 */
import { describe, expect, it } from 'vitest';
import { charFor, keyFor, SUPPORTED_CHARACTERS, usageFor } from '../../src/input/hid-usage.js';

describe('HID usage table', () => {
  it('maps keys to characters per the usage tables (page 0x07)', () => {
    expect(charFor(0x04, false)).toBe('a');
    expect(charFor(0x1d, true)).toBe('Z');
    expect(charFor(0x1e, false)).toBe('1');
    expect(charFor(0x27, false)).toBe('0');
    expect(charFor(0x1e, true)).toBe('!');
    expect(charFor(0x33, true)).toBe(':');
    expect(charFor(0x2d, false)).toBe('-');
    expect(charFor(0x37, false)).toBe('.');
    expect(charFor(0x38, false)).toBe('/');
    expect(charFor(0x59, false)).toBe('1');
    expect(charFor(0x62, true)).toBe('0');
    expect(charFor(0x28, false)).toBeNull();
    expect(charFor(0x39, false)).toBeNull(); // Caps Lock: not in the table
    expect(keyFor(0x58, false)).toEqual({ kind: 'enter' });
    expect(keyFor(0x2b, true)).toEqual({ kind: 'tab' });
  });

  it('usageFor is the inverse of charFor over the supported characters, on the main row', () => {
    expect(SUPPORTED_CHARACTERS.length).toBeGreaterThan(70);
    for (const ch of SUPPORTED_CHARACTERS) {
      const k = usageFor(ch);
      expect(k, ch).not.toBeNull();
      if (k === null) continue;
      expect(k.usage < 0x59 || k.usage > 0x62, `${ch} not on the keypad`).toBe(true);
      expect(charFor(k.usage, k.shift)).toBe(ch);
    }
    expect(usageFor('é')).toBeNull();
    expect(usageFor('\n')).toBeNull();
  });

  it('the letters, digits and - . / : a badge code may contain are all supported', () => {
    const codeChars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-./:';
    for (const ch of codeChars) expect(SUPPORTED_CHARACTERS, ch).toContain(ch);
  });
});
