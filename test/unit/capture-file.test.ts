import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BootKeyboardDecoder } from '../../src/input/boot-keyboard-decoder.js';
import {
  encodeBootReports,
  formatCapture,
  formatCaptureLine,
  parseCapture,
  replayCapture,
} from '../../src/input/capture-file.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures');
const hex = (b: Uint8Array): string => Array.from(b, (n) => n.toString(16).padStart(2, '0')).join(' ');

describe('parseCapture', () => {
  it('reads offsets, hex with or without spaces, and skips comments and blank lines', () => {
    const text = [
      '# header',
      '',
      '+0 00 00 1e 00 00 00 00 00',
      '  +12.5 0000280000000000   # Enter',
      'AbCd',
      '\t',
      '+3 01 # trailing comment',
    ].join('\n');
    const c = parseCapture(text);
    expect(c.errors).toEqual([]);
    expect(c.reports.map((r) => ({ line: r.line, offsetMs: r.offsetMs, hex: hex(r.bytes) }))).toEqual([
      { line: 3, offsetMs: 0, hex: '00 00 1e 00 00 00 00 00' },
      { line: 4, offsetMs: 12.5, hex: '00 00 28 00 00 00 00 00' },
      { line: 5, offsetMs: 0, hex: 'ab cd' },
      { line: 7, offsetMs: 3, hex: '01' },
    ]);
  });

  it('accepts CRLF line ends', () => {
    const c = parseCapture('+1 00\r\n+2 01\r\n');
    expect(c.errors).toEqual([]);
    expect(c.reports.map((r) => r.offsetMs)).toEqual([1, 2]);
  });

  it('lists bad lines as errors with their line numbers and keeps the good ones', () => {
    const text = [
      '+1 00 11',
      '+x 00',
      '+5',
      '00 1',
      '00 zz',
      '0 00 0',
      '+-3 00',
      '+4 22',
      `${'00'.repeat(4097)}`,
      '+7ab',
    ].join('\n');
    const c = parseCapture(text);
    expect(c.reports.map((r) => [r.line, hex(r.bytes)])).toEqual([
      [1, '00 11'],
      [8, '22'],
    ]);
    expect(c.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 9, 10]);
    expect(c.errors[0]?.reason).toMatch(/bad time offset/);
    expect(c.errors[1]?.reason).toMatch(/no report bytes/);
    expect(c.errors[2]?.reason).toMatch(/odd number/);
    expect(c.errors[3]?.reason).toMatch(/not a hex byte: "z"/);
    expect(c.errors[4]?.reason).toMatch(/not whole bytes/);
    expect(c.errors[6]?.reason).toMatch(/longer than 4096 bytes/);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const c = parseCapture(text);
        for (const r of c.reports) expect(r.offsetMs).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('parses every fixture without errors', () => {
    for (const name of fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.hex'))) {
      const c = parseCapture(fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
      expect(c.errors, name).toEqual([]);
      expect(c.reports.length, name).toBeGreaterThan(3);
    }
  });
});

describe('formatCaptureLine / formatCapture', () => {
  it('formats one line', () => {
    expect(formatCaptureLine(8, Uint8Array.of(0, 0, 0x1e, 0, 0, 0, 0, 0))).toBe('+8 00 00 1e 00 00 00 00 00');
    expect(formatCaptureLine(0, Uint8Array.of(0xff))).toBe('+0 ff');
    expect(() => formatCaptureLine(-1, Uint8Array.of(0))).toThrow(RangeError);
    expect(() => formatCaptureLine(Number.NaN, Uint8Array.of(0))).toThrow(RangeError);
  });

  it('round-trips through parseCapture', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ offsetMs: fc.nat({ max: 100_000 }), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
          { maxLength: 30 },
        ),
        fc.option(fc.string().map((s) => s.replace(/[\r\n]/g, ' '))),
        (reports, header) => {
          const text = formatCapture(reports, header ?? undefined);
          const c = parseCapture(text);
          expect(c.errors).toEqual([]);
          expect(c.reports.map((r) => ({ offsetMs: r.offsetMs, bytes: r.bytes }))).toEqual(reports);
        },
      ),
    );
  });
});

describe('replayCapture', () => {
  it('feeds a capture through a decoder, with times and line numbers', () => {
    const c = parseCapture(fs.readFileSync(path.join(FIXTURES, 'card-10-digits-enter.hex'), 'utf8'));
    const events = replayCapture(c.reports, new BootKeyboardDecoder());
    expect(events).toEqual([{ line: 25, atMs: 80, event: { type: 'code', code: '0004817263' } }]);
  });

  it('applies transforms; a refused code becomes an error', () => {
    const c = parseCapture(fs.readFileSync(path.join(FIXTURES, 'card-10-digits-enter.hex'), 'utf8'));
    expect(replayCapture(c.reports, new BootKeyboardDecoder(), { stripPrefix: '000' }).map((e) => e.event)).toEqual([
      { type: 'code', code: '4817263' },
    ]);
    expect(replayCapture(c.reports, new BootKeyboardDecoder(), { maxLength: 8 }).map((e) => e.event)).toEqual([
      { type: 'error', reason: 'code refused: too long (10 characters, at most 8)' },
    ]);
  });

  it('a written capture of encoded reports replays to the code', () => {
    const reports = encodeBootReports('Badge/42', { layout: 9, terminator: 'enter', rollover: true, repeats: true });
    const c = parseCapture(formatCapture(reports, 'generated'));
    expect(c.errors).toEqual([]);
    const events = replayCapture(c.reports, new BootKeyboardDecoder({ layout: 9 }));
    expect(events.map((e) => e.event)).toEqual([{ type: 'code', code: 'Badge/42' }]);
    // reported at the line of the terminator's press, which comes before the final release
    const line = events[0]?.line ?? 0;
    expect(line).toBeGreaterThan(1);
    expect(line).toBeLessThan(c.reports.length + 1);
  });
});
