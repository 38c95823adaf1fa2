import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aimdLimit, aimdNext, aimdRule, aimdShift, aimdStart, type AimdRule, type AimdState } from '../../src/domain/adaptive-rate.js';

const W = 1_000;
const rule60 = aimdRule(60, W);

type Answer = { at: number; limited: boolean; jitter?: number };

/** Feeds answers (429 or not) and returns every state, the start first. */
function run(rule: AimdRule, events: readonly Answer[], start = 0): AimdState[] {
  const states = [aimdStart(rule, start)];
  for (const e of events) states.push(aimdNext(states[states.length - 1] as AimdState, rule, e.at, e.limited, e.jitter ?? 0));
  return states;
}

describe('AIMD limit: examples', () => {
  it('starts at the configured limit; earning back is 1/60 of it per window (+1 at 60)', () => {
    expect(aimdLimit(aimdStart(rule60, 0))).toBe(60);
    expect(rule60.increasePerWindow).toBe(1);
    expect(aimdRule(10, W).increasePerWindow).toBeCloseTo(1 / 6);
  });

  it('a 429 halves the limit; a burst of 429s inside one window is one cut', () => {
    const [, first, burst, later] = run(rule60, [
      { at: 100, limited: true },
      { at: 150, limited: true },
      { at: 1_099, limited: true },
    ]);
    expect(aimdLimit(first as AimdState)).toBe(30);
    expect(aimdLimit(burst as AimdState)).toBe(30);
    expect(aimdLimit(later as AimdState)).toBe(30);
    // One window after the cut, a 429 cuts again.
    expect(aimdLimit(aimdNext(later as AimdState, rule60, 1_100, true))).toBe(15);
  });

  it('earns back one request per window without a 429, up to the configured limit', () => {
    const cut = aimdNext(aimdStart(rule60, 0), rule60, 0, true);
    expect(aimdLimit(aimdNext(cut, rule60, 999, false))).toBe(30);
    expect(aimdLimit(aimdNext(cut, rule60, 1_000, false))).toBe(31);
    expect(aimdLimit(aimdNext(cut, rule60, 10_500, false))).toBe(40);
    expect(aimdLimit(aimdNext(cut, rule60, 10 * 60 * W, false))).toBe(60);
  });

  it('a 429 that makes no cut (same window) still starts the calm stretch again', () => {
    const cut = aimdNext(aimdStart(rule60, 0), rule60, 0, true);
    const straggler = aimdNext(cut, rule60, 900, true);
    expect(aimdLimit(aimdNext(straggler, rule60, 1_500, false))).toBe(30);
    expect(aimdLimit(aimdNext(straggler, rule60, 1_900, false))).toBe(31);
  });

  it('small limits: never below 1, and a fractional step adds up (the limit in force is the nearest whole one)', () => {
    const r = aimdRule(2, W);
    let s = aimdStart(r, 0);
    for (let i = 0; i < 5; i++) s = aimdNext(s, r, i * W, true);
    expect(aimdLimit(s)).toBe(1);
    // 1/30 per window: half a request more after 15 calm windows.
    expect(aimdLimit(aimdNext(s, r, 4 * W + 14 * W, false))).toBe(1);
    expect(aimdLimit(aimdNext(s, r, 4 * W + 15 * W, false))).toBe(2);
  });

  it('jitter: after a cut, earning back starts up to a window later', () => {
    const cut = aimdNext(aimdStart(rule60, 0), rule60, 0, true, 0.5);
    expect(cut.calmSince).toBe(500);
    expect(aimdLimit(aimdNext(cut, rule60, 1_499, false))).toBe(30);
    expect(aimdLimit(aimdNext(cut, rule60, 1_500, false))).toBe(31);
    // A straggler of the same burst does not pull the start back.
    expect(aimdNext(cut, rule60, 100, true, 0.9).calmSince).toBe(500);
  });

  it('a step of the wall clock moves the cut and the calm stretch with it', () => {
    const cut = aimdNext(aimdStart(rule60, 0), rule60, 0, true);
    const back = aimdShift(cut, -3_600_000);
    // Half a window after the cut, on the stepped clock: no second cut, nothing earned.
    const again = aimdNext(back, rule60, -3_600_000 + 500, true);
    expect(aimdLimit(again)).toBe(30);
  });
});

/** Answers at non-decreasing times, some 429. */
const answers = fc.array(fc.record({ gap: fc.integer({ min: 0, max: 3 * W }), limited: fc.boolean(), jitter: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) }), {
  maxLength: 200,
});
const ceilings = fc.integer({ min: 1, max: 10_000 });

function timed(xs: readonly { gap: number; limited: boolean; jitter: number }[]): Answer[] {
  let t = 0;
  return xs.map((x) => ({ at: (t += x.gap), limited: x.limited, jitter: x.jitter }));
}

describe('AIMD limit: properties', () => {
  it('never below 1, never above the configured limit', () => {
    fc.assert(
      fc.property(ceilings, answers, (ceiling, xs) => {
        for (const s of run(aimdRule(ceiling, W), timed(xs))) {
          expect(aimdLimit(s)).toBeGreaterThanOrEqual(1);
          expect(aimdLimit(s)).toBeLessThanOrEqual(ceiling);
          expect(s.limit).toBeLessThanOrEqual(ceiling);
        }
      }),
    );
  });

  it('at most one cut per window, and no answer takes more than one halving', () => {
    fc.assert(
      fc.property(ceilings, answers, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        const states = run(r, timed(xs));
        const cuts: number[] = [];
        for (let i = 1; i < states.length; i++) {
          const prev = states[i - 1] as AimdState;
          const cur = states[i] as AimdState;
          if (cur.lastCutAt !== prev.lastCutAt) cuts.push(cur.lastCutAt as number);
          // Between two looks the limit falls by at most one halving.
          expect(cur.limit).toBeGreaterThanOrEqual(Math.max(1, prev.limit * r.decrease) - 1e-9);
        }
        for (let i = 1; i < cuts.length; i++) expect((cuts[i] as number) - (cuts[i - 1] as number)).toBeGreaterThanOrEqual(W);
      }),
    );
  });

  it('no 429 ever: the limit stays where it was, and without 429s for long it is back to the full limit', () => {
    fc.assert(
      fc.property(ceilings, answers, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        const calm = run(r, timed(xs).map((x) => ({ ...x, limited: false })));
        for (const s of calm) expect(aimdLimit(s)).toBe(ceiling);
        const states = run(r, timed(xs));
        const last = states[states.length - 1] as AimdState;
        const muchLater = aimdNext(last, r, last.calmSince + 60 * W, false);
        expect(aimdLimit(muchLater)).toBe(ceiling);
      }),
    );
  });

  it('each window without a 429 earns back exactly the step (until the limit)', () => {
    fc.assert(
      fc.property(ceilings, fc.integer({ min: 0, max: 59 }), (ceiling, windows) => {
        const r = aimdRule(ceiling, W);
        const cut = aimdNext(aimdStart(r, 0), r, 0, true);
        const later = aimdNext(cut, r, windows * W + W / 2, false);
        expect(later.limit).toBeCloseTo(Math.min(ceiling, cut.limit + windows * r.increasePerWindow));
      }),
    );
  });
});
