import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aimdLevels,
  aimdLimit,
  aimdPaced,
  aimdRateLimited,
  aimdRule,
  aimdShift,
  aimdStart,
  FLOOR,
  HOLD_PAUSES,
  type AimdRule,
  type AimdState,
  type RateLimitedAnswer,
} from '../../src/domain/rate/adaptive-rate.js';

const W = 1_000;
const rule60 = aimdRule(60, W);
const limitAt = (s: AimdState, at: number, r: AimdRule = rule60) => aimdLimit(s, r, at);
const refused = (s: AimdState, at: number, a: Partial<RateLimitedAnswer> = {}, r: AimdRule = rule60) =>
  aimdRateLimited(s, r, at, { admitted: 0, pauseMs: W, jitter: 0, ...a });

/** Three terminals' worth: halved at 0 (pause 1 s), measured at 1,200 with 20 through since the pause. */
function measured(jitter = 0): AimdState {
  const halved = refused(aimdStart(rule60), 0);
  return refused(halved, 1_200, { admitted: 20, jitter });
}

describe('adaptive limit: examples', () => {
  it('starts at the configured limit, unpaced', () => {
    const s = aimdStart(rule60);
    expect(limitAt(s, 0)).toBe(60);
    expect(aimdPaced(s, rule60, 0)).toBe(false);
  });

  it('the first 429 at the configured limit halves it and paces; the 429s of requests in flight then are the same signal', () => {
    const halved = refused(aimdStart(rule60), 0, { admitted: 50 });
    expect(limitAt(halved, 0)).toBe(30);
    expect(aimdPaced(halved, rule60, 0)).toBe(true);
    expect(refused(halved, 5, { admitted: 1 })).toBe(halved);
    expect(refused(halved, 999, { admitted: 1 })).toBe(halved);
  });

  it('a 429 while measuring sets the limit to what got through since the pause, never above the halved limit', () => {
    const halved = refused(aimdStart(rule60), 0);
    expect(limitAt(refused(halved, 1_200, { admitted: 20 }), 1_200)).toBe(20);
    expect(limitAt(refused(halved, 1_200, { admitted: 6 }), 1_200)).toBe(6);
    expect(limitAt(refused(halved, 1_200, { admitted: 45 }), 1_200)).toBe(30);
  });

  it('nothing got through while measuring: halve again and measure again', () => {
    const again = refused(refused(aimdStart(rule60), 0), 1_200, { admitted: 0 });
    expect(limitAt(again, 1_200)).toBe(15);
    expect(limitAt(refused(again, 2_400, { admitted: 7 }), 2_400)).toBe(7);
  });

  it('no 429 while measuring: earning back starts after the pause and a window, doubling (+1, +2, +4 at 60) up to the limit, unpaced again', () => {
    const halved = refused(aimdStart(rule60), 0);
    expect(limitAt(halved, 1_999)).toBe(30);
    expect([2_000, 3_000, 4_000, 5_000, 6_000].map((t) => limitAt(halved, t))).toEqual([31, 33, 37, 45, 60]);
    expect(aimdPaced(halved, rule60, 6_000)).toBe(false);
    // At the limit again, the next 429 halves it again.
    expect(limitAt(refused(halved, 6_000), 6_000)).toBe(30);
  });

  it(`after a measure the share holds for ${HOLD_PAUSES} pauses plus the jitter's share of that again, then earns back`, () => {
    const s = measured(0);
    const hold = HOLD_PAUSES * W;
    expect(limitAt(s, 1_200 + hold - 1)).toBe(20);
    expect(limitAt(s, 1_200 + hold)).toBe(21);
    expect(limitAt(s, 1_200 + hold + 2 * W)).toBe(27);
    const later = measured(0.5);
    expect(limitAt(later, 1_200 + 1.5 * hold - 1)).toBe(20);
    expect(limitAt(later, 1_200 + 1.5 * hold)).toBe(21);
    // A short pause holds for at least a window.
    const short = refused(refused(aimdStart(rule60), 0, { pauseMs: 10 }), 1_005, { admitted: 20, pauseMs: 10 });
    expect(limitAt(short, 1_005 + W - 1)).toBe(20);
    expect(limitAt(short, 1_005 + W)).toBe(21);
  });

  it(`a 429 while holding takes the limit to what got through in the last window, but keeps at least ${FLOOR} of it`, () => {
    const s = measured();
    expect(limitAt(refused(s, 5_000, { admitted: 19 }), 5_000)).toBe(19);
    expect(limitAt(refused(s, 5_000, { admitted: 3 }), 5_000)).toBe(16);
    expect(limitAt(refused(s, 5_000, { admitted: 25 }), 5_000)).toBe(20);
  });

  it('a failed probe goes back to the last level that held a whole window, and the next hold is twice as long', () => {
    const s = measured();
    const hold = HOLD_PAUSES * W;
    const probing = 1_200 + hold + W + 10; // 21 held a window, 23 fails
    expect(limitAt(s, probing)).toBe(23);
    const back = refused(s, probing, { admitted: 23 });
    expect(limitAt(back, probing)).toBe(21);
    expect(limitAt(back, probing + hold)).toBe(22);
    const again = refused(back, probing + hold + 10, { admitted: 22 });
    expect(limitAt(again, probing + hold + 10 + 2 * hold - 1)).toBe(21);
    expect(limitAt(again, probing + hold + 10 + 2 * hold)).toBe(22);
  });

  it('small limits: never below one', () => {
    const r = aimdRule(2, W);
    let s = aimdStart(r);
    for (let i = 0; i < 6; i++) s = refused(s, i * 2 * W, {}, r);
    expect(limitAt(s, 12 * W, r)).toBe(1);
  });

  it('a step of the wall clock moves the cut with it', () => {
    const halved = refused(aimdStart(rule60), 0);
    const back = aimdShift(halved, -3_600_000);
    // Half a window after the cut on the stepped clock: still the requests in flight at the cut.
    expect(refused(back, -3_600_000 + 500, { admitted: 3 })).toBe(back);
    expect(limitAt(back, -3_600_000 + 500)).toBe(30);
  });
});

/** 429s (or mere looks) at non-decreasing times. */
const events = fc.array(
  fc.record({
    gap: fc.integer({ min: 0, max: 5 * W }),
    limited: fc.boolean(),
    admitted: fc.integer({ min: 0, max: 200 }),
    pauseMs: fc.integer({ min: 0, max: 3 * W }),
    jitter: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  }),
  { maxLength: 120 },
);
const ceilings = fc.integer({ min: 1, max: 10_000 });

type Seen = { at: number; before: AimdState; after: AimdState; limited: boolean };

function run(
  rule: AimdRule,
  xs: readonly { gap: number; limited: boolean; admitted: number; pauseMs: number; jitter: number }[],
): Seen[] {
  let s = aimdStart(rule);
  let t = 0;
  const out: Seen[] = [];
  for (const x of xs) {
    t += x.gap;
    const before = s;
    if (x.limited) s = aimdRateLimited(s, rule, t, x);
    out.push({ at: t, before, after: s, limited: x.limited });
  }
  return out;
}

describe('adaptive limit: properties', () => {
  it('never below one, never above the configured limit', () => {
    fc.assert(
      fc.property(ceilings, events, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        for (const e of run(r, xs)) {
          for (const at of [e.at, e.at + W / 2, e.at + 100 * W]) {
            expect(aimdLimit(e.after, r, at)).toBeGreaterThanOrEqual(1);
            expect(aimdLimit(e.after, r, at)).toBeLessThanOrEqual(ceiling);
          }
        }
      }),
    );
  });

  it('a 429 never raises the limit, and time alone never lowers it', () => {
    fc.assert(
      fc.property(ceilings, events, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        for (const e of run(r, xs)) {
          expect(aimdLimit(e.after, r, e.at)).toBeLessThanOrEqual(aimdLimit(e.before, r, e.at));
          expect(aimdLimit(e.after, r, e.at + 7 * W)).toBeGreaterThanOrEqual(aimdLimit(e.after, r, e.at + 3 * W));
        }
      }),
    );
  });

  it(`below the limit and not measuring, one 429 keeps at least ${FLOOR} of the level that held a window`, () => {
    fc.assert(
      fc.property(ceilings, events, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        for (const e of run(r, xs)) {
          if (!e.limited || e.after === e.before || e.before.measuring || e.before.cutAt === null) continue;
          const { level, held } = aimdLevels(e.before, r, e.at);
          if (level >= ceiling) continue;
          expect(aimdLevels(e.after, r, e.at).level).toBeGreaterThanOrEqual(Math.max(1, FLOOR * held) - 1e-9);
        }
      }),
    );
  });

  it(`after a cut the limit holds at least ${HOLD_PAUSES} pauses (and a window) before earning back`, () => {
    fc.assert(
      fc.property(ceilings, events, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        for (const e of run(r, xs)) {
          if (e.after === e.before || e.after.measuring) continue;
          const hold = Math.max(W, HOLD_PAUSES * e.after.pauseMs);
          expect(aimdLimit(e.after, r, e.at + hold - 1)).toBe(aimdLimit(e.after, r, e.at));
        }
      }),
    );
  });

  it('without a 429 for long enough after the last one, back at the configured limit and unpaced', () => {
    fc.assert(
      fc.property(ceilings, events, (ceiling, xs) => {
        const r = aimdRule(ceiling, W);
        const seen = run(r, xs);
        const last = seen.length ? (seen[seen.length - 1] as Seen) : null;
        const s = last?.after ?? aimdStart(r);
        const at = (s.cutAt ?? 0) + s.holdMs + 20 * W;
        expect(aimdLimit(s, r, at)).toBe(ceiling);
        expect(aimdPaced(s, r, at)).toBe(false);
      }),
    );
  });
});
