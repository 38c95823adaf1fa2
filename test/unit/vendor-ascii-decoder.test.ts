import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecodeEvent } from '../../src/input/boot-keyboard-decoder.js';
import { parseCapture } from '../../src/input/capture-file.js';
import { VendorAsciiDecoder } from '../../src/input/vendor-ascii-decoder.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'captures');

const codes = (events: readonly DecodeEvent[]): string[] => events.flatMap((e) => (e.type === 'code' ? [e.code] : []));
const errors = (events: readonly DecodeEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'error' ? [e.reason] : []));

/** A report of ASCII text (and \r, \n, \0 ...) with an optional report id, padded with NUL to `size`. */
function report(text: string, opts: { id?: number; size?: number } = {}): Uint8Array {
  const bytes = [...(opts.id === undefined ? [] : [opts.id]), ...Array.from(text, (c) => c.charCodeAt(0))];
  while (opts.size !== undefined && bytes.length < opts.size) bytes.push(0);
  return Uint8Array.from(bytes);
}

const feed = (d: VendorAsciiDecoder, reports: readonly Uint8Array[]): DecodeEvent[] =>
  reports.flatMap((r) => d.push(r));

describe('VendorAsciiDecoder', () => {
  it('decodes the vendor ASCII fixture (report id, NUL padding, CR LF split across reports)', () => {
    const capture = parseCapture(fs.readFileSync(path.join(FIXTURES, 'vendor-ascii.hex'), 'utf8'));
    expect(capture.errors).toEqual([]);
    const d = new VendorAsciiDecoder({ reportIdByte: true, terminators: '\r\n' });
    const events = feed(
      d,
      capture.reports.map((r) => r.bytes),
    );
    expect(events).toEqual([
      { type: 'code', code: '0004817263' },
      { type: 'code', code: 'EMP-42' },
    ]);
    expect(d.errors).toBe(0);
  });

  it('without reportIdByte, the first byte is text', () => {
    const d = new VendorAsciiDecoder({ reportIdByte: false });
    expect(feed(d, [report('42\r')])).toEqual([{ type: 'code', code: '42' }]);
    const withId = new VendorAsciiDecoder({ reportIdByte: true });
    expect(feed(withId, [report('42\r')])).toEqual([{ type: 'code', code: '2' }]);
  });

  it('NUL padding is ignored anywhere', () => {
    const d = new VendorAsciiDecoder();
    expect(feed(d, [report('\0\x001\x002', { size: 16 }), report('\x003\0\r', { size: 16 })])).toEqual([
      { type: 'code', code: '123' },
    ]);
  });

  it('any configured terminator byte ends a code, printable ones included', () => {
    const d = new VendorAsciiDecoder({ terminators: '?' });
    expect(feed(d, [report('AB12?CD?')])).toEqual([
      { type: 'code', code: 'AB12' },
      { type: 'code', code: 'CD' },
    ]);
  });

  it('endOfReportTerminates: one code per report; a padding-only report ends nothing', () => {
    const d = new VendorAsciiDecoder({ reportIdByte: true, terminators: '', endOfReportTerminates: true });
    expect(
      feed(d, [report('123', { id: 1, size: 8 }), report('', { id: 1, size: 8 }), report('ABC', { id: 1, size: 8 })]),
    ).toEqual([
      { type: 'code', code: '123' },
      { type: 'code', code: 'ABC' },
    ]);
    expect(d.errors).toBe(0);
    // with a terminator too: "12\r" then end of report is one code, and a following "\n" is not a lone terminator
    const both = new VendorAsciiDecoder({ endOfReportTerminates: true });
    expect(feed(both, [report('12\r'), report('\n')])).toEqual([{ type: 'code', code: '12' }]);
    expect(both.errors).toBe(0);
  });

  it('non-printable garbage drops the code with one counted error; the next code decodes', () => {
    const d = new VendorAsciiDecoder();
    const events = feed(d, [report('12\x07'), Uint8Array.from([0x33, 0xff, 0x1b, 0x34]), report('\r'), report('56\r')]);
    expect(errors(events)).toEqual(['non-printable byte 0x07; code dropped']);
    expect(codes(events)).toEqual(['56']);
    expect(d.errors).toBe(1);
  });

  it('with endOfReportTerminates, garbage drops only the code of its report', () => {
    const d = new VendorAsciiDecoder({ terminators: '', endOfReportTerminates: true });
    const events = feed(d, [report('1\x012'), report('34')]);
    expect(codes(events)).toEqual(['34']);
    expect(d.errors).toBe(1);
  });

  it('a terminator with no code is an error', () => {
    const d = new VendorAsciiDecoder();
    const events = feed(d, [report('\r')]);
    expect(errors(events)).toEqual(['terminator with no code']);
    expect(d.errors).toBe(1);
  });

  it('too long: one error, dropped until the terminator, then it recovers', () => {
    const d = new VendorAsciiDecoder({ maxLength: 8 });
    expect(feed(d, [report('12345678\r')])).toEqual([{ type: 'code', code: '12345678' }]);
    const events = feed(d, [report('123456789'), report('0123\r'), report('9\r')]);
    expect(errors(events)).toEqual(['more than 8 characters without a terminator; code dropped']);
    expect(codes(events)).toEqual(['9']);
  });

  it('10,000 characters without a terminator: one error, no code', () => {
    const d = new VendorAsciiDecoder({ reportIdByte: true });
    const events: DecodeEvent[] = [];
    for (let i = 0; i < 1_250; i++) events.push(...d.push(report('12345678', { id: 2 })));
    expect(codes(events)).toEqual([]);
    expect(d.errors).toBe(1);
  });

  it('empty reports are errors', () => {
    const d = new VendorAsciiDecoder({ reportIdByte: true });
    expect(errors(feed(d, [new Uint8Array(0), Uint8Array.of(2)]))).toEqual(['empty report', 'empty report']);
  });

  it('reset forgets a partial code', () => {
    const d = new VendorAsciiDecoder();
    feed(d, [report('12')]);
    d.reset();
    expect(feed(d, [report('3\r')])).toEqual([{ type: 'code', code: '3' }]);
  });

  it('refuses options that could never end a code, or non-ASCII terminators', () => {
    expect(() => new VendorAsciiDecoder({ terminators: '' })).toThrow(RangeError);
    expect(() => new VendorAsciiDecoder({ terminators: '\0' })).toThrow(RangeError);
    expect(() => new VendorAsciiDecoder({ terminators: 'é' })).toThrow(RangeError);
    expect(() => new VendorAsciiDecoder({ maxLength: 0 })).toThrow(RangeError);
  });

  it('round trip: printable codes, split at random report boundaries, decode to themselves', () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)),
      minLength: 1,
      maxLength: 64,
    });
    fc.assert(
      fc.property(
        fc.array(printable, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 16 }),
        (list, chunk) => {
          const stream = list.map((c) => `${c}\r\n`).join('');
          const reports: Uint8Array[] = [];
          for (let i = 0; i < stream.length; i += chunk)
            reports.push(report(stream.slice(i, i + chunk), { id: 3, size: chunk + 1 }));
          const d = new VendorAsciiDecoder({ reportIdByte: true });
          expect(feed(d, reports)).toEqual(list.map((code) => ({ type: 'code', code })));
          expect(d.errors).toBe(0);
        },
      ),
    );
  });

  it('random bytes never throw, and every error is counted', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 65 }), { maxLength: 100 }), fc.boolean(), (reports, eor) => {
        const d = new VendorAsciiDecoder({ reportIdByte: true, endOfReportTerminates: eor });
        let n = 0;
        for (const r of reports) n += errors(d.push(r)).length;
        expect(d.errors).toBe(n);
      }),
    );
  });
});
