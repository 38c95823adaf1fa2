import type { Random } from '../time/clock.js';

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
 * The one back-off of every retrying loop (uploader, reconciliation, roster sync, probes): each
 * failure in a row lengthens the next wait (`backoffDelay`), a success starts again from the base.
 */
export class Backoff {
  private count = 0;

  constructor(
    private readonly opts: BackoffOptions,
    private readonly random: Random,
  ) {}

  /** Failures in a row so far. */
  get failures(): number {
    return this.count;
  }

  /** One more failure: how long to wait before the next try. */
  fail(): number {
    this.count++;
    return backoffDelay(this.count, this.opts, this.random);
  }

  reset(): void {
    this.count = 0;
  }
}

// The three date forms HTTP allows (RFC 9110 §5.6.7): IMF-fixdate, obsolete RFC 850, asctime.
// Anything else is refused: Date.parse reads "wait 2099" as the year 2099.
const HTTP_DATE = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * `Retry-After` in either form the HTTP spec allows: delta-seconds or an HTTP-date. Returns the
 * wait in ms from `now` (an HTTP-date is measured against `now` on the same clock as the date: the
 * answer's own `Date` header, so a terminal's wrong clock does not stretch the wait), or null when
 * the header is absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value === null || value === undefined) return null;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  if (!HTTP_DATE.some((re) => re.test(v))) return null;
  const at = Date.parse(v.includes('GMT') ? v : `${v} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** Longest pause a server's Retry-After may impose: past it we look again rather than go silent for days. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** How long to pause after a 429: the server's word (capped), else one full window. */
export function rateLimitPause(
  header: string | null | undefined,
  now: number,
  windowMs: number,
  serverDate: number | null = null,
): number {
  return Math.min(parseRetryAfter(header, serverDate ?? now) ?? windowMs, Math.max(MAX_RETRY_AFTER_MS, windowMs));
}
