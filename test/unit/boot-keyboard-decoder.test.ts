/**
 * BootKeyboardDecoder: capture fixtures written from the usage tables, the keys (terminators,
 * roll-over, Shift, modifiers, reset, limits) and the encoder/decoder round trip as a property.
 * Garbage in the report stream: boot-keyboard-garbage.test.ts; the usage table: hid-usage.test.ts.
 */
import { mulberry32 } from '../../src/domain/rate/seeded-random.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCode } from '../../src/domain/people/credential.js';
import {
  BootKeyboardDecoder,
  type BootKeyboardOptions,
  type DecodeEvent,
} from '../../src/input/boot-keyboard-decoder.js';
import { encodeBootReports, parseCapture } from '../../src/input/capture-file.js';
import { SUPPORTED_CHARACTERS } from '../../src/input/hid-usage.js';
import { codes, errors, feed, r8, typed, UP } from '../helpers/boot-reports.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures');

function decodeFixture(
  name: string,
  opts: Partial<BootKeyboardOptions> = {},
): { events: DecodeEvent[]; decoder: BootKeyboardDecoder } {
  const capture = parseCapture(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
  expect(capture.errors, `${name} parses cleanly`).toEqual([]);
  expect(capture.reports.length).toBeGreaterThan(0);
  const decoder = new BootKeyboardDecoder(opts);
  return { events: capture.reports.flatMap((r) => decoder.push(r.bytes)), decoder };
}

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
    const events = feed(d, [
      r8(0, 0x04),
      r8(0x02, 0x04),
      r8(0x02, 0x04, 0x05),
      r8(0x00, 0x05),
      r8(0x00, 0x05, 0x06),
      UP,
      r8(0x20, 0x28),
      UP,
    ]);
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
  const codeArb = fc
    .array(fc.constantFrom(...SUPPORTED_CHARACTERS), { minLength: 1, maxLength: 64 })
    .map((cs) => cs.join(''));

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
          const reports = codeList.flatMap((code) =>
            encodeBootReports(code, { layout, terminator, rollover, repeats, random }),
          );
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
    const reports = encodeBootReports('0123456789abcdefghij', {
      layout: 8,
      terminator: 'enter',
      rollover: true,
      random: mulberry32(7),
    });
    const maxHeld = Math.max(...reports.map((r) => r.bytes.subarray(2).filter((u) => u !== 0).length));
    expect(maxHeld).toBeGreaterThan(1);
  });

  it('the encoder refuses a character no key types', () => {
    expect(() => encodeBootReports('ação', { layout: 8, terminator: 'enter' })).toThrow(RangeError);
  });
});
