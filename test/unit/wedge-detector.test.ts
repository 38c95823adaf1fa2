/**
 * The keyboard-wedge detector (src/input/wedge-detector.ts): its options and key classes, a
 * reader's burst read as one scan, and a person's typing passed through key by key. Boundary
 * timings, tick and garbage bursts are in wedge-detector-timing.test.ts, the properties in
 * wedge-detector-properties.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CODE_LENGTH } from '../../src/domain/people/credential.js';
import {
  classifyKey,
  DEFAULT_WEDGE_OPTIONS,
  WedgeDetector,
  wedgeOptionsSchema,
  type WedgeOutput,
} from '../../src/input/wedge-detector.js';
import { burst, FAR, feed, GAP, lastAt, scans, T0, typed, type Press } from '../helpers/wedge-keys.js';

describe('options', () => {
  it('defaults fit USB readers and people: 30 ms gap inclusive, 4..64 keys, Enter, hold 40 ms', () => {
    expect(DEFAULT_WEDGE_OPTIONS).toEqual({
      maxInterKeyMs: 30,
      minLength: 4,
      maxLength: 64,
      terminators: ['Enter'],
      holdMs: 40,
    });
    expect(DEFAULT_WEDGE_OPTIONS.maxLength).toBe(MAX_CODE_LENGTH);
    expect(wedgeOptionsSchema.parse({})).toEqual(DEFAULT_WEDGE_OPTIONS);
    expect(new WedgeDetector().options).toEqual(DEFAULT_WEDGE_OPTIONS);
  });

  it('accepts overrides, coerces numbers from the environment, and rejects nonsense', () => {
    expect(
      wedgeOptionsSchema.parse({ maxInterKeyMs: '20', holdMs: '25', terminators: ['Enter', 'Tab'] }),
    ).toMatchObject({
      maxInterKeyMs: 20,
      holdMs: 25,
      terminators: ['Enter', 'Tab'],
    });
    const bad: unknown[] = [
      { holdMs: 20 }, // below maxInterKeyMs 30
      { minLength: 10, maxLength: 8 },
      { maxLength: MAX_CODE_LENGTH + 1 },
      { terminators: [] },
      { terminators: [''] },
      { maxInterKeyMs: 0 },
      { minLength: 0 },
      { maxInterKeyMs: 2.5 },
      { surprise: true },
    ];
    for (const b of bad) expect(wedgeOptionsSchema.safeParse(b).success, JSON.stringify(b)).toBe(false);
    expect(() => new WedgeDetector({ holdMs: 10 })).toThrow(/holdMs/);
  });

  it('does not share the default terminator list between detectors', () => {
    const det = new WedgeDetector();
    expect(det.options.terminators).not.toBe(DEFAULT_WEDGE_OPTIONS.terminators);
  });

  it('classifies keys', () => {
    const t = ['Enter'];
    expect(['1', 'a', 'Z', ' ', '-', 'é', 'Ç', '😀'].map((k) => classifyKey(k, t))).toEqual(Array(8).fill('printable'));
    expect(classifyKey('Enter', t)).toBe('terminator');
    expect(classifyKey('Tab', t)).toBe('other');
    expect(classifyKey('Tab', ['Enter', 'Tab'])).toBe('terminator');
    expect(classifyKey('\r', ['\r'])).toBe('terminator');
    expect(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'Dead'].map((k) => classifyKey(k, t))).toEqual(
      Array(6).fill('ignored'),
    );
    expect(
      ['Backspace', 'Escape', 'ArrowLeft', 'Delete', 'F1', '\t', '\u001b', '\u007f'].map((k) => classifyKey(k, t)),
    ).toEqual(Array(8).fill('other'));
  });
});

describe('a reader burst', () => {
  it('a scripted 10-digit burst 8 ms apart plus Enter becomes exactly one scan and nothing typed', () => {
    const det = new WedgeDetector();
    const presses = burst('0004589217', T0, 8);
    const outs = presses.map((p) => det.key(p.key, p.at));
    expect(outs.slice(0, -1).every((o) => o.length === 0)).toBe(true); // all held until the terminator
    expect(outs.flat()).toEqual([{ type: 'scan', code: '0004589217', at: T0 + 80 }]);
    expect(det.pending).toBe(0);
    expect(det.nextTickAt()).toBeNull();
    expect(det.tick(T0 + FAR)).toEqual([]);
    expect(det.errors).toBe(0);
  });

  it('same result when a timer ticks between the keys', () => {
    const det = new WedgeDetector();
    const out: WedgeOutput[] = [];
    for (const p of burst('0004589217', T0, 8)) {
      out.push(...det.tick(p.at), ...det.key(p.key, p.at));
    }
    expect(out).toEqual([{ type: 'scan', code: '0004589217', at: T0 + 80 }]);
  });

  it('keys arriving in one chunk (same timestamp, as on standard input) are a burst', () => {
    const det = new WedgeDetector();
    expect(feed(det, burst('ABC123', T0, 0))).toEqual([{ type: 'scan', code: 'ABC123', at: T0 }]);
  });

  it('Shift presses interleaved by the reader for capitals neither break the burst nor show up', () => {
    const det = new WedgeDetector();
    const presses: Press[] = [];
    let t = T0;
    for (const ch of 'Ab12CD') {
      if (ch !== ch.toLowerCase()) presses.push({ key: 'Shift', at: (t += 3) });
      presses.push({ key: ch, at: (t += 5) });
    }
    presses.push({ key: 'Shift', at: t + 2 });
    presses.push({ key: 'Enter', at: (t += 8) });
    expect(feed(det, presses)).toEqual([{ type: 'scan', code: 'Ab12CD', at: t }]);
  });

  it('a Shift press does not reset the gap clock: the gap is measured between characters', () => {
    const det = new WedgeDetector();
    // 'A' at +0, Shift at +20, 'B' at +35: 35 ms between the characters is too slow.
    const out = feed(det, [
      { key: 'A', at: T0 },
      { key: 'Shift', at: T0 + 20 },
      { key: 'B', at: T0 + 35 },
      { key: 'C', at: T0 + 40 },
      { key: 'D', at: T0 + 45 },
      { key: 'E', at: T0 + 50 },
      { key: 'Enter', at: T0 + 55 },
    ]);
    expect(out).toEqual([
      { type: 'typed', key: 'A', at: T0 },
      { type: 'scan', code: 'BCDE', at: T0 + 55 },
    ]);
  });

  it('another terminator can be configured', () => {
    const det = new WedgeDetector({ terminators: ['Enter', 'Tab'] });
    expect(scans(feed(det, burst('12345678', T0, 5, 'Tab')))).toEqual(['12345678']);
    expect(scans(feed(det, burst('87654321', T0 + 1_000, 5, 'Enter')))).toEqual(['87654321']);
  });
});

describe('a person typing', () => {
  it.each([
    ['slow, 120 ms per key, timer ticking', 120, true],
    ['slow, 120 ms per key, no timer', 120, false],
    ['fast typist, 45 ms per key', 45, false],
    ['fast typist, 50 ms per key, timer ticking', 50, true],
  ])('%s: every key typed, Enter typed, no scan', (_label, gap, ticks) => {
    const det = new WedgeDetector();
    const presses = burst('0004589217', T0, gap);
    const out = [...feed(det, presses, ticks), ...det.tick(lastAt(presses) + FAR)];
    expect(scans(out)).toEqual([]);
    expect(typed(out)).toEqual([...'0004589217', 'Enter']);
    expect(out.map((o) => o.at)).toEqual(presses.map((p) => p.at));
  });

  it('a fast typist with an uneven 45-60 ms rhythm is never a scan', () => {
    const det = new WedgeDetector();
    const gaps = [52, 47, 60, 45, 58, 49, 55, 46, 51, 57];
    const presses: Press[] = [];
    let t = T0;
    for (const [i, ch] of [...'1234567890'].entries()) presses.push({ key: ch, at: (t += gaps[i] ?? 50) });
    presses.push({ key: 'Enter', at: t + 45 });
    const out = feed(det, presses);
    expect(scans(out)).toEqual([]);
    expect(typed(out)).toEqual([...'1234567890', 'Enter']);
  });

  it('Backspace and arrows end the held run and keep their place in the order', () => {
    const det = new WedgeDetector();
    const out = feed(det, [
      { key: '1', at: T0 },
      { key: '2', at: T0 + 10 }, // rolled quickly: still held
      { key: 'Backspace', at: T0 + 15 },
      { key: '3', at: T0 + 20 },
      { key: 'ArrowLeft', at: T0 + 25 },
    ]);
    expect(out.map((o) => (o.type === 'typed' ? o.key : `scan:${o.code}`))).toEqual([
      '1',
      '2',
      'Backspace',
      '3',
      'ArrowLeft',
    ]);
    expect(det.pending).toBe(0);
  });

  it('a lone modifier produces nothing', () => {
    const det = new WedgeDetector();
    expect(det.key('Shift', T0)).toEqual([]);
    expect(det.key('Control', T0 + 500)).toEqual([]);
    expect(det.pending).toBe(0);
    expect(det.tick(T0 + FAR)).toEqual([]);
  });

  it('Enter on an empty keypad is typed at once', () => {
    const det = new WedgeDetector();
    expect(det.key('Enter', T0)).toEqual([{ type: 'typed', key: 'Enter', at: T0 }]);
  });

  it('a person typing and then a burst right after: the person’s keys typed, then one scan', () => {
    const det = new WedgeDetector();
    const person = burst('123', T0, 150, null);
    const reader = burst('0004589217', lastAt(person) + GAP + 10, 8);
    const out = [...feed(det, [...person, ...reader])];
    expect(out).toEqual([
      { type: 'typed', key: '1', at: T0 },
      { type: 'typed', key: '2', at: T0 + 150 },
      { type: 'typed', key: '3', at: T0 + 300 },
      { type: 'scan', code: '0004589217', at: lastAt(reader) },
    ]);
  });

  it('the same with a timer: the person’s keys come out before the burst starts', () => {
    const det = new WedgeDetector();
    const person = burst('123', T0, 150, null);
    const reader = burst('0004589217', lastAt(person) + 200, 8);
    const out = feed(det, [...person, ...reader], true);
    expect(typed(out)).toEqual(['1', '2', '3']);
    expect(scans(out)).toEqual(['0004589217']);
    expect(out.at(-1)?.type).toBe('scan');
  });
});
