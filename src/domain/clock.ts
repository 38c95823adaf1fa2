/** Wall-clock source. Passed in everywhere so tests can move time and domain code stays pure. */
export type Clock = { now(): number };

/** Waits `ms`, or less if `signal` aborts (resolves, never rejects, so callers just re-check state). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A source of uniform numbers in [0, 1), injected so jitter is reproducible in tests. */
export type Random = () => number;
