import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CODE_LENGTH } from '../../src/domain/credential.js';
import {
  classifyKey,
  DEFAULT_WEDGE_OPTIONS,
  WedgeDetector,
  wedgeOptionsSchema,
  type WedgeOptions,
  type WedgeOutput,
} from '../../src/input/wedge-detector.js';

type Press = { key: string; at: number };

const T0 = 1_000_000;
const { maxInterKeyMs: GAP, holdMs: HOLD, minLength: MIN, maxLength: MAX } = DEFAULT_WEDGE_OPTIONS;

/** Keys `chars` starting at `start`, `gap` ms apart, then `terminator` one gap after the last key. */
function burst(chars: string, start: number, gap: number, terminator: string | null = 'Enter'): Press[] {
  const keys = [...chars];
  const presses = keys.map((key, i) => ({ key, at: start + i * gap }));
  if (terminator !== null) presses.push({ key: terminator, at: start + keys.length * gap });
  return presses;
}

/** Feed presses in order; when `ticks` is set, also call tick() like a timer would between keys. */
function feed(det: WedgeDetector, presses: readonly Press[], ticks = false): WedgeOutput[] {
  const out: WedgeOutput[] = [];
  for (const p of presses) {
    if (ticks) {
      const due = det.nextTickAt();
      if (due !== null && due <= p.at) out.push(...det.tick(due));
    }
    out.push(...det.key(p.key, p.at));
  }
  return out;
}

const scans = (out: readonly WedgeOutput[]): string[] => out.flatMap((o) => (o.type === 'scan' ? [o.code] : []));
const typed = (out: readonly WedgeOutput[]): string[] => out.flatMap((o) => (o.type === 'typed' ? [o.key] : []));
const lastAt = (presses: readonly Press[]): number => presses[presses.length - 1]?.at ?? T0;
const FAR = 10_000_000;

describe('options', () => {
  it('defaults fit USB readers and people: 30 ms gap inclusive, 4..64 keys, Enter, hold 40 ms', () => {
    expect(DEFAULT_WEDGE_OPTIONS).toEqual({ maxInterKeyMs: 30, minLength: 4, maxLength: 64, terminators: ['Enter'], holdMs: 40 });
    expect(DEFAULT_WEDGE_OPTIONS.maxLength).toBe(MAX_CODE_LENGTH);
    expect(wedgeOptionsSchema.parse({})).toEqual(DEFAULT_WEDGE_OPTIONS);
    expect(new WedgeDetector().options).toEqual(DEFAULT_WEDGE_OPTIONS);
  });

  it('accepts overrides, coerces numbers from the environment, and rejects nonsense', () => {
    expect(wedgeOptionsSchema.parse({ maxInterKeyMs: '20', holdMs: '25', terminators: ['Enter', 'Tab'] })).toMatchObject({
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
    expect(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'Dead'].map((k) => classifyKey(k, t))).toEqual(Array(6).fill('ignored'));
    expect(['Backspace', 'Escape', 'ArrowLeft', 'Delete', 'F1', '\t', '\u001b', '\u007f'].map((k) => classifyKey(k, t))).toEqual(
      Array(8).fill('other'),
    );
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
    expect(out.map((o) => (o.type === 'typed' ? o.key : `scan:${o.code}`))).toEqual(['1', '2', 'Backspace', '3', 'ArrowLeft']);
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

describe('boundary timings', () => {
  it(`a gap of exactly maxInterKeyMs (${GAP} ms) is still a burst (inclusive)`, () => {
    const det = new WedgeDetector();
    expect(feed(det, burst('12345678', T0, GAP))).toEqual([{ type: 'scan', code: '12345678', at: T0 + 8 * GAP }]);
  });

  it(`a gap of maxInterKeyMs + 1 (${GAP + 1} ms) is a person`, () => {
    const det = new WedgeDetector();
    const out = feed(det, burst('12345678', T0, GAP + 1));
    expect(scans(out)).toEqual([]);
    expect(typed(out)).toEqual([...'12345678', 'Enter']);
  });

  it('fractional timestamps: 30.0 is a burst, 30.5 is not', () => {
    expect(scans(feed(new WedgeDetector(), burst('1234', 0.25, 30.0)))).toEqual(['1234']);
    expect(scans(feed(new WedgeDetector(), burst('1234', 0.25, 30.5)))).toEqual([]);
  });

  it.each([0, 3, 7])('one slow gap (before key %i; 0 = before Enter) splits the run: no scan of the whole', (slowBefore) => {
    const det = new WedgeDetector();
    const chars = [...'12345678'];
    const presses: Press[] = [];
    let t = T0;
    for (const [i, ch] of chars.entries()) {
      if (i > 0) t += i === slowBefore ? GAP + 1 : 8;
      presses.push({ key: ch, at: t });
    }
    presses.push({ key: 'Enter', at: t + (slowBefore === 0 ? GAP + 1 : 8) });
    const out = [...feed(det, presses), ...det.tick(t + FAR)];
    expect(scans(out)).not.toContain('12345678');
    // Nothing lost or duplicated: typed keys then (maybe) the scan of the tail rebuild the input.
    const rebuilt = out.flatMap((o) => (o.type === 'typed' ? [o.key] : [...o.code, 'Enter']));
    expect(rebuilt).toEqual([...chars, 'Enter']);
  });

  it(`a terminator maxInterKeyMs after the last key completes the scan; one ms later it is typed`, () => {
    const onTime = burst('12345678', T0, 8, null);
    const det1 = new WedgeDetector();
    feed(det1, onTime);
    expect(det1.key('Enter', lastAt(onTime) + GAP)).toEqual([{ type: 'scan', code: '12345678', at: lastAt(onTime) + GAP }]);

    const det2 = new WedgeDetector();
    feed(det2, onTime);
    const late = det2.key('Enter', lastAt(onTime) + GAP + 1);
    expect(typed(late)).toEqual([...'12345678', 'Enter']);
    expect(scans(late)).toEqual([]);
  });

  it(`a burst shorter than minLength (${MIN}) is typed, Enter included; exactly minLength is a scan`, () => {
    const short = feed(new WedgeDetector(), burst('123', T0, 8));
    expect(short).toEqual([
      { type: 'typed', key: '1', at: T0 },
      { type: 'typed', key: '2', at: T0 + 8 },
      { type: 'typed', key: '3', at: T0 + 16 },
      { type: 'typed', key: 'Enter', at: T0 + 24 },
    ]);
    expect(feed(new WedgeDetector(), burst('1234', T0, 8))).toEqual([{ type: 'scan', code: '1234', at: T0 + 32 }]);
  });

  it(`a burst of exactly maxLength (${MAX}) keys is a scan; one more is garbage`, () => {
    const code = '7'.repeat(MAX);
    expect(scans(feed(new WedgeDetector(), burst(code, T0, 2)))).toEqual([code]);
    const det = new WedgeDetector();
    expect(feed(det, burst(`${code}7`, T0, 2))).toEqual([]);
    expect(det.errors).toBe(1);
  });
});

describe('tick', () => {
  it('releases held keys after holdMs, not before', () => {
    const det = new WedgeDetector();
    const presses = burst('12', T0, 8, null);
    expect(feed(det, presses)).toEqual([]);
    const last = lastAt(presses);
    expect(det.pending).toBe(2);
    expect(det.nextTickAt()).toBe(last + HOLD + 1);
    expect(det.tick(last)).toEqual([]);
    expect(det.tick(last + GAP + 1)).toEqual([]); // already decided "person", but still inside holdMs
    expect(det.tick(last + HOLD)).toEqual([]);
    expect(det.pending).toBe(2);
    expect(det.tick(last + HOLD + 1)).toEqual([
      { type: 'typed', key: '1', at: T0 },
      { type: 'typed', key: '2', at: T0 + 8 },
    ]);
    expect(det.pending).toBe(0);
    expect(det.nextTickAt()).toBeNull();
    expect(det.tick(last + FAR)).toEqual([]);
  });

  it('a tick inside holdMs does not spoil a burst still arriving', () => {
    const det = new WedgeDetector();
    const out: WedgeOutput[] = [];
    for (const p of burst('12345678', T0, GAP)) out.push(...det.tick(p.at - 1), ...det.key(p.key, p.at));
    expect(out).toEqual([{ type: 'scan', code: '12345678', at: T0 + 8 * GAP }]);
  });

  it('respects a configured holdMs', () => {
    const det = new WedgeDetector({ maxInterKeyMs: 20, holdMs: 100 });
    det.key('5', T0);
    expect(det.tick(T0 + 100)).toEqual([]);
    expect(det.tick(T0 + 101)).toEqual([{ type: 'typed', key: '5', at: T0 }]);
  });

  it('rejects non-finite timestamps', () => {
    const det = new WedgeDetector();
    expect(() => det.key('1', Number.NaN)).toThrow(RangeError);
    expect(() => det.tick(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('garbage bursts', () => {
  it('a 200-key burst with no terminator is dropped, counted, nothing typed, and the detector recovers', () => {
    const det = new WedgeDetector();
    const junk = burst('0123456789'.repeat(20), T0, 4, null);
    expect(junk).toHaveLength(200);
    const out = feed(det, junk, true);
    expect(out).toEqual([]);
    expect(det.errors).toBe(1);
    expect(det.pending).toBe(0);
    expect(det.tick(lastAt(junk) + FAR)).toEqual([]);

    const next = burst('0004589217', lastAt(junk) + 500, 8);
    expect(feed(det, next, true)).toEqual([{ type: 'scan', code: '0004589217', at: lastAt(next) }]);
    expect(det.errors).toBe(1);
  });

  it('recovers at the next key after a gap even with no tick at all', () => {
    const det = new WedgeDetector();
    const junk = burst('x'.repeat(200), T0, 4, null);
    feed(det, junk);
    expect(feed(det, burst('ABCD', lastAt(junk) + GAP + 1, 5))).toEqual([{ type: 'scan', code: 'ABCD', at: lastAt(junk) + GAP + 21 }]);
    expect(det.errors).toBe(1);
  });

  it('the terminator of a garbage burst is swallowed with it; a person’s later Enter is typed', () => {
    const det = new WedgeDetector();
    const junk = burst('x'.repeat(200), T0, 4);
    expect(feed(det, junk)).toEqual([]);
    expect(det.errors).toBe(1);
    expect(det.key('Enter', lastAt(junk) + 500)).toEqual([{ type: 'typed', key: 'Enter', at: lastAt(junk) + 500 }]);
  });

  it('a late terminator after a garbage burst is a person’s Enter', () => {
    const det = new WedgeDetector();
    const junk = burst('x'.repeat(100), T0, 4, null);
    feed(det, junk);
    expect(det.key('Enter', lastAt(junk) + GAP + 1)).toEqual([{ type: 'typed', key: 'Enter', at: lastAt(junk) + GAP + 1 }]);
    expect(det.errors).toBe(1);
  });

  it('two garbage bursts in a row are counted twice', () => {
    const det = new WedgeDetector();
    const a = burst('x'.repeat(100), T0, 4);
    const b = burst('y'.repeat(100), lastAt(a) + 1_000, 4);
    expect(feed(det, [...a, ...b], true)).toEqual([]);
    expect(det.errors).toBe(2);
  });
});

describe('properties', () => {
  const chars = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ -_./:éÇ'];
  const printable = fc.constantFrom(...chars);
  const personKey = fc.oneof(
    { weight: 8, arbitrary: printable },
    { weight: 1, arbitrary: fc.constantFrom('Enter', 'Backspace', 'Escape', 'ArrowLeft', 'Tab') },
  );

  it('human-paced keys (every gap > maxInterKeyMs) all come out typed, in order, with no scan', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: personKey, gap: fc.integer({ min: GAP + 1, max: 2_000 }) }), { minLength: 1, maxLength: 120 }),
        fc.boolean(),
        (steps, ticks) => {
          const det = new WedgeDetector();
          let t = T0;
          const presses = steps.map((s) => ({ key: s.key, at: (t += s.gap) }));
          const out = [...feed(det, presses, ticks), ...det.tick(t + FAR)];
          expect(scans(out)).toEqual([]);
          expect(out).toEqual(presses.map((p) => ({ type: 'typed', key: p.key, at: p.at })));
          expect(det.errors).toBe(0);
          expect(det.pending).toBe(0);
        },
      ),
    );
  });

  it('any code of minLength..maxLength printable keys sent with gaps in [1, maxInterKeyMs] plus Enter is exactly one scan', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: printable, gap: fc.integer({ min: 1, max: GAP }) }), { minLength: MIN, maxLength: MAX }),
        fc.integer({ min: 1, max: GAP }),
        fc.boolean(),
        (steps, endGap, ticks) => {
          const det = new WedgeDetector();
          let t = T0;
          const presses = steps.map((s) => ({ key: s.key, at: (t += s.gap) }));
          presses.push({ key: 'Enter', at: t + endGap });
          const out = [...feed(det, presses, ticks), ...det.tick(t + FAR)];
          expect(out).toEqual([{ type: 'scan', code: steps.map((s) => s.key).join(''), at: t + endGap }]);
          expect(det.errors).toBe(0);
        },
      ),
    );
  });

  it('for any mix of timings and ticks, no key is lost, duplicated or reordered', () => {
    const opts: Partial<WedgeOptions> = {}; // defaults; sequences stay under maxLength so nothing is garbage
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            key: fc.oneof({ weight: 6, arbitrary: printable }, { weight: 2, arbitrary: fc.constantFrom('Enter', 'Shift', 'Backspace') }),
            gap: fc.oneof(fc.integer({ min: 0, max: GAP }), fc.integer({ min: GAP + 1, max: 200 })),
            tickAfter: fc.option(fc.integer({ min: 0, max: 100 })),
          }),
          { maxLength: MAX },
        ),
        (steps) => {
          const det = new WedgeDetector(opts);
          const out: WedgeOutput[] = [];
          let t = T0;
          for (const s of steps) {
            t += s.gap;
            out.push(...det.key(s.key, t));
            if (s.tickAfter !== null) out.push(...det.tick(t + s.tickAfter));
          }
          out.push(...det.tick(t + FAR));
          const rebuilt = out.flatMap((o) => (o.type === 'typed' ? [o.key] : [...o.code, 'Enter']));
          expect(rebuilt).toEqual(steps.map((s) => s.key).filter((k) => k !== 'Shift'));
          for (const o of out) if (o.type === 'scan') expect([...o.code].length).toBeGreaterThanOrEqual(MIN);
          expect(det.pending).toBe(0);
          expect(det.errors).toBe(0);
        },
      ),
    );
  });
});
