/** Wall-clock source. Passed in everywhere so tests can move time and domain code stays pure. */
export type Clock = { now(): number };

/** Waits `ms`, or less if `signal` aborts (resolves, never rejects, so callers just re-check state). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A source of uniform numbers in [0, 1), injected so jitter is reproducible in tests. */
export type Random = () => number;

/** A monotonic reading in ms (never steps; its origin is arbitrary and per process). */
export type Monotonic = () => number;

/** How far apart the wall and the monotonic clock may drift between two looks before it is a step. */
export const STEP_TOLERANCE_MS = 2_000;

/**
 * A step of the wall clock between two readings of both clocks: how far the wall moved beyond
 * (positive) or short of (negative) the monotonic time elapsed; null when within `toleranceMs`.
 */
export function clockStep(
  prev: { wall: number; mono: number },
  cur: { wall: number; mono: number },
  toleranceMs = STEP_TOLERANCE_MS,
): number | null {
  const drift = cur.wall - prev.wall - (cur.mono - prev.mono);
  return Math.abs(drift) > toleranceMs ? drift : null;
}
