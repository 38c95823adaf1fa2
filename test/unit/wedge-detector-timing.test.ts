/**
 * The keyboard-wedge detector (src/input/wedge-detector.ts) at its limits: gaps and lengths right
 * at and past the bounds, tick releasing held keys after holdMs, and garbage bursts dropped,
 * counted and recovered from.
 */
import { describe, expect, it } from 'vitest';
import { WedgeDetector, type WedgeOutput } from '../../src/input/wedge-detector.js';
import { burst, FAR, feed, GAP, HOLD, lastAt, MAX, MIN, scans, T0, typed, type Press } from '../helpers/wedge-keys.js';

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

  it.each([0, 3, 7])(
    'one slow gap (before key %i; 0 = before Enter) splits the run: no scan of the whole',
    (slowBefore) => {
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
    },
  );

  it(`a terminator maxInterKeyMs after the last key completes the scan; one ms later it is typed`, () => {
    const onTime = burst('12345678', T0, 8, null);
    const det1 = new WedgeDetector();
    feed(det1, onTime);
    expect(det1.key('Enter', lastAt(onTime) + GAP)).toEqual([
      { type: 'scan', code: '12345678', at: lastAt(onTime) + GAP },
    ]);

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
    expect(feed(det, burst('ABCD', lastAt(junk) + GAP + 1, 5))).toEqual([
      { type: 'scan', code: 'ABCD', at: lastAt(junk) + GAP + 21 },
    ]);
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
    expect(det.key('Enter', lastAt(junk) + GAP + 1)).toEqual([
      { type: 'typed', key: 'Enter', at: lastAt(junk) + GAP + 1 },
    ]);
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
