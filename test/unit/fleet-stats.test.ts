/**
 * The fleet bench's figures (test/bench/fleet-stats.ts): what a perfect limiter gets, and the longest wait with punches
 * queued.
 */
import { describe, expect, it } from 'vitest';
import { drainRate, idealSends, idealWindows, longestWait } from '../bench/fleet-stats.js';
import type { Tapped } from '../bench/terminal-tap.js';

const rule = { limit: 2, windowMs: 1_000 };
const post = (sentAt: number, answeredAt: number, status = 201): Tapped => ({
  sentAt,
  answeredAt,
  method: 'POST',
  path: '/v2.1/times',
  status,
});

describe('fleet bench figures', () => {
  it('a perfect limiter sends each punch at its arrival or when the request `limit` before it leaves the window', () => {
    // Four at once at 2 a window: 0, 0, 1000, 1000: from the first arrival to the last send, the last window whole.
    expect(idealWindows([0, 0, 0, 0], rule)).toBe(2);
    // Arrivals slower than the limit: the span of the arrivals.
    expect(idealWindows([0, 1_000, 2_000], rule)).toBe(3);
    // Requests already in the window at the first punch (a roster sync) push it back.
    expect(idealWindows([0, 0], rule, [-500, -400])).toBe(1.6);
  });

  it("a perfect limiter serves punches oldest first: each one's send time, by its index in the arrivals", () => {
    // Given out of order: index 2 came first; at 2 a window the fourth to arrive goes one window after the second.
    expect([...idealSends([100, 200, 0, 300], rule)].sort((x, y) => x[0] - y[0])).toEqual([
      [0, 100],
      [1, 1_000],
      [2, 0],
      [3, 1_100],
    ]);
    expect([...idealSends([0], rule, [-500, -400]).values()]).toEqual([500]);
  });

  it('longest wait: punches captured and undelivered while nothing was sent; a request in flight is not waiting for a slot, its answer is', () => {
    // Captured at 0, sent at 300 (answered 310); captured at 400, sent at 1400 (answered 1410).
    expect(longestWait([0, 400], [post(300, 310), post(1_400, 1_410)], 2_000)).toBe(1_000);
    // A 429 delivers nothing: the wait runs from the refused send to the next one.
    expect(longestWait([0], [post(10, 20, 429), post(1_010, 1_020)], 2_000)).toBe(1_000);
    // Still waiting at the end of the run.
    expect(longestWait([0], [], 700)).toBe(700);
  });

  it('drain rate: the window over the median time for `limit` admitted arrivals to come back', () => {
    expect(drainRate([0, 0, 1_000, 1_000, 2_000, 2_000], rule)).toBe(1);
    expect(drainRate([0, 0, 1_250, 1_250, 2_500, 2_500], rule)).toBe(0.8);
    expect(drainRate([0, 0], rule)).toBeNull();
  });
});
