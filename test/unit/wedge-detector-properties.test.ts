/**
 * Properties of the keyboard-wedge detector (src/input/wedge-detector.ts), checked with fast-check:
 * human-paced keys are all typed, any reader-paced code is one scan, and no key is ever lost,
 * duplicated or reordered.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WedgeDetector, type WedgeOptions, type WedgeOutput } from '../../src/input/wedge-detector.js';
import { FAR, feed, GAP, MAX, MIN, scans, T0 } from '../helpers/wedge-keys.js';

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
        fc.array(fc.record({ key: personKey, gap: fc.integer({ min: GAP + 1, max: 2_000 }) }), {
          minLength: 1,
          maxLength: 120,
        }),
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
        fc.array(fc.record({ key: printable, gap: fc.integer({ min: 1, max: GAP }) }), {
          minLength: MIN,
          maxLength: MAX,
        }),
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
            key: fc.oneof(
              { weight: 6, arbitrary: printable },
              { weight: 2, arbitrary: fc.constantFrom('Enter', 'Shift', 'Backspace') },
            ),
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
