import { mulberry32 } from '../../src/domain/seeded-random.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCode } from '../../src/domain/credential.js';
import { BootKeyboardDecoder, type BootKeyboardOptions, type DecodeEvent } from '../../src/input/boot-keyboard-decoder.js';
import { encodeBootReports, parseCapture } from '../../src/input/capture-file.js';
import { charFor, keyFor, SUPPORTED_CHARACTERS, usageFor } from '../../src/input/hid-usage.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures');

function decodeFixture(name: string, opts: Partial<BootKeyboardOptions> = {}): { events: DecodeEvent[]; decoder: BootKeyboardDecoder } {
  const capture = parseCapture(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
  expect(capture.errors, `${name} parses cleanly`).toEqual([]);
  expect(capture.reports.length).toBeGreaterThan(0);
  const decoder = new BootKeyboardDecoder(opts);
  return { events: capture.reports.flatMap((r) => decoder.push(r.bytes)), decoder };
}

const codes = (events: readonly DecodeEvent[]): string[] => events.flatMap((e) => (e.type === 'code' ? [e.code] : []));
const errors = (events: readonly DecodeEvent[]): string[] => events.flatMap((e) => (e.type === 'error' ? [e.reason] : []));

/** An 8-byte boot report. */
const r8 = (modifier: number, ...keys: number[]): Uint8Array => {
  const b = new Uint8Array(8);
  b[0] = modifier;
  keys.forEach((k, i) => (b[2 + i] = k));
  return b;
};
const UP = r8(0);

function feed(decoder: BootKeyboardDecoder, reports: readonly Uint8Array[]): DecodeEvent[] {
  return reports.flatMap((r) => decoder.push(r));
}

/** Press and release each key of `usages` (no shift), then optionally Enter. */
function typed(usages: readonly number[], enter = true): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const u of [...usages, ...(enter ? [0x28] : [])]) out.push(r8(0, u), UP);
  return out;
}


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

describe('BootKeyboardDecoder: fixtures written from the usage tables', () => {
  it('a 10-digit card number with Enter (8-byte layout)', () => {
    const { events, decoder } = decodeFixture('card-10-digits-enter.hex', { layout: 8 });
    expect(events).toEqual([{ type: 'code', code: '0004817263' }]);
    expect(decoder.errors).toBe(0);
    expect(checkCode('0004817263').ok).toBe(true);
  });

  it('letters with left and right Shift', () => {
    const { events, decoder } = decodeFixture('letters-and-shift.hex');
    expect(events).toEqual([{ type: 'code', code: 'EMP:Ab-42' }]);
    expect(decoder.errors).toBe(0);
  });

  it('held-key repeats count once; a key down again after a release counts again', () => {
    const { events, decoder } = decodeFixture('held-key-repeats.hex');
    expect(events).toEqual([{ type: 'code', code: '11223' }]);
    expect(decoder.errors).toBe(0);
  });

  it('9-byte reports with a report id, roll-over, keypad digits and keypad Enter', () => {
    for (const layout of [9, 'auto'] as const) {
      const { events, decoder } = decodeFixture('nine-byte-report-id.hex', { layout });
      expect(events, `layout ${layout}`).toEqual([{ type: 'code', code: '98765' }]);
      expect(decoder.errors).toBe(0);
    }
  });

  it('the wrong fixed layout refuses every report as a wrong length', () => {
    const { events, decoder } = decodeFixture('nine-byte-report-id.hex', { layout: 8 });
    expect(codes(events)).toEqual([]);
    expect(errors(events).every((r) => r === 'wrong report length 9')).toBe(true);
    expect(decoder.errors).toBe(events.length);
  });
});

describe('BootKeyboardDecoder: keys', () => {
  it('Tab ends a code when configured; several codes in one stream', () => {
    const d = new BootKeyboardDecoder({ terminators: ['enter', 'tab'] });
    const events = feed(d, [...typed([0x1e, 0x1f], false), r8(0, 0x2b), UP, ...typed([0x20])]);
    expect(events).toEqual([
      { type: 'code', code: '12' },
      { type: 'code', code: '3' },
    ]);
  });

  it('Tab when only Enter is configured drops the code', () => {
    const d = new BootKeyboardDecoder({ terminators: ['enter'] });
    const events = feed(d, [...typed([0x1e], false), r8(0, 0x2b), UP, ...typed([0x1f])]);
    expect(codes(events)).toEqual([]);
    expect(errors(events)).toEqual(['Tab is not a configured terminator; code dropped']);
    expect(feed(d, typed([0x20]))).toEqual([{ type: 'code', code: '3' }]);
  });

  it('roll-over: keys new in the same report are taken in array order', () => {
    const d = new BootKeyboardDecoder();
    const events = feed(d, [r8(0, 0x04), r8(0, 0x04, 0x05, 0x06), r8(0, 0x06), r8(0, 0x06, 0x07), UP, r8(0, 0x28), UP]);
    expect(events).toEqual([{ type: 'code', code: 'abcd' }]);
  });

  it('a key released while another stays down is not typed again', () => {
    const d = new BootKeyboardDecoder();
    const events = feed(d, [r8(0, 0x04, 0x05), r8(0, 0x05), r8(0, 0x05, 0x04), r8(0, 0x04), UP, r8(0, 0x28), UP]);
    // a, b down; a up; a down again (new) while b held
    expect(events).toEqual([{ type: 'code', code: 'aba' }]);
  });

  it('Shift applies to keys that go down while it is held, not to keys already down', () => {
    const d = new BootKeyboardDecoder();
    const events = feed(d, [r8(0, 0x04), r8(0x02, 0x04), r8(0x02, 0x04, 0x05), r8(0x00, 0x05), r8(0x00, 0x05, 0x06), UP, r8(0x20, 0x28), UP]);
    expect(events).toEqual([{ type: 'code', code: 'aBc' }]);
  });

  it('modifier-key usages (0xe0–0xe7) in the key array are ignored', () => {
    const d = new BootKeyboardDecoder();
    expect(feed(d, [r8(0x02, 0xe1), r8(0x02, 0xe1, 0x04), UP, r8(0, 0x28), UP])).toEqual([{ type: 'code', code: 'A' }]);
    expect(d.errors).toBe(0);
  });

  it('a reset forgets a partial code', () => {
    const d = new BootKeyboardDecoder();
    feed(d, typed([0x1e, 0x1f], false));
    d.reset();
    expect(feed(d, typed([0x20]))).toEqual([{ type: 'code', code: '3' }]);
  });

  it('accepts exactly maxKeys characters', () => {
    const d = new BootKeyboardDecoder({ maxKeys: 3 });
    expect(feed(d, typed([0x1e, 0x1f, 0x20]))).toEqual([{ type: 'code', code: '123' }]);
    expect(d.errors).toBe(0);
  });

  it('refuses bad options', () => {
    expect(() => new BootKeyboardDecoder({ maxKeys: 0 })).toThrow(RangeError);
    expect(() => new BootKeyboardDecoder({ maxKeys: 1.5 })).toThrow(RangeError);
  });
});

describe('BootKeyboardDecoder: round trip (property)', () => {
  const codeArb = fc.array(fc.constantFrom(...SUPPORTED_CHARACTERS), { minLength: 1, maxLength: 64 }).map((cs) => cs.join(''));

  it('any code over the supported characters, encoded with random timing, repeats and roll-over, decodes to itself', () => {
    fc.assert(
      fc.property(
        fc.array(codeArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(8 as const, 9 as const),
        fc.constantFrom('enter' as const, 'tab' as const),
        fc.boolean(),
        fc.boolean(),
        fc.integer(),
        (codeList, layout, terminator, rollover, repeats, seed) => {
          const random = mulberry32(seed);
          const reports = codeList.flatMap((code) => encodeBootReports(code, { layout, terminator, rollover, repeats, random }));
          for (const r of reports) {
            expect(r.bytes.length).toBe(layout);
            expect(r.offsetMs).toBeGreaterThanOrEqual(0);
            expect(r.bytes.subarray(layout === 9 ? 3 : 2).filter((u) => u !== 0).length).toBeLessThanOrEqual(6);
          }
          for (const decoderLayout of [layout, 'auto'] as const) {
            const d = new BootKeyboardDecoder({ layout: decoderLayout, terminators: [terminator] });
            const events = reports.flatMap((r) => d.push(r.bytes));
            expect(events).toEqual(codeList.map((code) => ({ type: 'code', code })));
            expect(d.errors).toBe(0);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the encoder really rolls over: some key goes down while another is held', () => {
    const reports = encodeBootReports('0123456789abcdefghij', { layout: 8, terminator: 'enter', rollover: true, random: mulberry32(7) });
    const maxHeld = Math.max(...reports.map((r) => r.bytes.subarray(2).filter((u) => u !== 0).length));
    expect(maxHeld).toBeGreaterThan(1);
  });

  it('the encoder refuses a character no key types', () => {
    expect(() => encodeBootReports('ação', { layout: 8, terminator: 'enter' })).toThrow(RangeError);
  });
});

describe('BootKeyboardDecoder: garbage is dropped, counted, never punched', () => {
  it('wrong report lengths', () => {
    const d = new BootKeyboardDecoder();
    const events = [new Uint8Array(0), new Uint8Array(1), new Uint8Array(7), new Uint8Array(10), new Uint8Array(64)].flatMap((r) => d.push(r));
    expect(errors(events)).toEqual([
      'wrong report length 0',
      'wrong report length 1',
      'wrong report length 7',
      'wrong report length 10',
      'wrong report length 64',
    ]);
    expect(d.errors).toBe(5);
    expect(codes(events)).toEqual([]);
  });

  it('a stray report of another length in the middle of a code does not break the code', () => {
    const d = new BootKeyboardDecoder();
    const events = feed(d, [r8(0, 0x1e), UP, new Uint8Array([0x03, 0xe9, 0x00]), r8(0, 0x1f), UP, r8(0, 0x28), UP]);
    expect(codes(events)).toEqual(['12']);
    expect(d.errors).toBe(1);
  });

  it('an unknown usage drops the code being assembled (one error), and the next code decodes', () => {
    const d = new BootKeyboardDecoder();
    const events = feed(d, typed([0x1e, 0x39, 0x1f, 0x80, 0x20]));
    expect(codes(events)).toEqual([]);
    expect(errors(events)).toEqual(['unknown key usage 0x39; code dropped']);
    expect(d.errors).toBe(1);
    expect(feed(d, typed([0x21]))).toEqual([{ type: 'code', code: '4' }]);
  });

  it('Escape, Backspace and Ctrl/Alt combinations drop the code', () => {
    for (const bad of [r8(0, 0x29), r8(0, 0x2a), r8(0x01, 0x06), r8(0x40, 0x06)]) {
      const d = new BootKeyboardDecoder();
      const events = feed(d, [...typed([0x1e], false), bad, UP, ...typed([0x1f])]);
      expect(codes(events)).toEqual([]);
      expect(d.errors).toBe(1);
      expect(errors(events)[0]).toMatch(/code dropped$/);
    }
  });

  it('phantom state (ErrorRollOver 0x01 in every slot) is an error, ignored, and drops the code', () => {
    const d = new BootKeyboardDecoder();
    const phantom = r8(0, 1, 1, 1, 1, 1, 1);
    const events = feed(d, [r8(0, 0x1e), phantom, phantom, phantom, UP, r8(0, 0x28), UP]);
    expect(codes(events)).toEqual([]);
    expect(errors(events)).toEqual(['rollover error (too many keys down), report ignored; code dropped']);
    expect(feed(d, typed([0x1f]))).toEqual([{ type: 'code', code: '2' }]);
    expect(d.errors).toBe(1);
  });

  it('the report after a phantom state is diffed against the last good one', () => {
    const d = new BootKeyboardDecoder();
    // '1' held through the phantom: not typed again afterwards
    const events = feed(d, [r8(0, 0x1e), r8(0, 1, 1, 1, 1, 1, 1), r8(0, 0x1e), UP, r8(0, 0x28), UP, ...typed([0x1f])]);
    expect(codes(events)).toEqual(['2']);
  });

  it('a terminator with no code', () => {
    const d = new BootKeyboardDecoder({ terminators: ['enter', 'tab'] });
    const events = feed(d, [r8(0, 0x28), UP, r8(0, 0x58), UP, r8(0, 0x2b), UP]);
    expect(errors(events)).toEqual(['terminator with no code', 'terminator with no code', 'terminator with no code']);
    expect(d.errors).toBe(3);
  });

  it('10,000 keys without a terminator: one error, no code, and the next scan after a terminator decodes', () => {
    const d = new BootKeyboardDecoder();
    const digits = [0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27];
    let events: DecodeEvent[] = [];
    for (let i = 0; i < 10_000; i++) events = events.concat(d.push(r8(0, digits[i % 10] ?? 0x1e)), d.push(UP));
    expect(codes(events)).toEqual([]);
    expect(errors(events)).toEqual(['more than 64 keys without a terminator; code dropped']);
    expect(d.errors).toBe(1);
    // The terminator ends the dropped run silently; then a real scan.
    expect(feed(d, [r8(0, 0x28), UP])).toEqual([]);
    expect(feed(d, typed([0x1e, 0x1f]))).toEqual([{ type: 'code', code: '12' }]);
    expect(d.errors).toBe(1);
  });

  it('random bytes never throw, and every error is counted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.uint8Array({ minLength: 8, maxLength: 8 }), fc.uint8Array({ minLength: 9, maxLength: 9 }), fc.uint8Array({ maxLength: 70 })), {
          maxLength: 200,
        }),
        (reports) => {
          const d = new BootKeyboardDecoder();
          let errorEvents = 0;
          for (const r of reports) {
            const events = d.push(r);
            errorEvents += errors(events).length;
            for (const e of events) if (e.type === 'code') expect(e.code.length).toBeGreaterThan(0);
          }
          expect(d.errors).toBe(errorEvents);
        },
      ),
    );
  });
});
