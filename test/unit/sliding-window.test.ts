import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  maxInAnyWindow,
  msUntilFreeSlot,
  punchReserve,
  type Slot,
  type WindowRule,
} from '../../src/domain/rate/sliding-window.js';

const rule: WindowRule = { limit: 2, windowMs: 1_000 };
const inFlight = (takenAt: number): Slot => ({ takenAt, releasedAt: null });
const released = (takenAt: number, releasedAt: number): Slot => ({ takenAt, releasedAt });

describe('msUntilFreeSlot', () => {
  it('is 0 when a slot is free', () => {
    expect(msUntilFreeSlot([], 0, rule)).toBe(0);
    expect(msUntilFreeSlot([inFlight(0)], 10, rule)).toBe(0);
  });

  it('is null when every slot is held by a request still in flight', () => {
    expect(msUntilFreeSlot([inFlight(0), inFlight(5)], 10_000_000, rule)).toBeNull();
  });

  it('waits until one window after the earliest response', () => {
    expect(msUntilFreeSlot([released(0, 100), released(50, 300)], 500, rule)).toBe(600);
    // an in-flight slot does not expire, so the released one decides
    expect(msUntilFreeSlot([inFlight(0), released(10, 200)], 500, rule)).toBe(700);
  });

  it('when the limit was lowered below what is held, waits for enough slots to expire', () => {
    const slots = [released(0, 100), released(0, 200), released(0, 300)];
    expect(msUntilFreeSlot(slots, 400, { limit: 1, windowMs: 1_000 })).toBe(900);
    expect(msUntilFreeSlot([...slots, inFlight(0)], 400, { limit: 2, windowMs: 1_000 })).toBe(900);
    expect(
      msUntilFreeSlot([inFlight(0), inFlight(0), released(0, 300)], 400, { limit: 1, windowMs: 1_000 }),
    ).toBeNull();
  });

  it('does not count slots released a full window ago or longer', () => {
    expect(msUntilFreeSlot([released(0, 0), released(0, 0)], 1_000, rule)).toBe(0);
    expect(msUntilFreeSlot([released(0, 0), released(0, 0)], 999, rule)).toBe(1);
    expect(msUntilFreeSlot([released(0, 0), released(0, 5), inFlight(6)], 100_000, rule)).toBe(0);
  });
});

describe('maxInAnyWindow', () => {
  it('counts the busiest window', () => {
    expect(maxInAnyWindow([], 1_000)).toBe(0);
    expect(maxInAnyWindow([42], 1_000)).toBe(1);
    expect(maxInAnyWindow([7, 7, 7], 1_000)).toBe(3);
    expect(maxInAnyWindow([0, 999], 1_000)).toBe(2);
    expect(maxInAnyWindow([0, 100, 200, 5_000, 5_001], 1_000)).toBe(3);
  });

  it('treats arrivals exactly windowMs apart as separate windows', () => {
    expect(maxInAnyWindow([0, 1_000], 1_000)).toBe(1);
    expect(maxInAnyWindow([0, 1_000, 2_000, 3_000], 1_000)).toBe(1);
    expect(maxInAnyWindow([0, 500, 1_000, 1_500], 1_000)).toBe(2);
  });

  it('does not need sorted input', () => {
    expect(maxInAnyWindow([2_000, 0, 1_500, 500], 1_000)).toBe(2);
    expect(maxInAnyWindow([900, 10, 5_000, 100], 1_000)).toBe(3);
  });
});

/**
 * A client that only sends when msUntilFreeSlot says 0 never lets the server (which counts
 * arrival times, somewhere between send and response) see more than `limit` in any window.
 */
describe('property: a client obeying msUntilFreeSlot never exceeds the server window', () => {
  type Step = { eager: boolean; gap: number; latency: number; arrival: number };
  const step = (windowMs: number): fc.Arbitrary<Step> =>
    fc.record({
      // eager: send at the exact moment msUntilFreeSlot says a slot frees (hits the boundaries)
      eager: fc.boolean(),
      gap: fc.integer({ min: 0, max: windowMs }),
      latency: fc.integer({ min: 0, max: 3 * windowMs }),
      arrival: fc.double({ min: 0, max: 1, noNaN: true }),
    });

  it('holds for random send times, latencies and arrival points', () => {
    const scenario = fc
      .record({ limit: fc.integer({ min: 1, max: 6 }), windowMs: fc.integer({ min: 1, max: 2_000 }) })
      .chain((r) =>
        fc.record({ rule: fc.constant(r), steps: fc.array(step(r.windowMs), { minLength: 1, maxLength: 80 }) }),
      );

    fc.assert(
      fc.property(scenario, ({ rule: r, steps }) => {
        const slots: Slot[] = [];
        const pending: { slot: Slot; responseAt: number }[] = [];
        const arrivals: number[] = [];
        let now = 0;
        const deliverResponses = (): void => {
          for (let i = pending.length - 1; i >= 0; i--) {
            const p = pending[i] as { slot: Slot; responseAt: number };
            if (p.responseAt <= now) {
              p.slot.releasedAt = p.responseAt;
              pending.splice(i, 1);
            }
          }
        };
        for (const s of steps) {
          now += s.gap;
          deliverResponses();
          if (s.eager) {
            // wait exactly as long as told, or for the next response when all are in flight
            for (let guard = 0; guard < 100; guard++) {
              const wait = msUntilFreeSlot(slots, now, r);
              if (wait === 0) break;
              if (wait === null) {
                const next = Math.min(...pending.map((p) => p.responseAt));
                expect(Number.isFinite(next)).toBe(true);
                now = Math.max(now, next);
              } else now += wait;
              deliverResponses();
            }
          }
          if (msUntilFreeSlot(slots, now, r) !== 0) continue;
          const slot: Slot = { takenAt: now, releasedAt: null };
          slots.push(slot);
          pending.push({ slot, responseAt: now + s.latency });
          arrivals.push(now + s.arrival * s.latency);
          deliverResponses();
        }
        expect(maxInAnyWindow(arrivals, r.windowMs)).toBeLessThanOrEqual(r.limit);
      }),
      { numRuns: 300 },
    );
  });
});

describe('punchReserve', () => {
  it("keeps a tenth of the account's 60 for punches, at least one slot, never the whole window", () => {
    expect(punchReserve(60, 0.1)).toBe(6);
    expect(punchReserve(6, 0.1)).toBe(1);
    expect(punchReserve(2, 0.5)).toBe(1);
    expect(punchReserve(1, 0.5)).toBe(0);
    expect(punchReserve(60, 0)).toBe(0);
    expect(punchReserve(Number.POSITIVE_INFINITY, 0.1)).toBe(0);
  });

  it('always leaves roster traffic at least one slot and punches the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 0.5, noNaN: true }), (limit, share) => {
        const r = punchReserve(limit, share);
        expect(Number.isInteger(r)).toBe(true);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(limit - r).toBeGreaterThanOrEqual(1);
        if (share > 0 && limit > 1) expect(r).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});
