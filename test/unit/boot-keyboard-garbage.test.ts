/**
 * BootKeyboardDecoder: garbage in the report stream (wrong lengths, unknown usages, Escape and
 * Ctrl/Alt, phantom states, lone terminators, endless keys, random bytes) is dropped, counted and
 * never punched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BootKeyboardDecoder, type DecodeEvent } from '../../src/input/boot-keyboard-decoder.js';
import { codes, errors, feed, r8, typed, UP } from '../helpers/boot-reports.js';

describe('BootKeyboardDecoder: garbage is dropped, counted, never punched', () => {
  it('wrong report lengths', () => {
    const d = new BootKeyboardDecoder();
    const events = [
      new Uint8Array(0),
      new Uint8Array(1),
      new Uint8Array(7),
      new Uint8Array(10),
      new Uint8Array(64),
    ].flatMap((r) => d.push(r));
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
        fc.array(
          fc.oneof(
            fc.uint8Array({ minLength: 8, maxLength: 8 }),
            fc.uint8Array({ minLength: 9, maxLength: 9 }),
            fc.uint8Array({ maxLength: 70 }),
          ),
          {
            maxLength: 200,
          },
        ),
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
