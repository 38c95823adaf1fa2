import type { Random } from './clock.js';

export type BackoffOptions = { baseMs: number; maxMs: number };

/**
 * Delay before attempt number `attempt` (1 = first retry): exponential, capped, with "equal
 * jitter" (half fixed, half random) so a fleet of terminals coming back online does not retry in
 * lock-step, yet no retry comes sooner than half the nominal delay.
 */
export function backoffDelay(attempt: number, opts: BackoffOptions, random: Random): number {
  const exp = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * `Retry-After` in either form the HTTP spec allows: delta-seconds or an HTTP-date. Returns the
 * wait in ms from `now`, or null when the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return null; // a bare number with sign or decimals is not a valid form
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
