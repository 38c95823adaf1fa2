import type { Clock } from '../domain/time/clock.js';
import type { WindowRule } from '../domain/rate/sliding-window.js';

export type Admission = { ok: true } | { ok: false; retryAt: number };

/**
 * A TRUE sliding window per key (token), as the spec describes: a request is admitted when fewer
 * than `limit` admitted arrivals of that key lie in (now - windowMs, now]. Only admitted requests
 * are remembered; refused (429) requests do not count, so a client that backs off is never
 * punished for the refusals themselves. There are no fixed buckets: capacity comes back one
 * arrival at a time, exactly `windowMs` after each admitted arrival.
 */
export class RateWindow {
  private readonly arrivals = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private rule: WindowRule,
  ) {}

  setRule(rule: WindowRule): void {
    this.rule = { ...rule };
  }

  getRule(): WindowRule {
    return { ...this.rule };
  }

  /** Admits (and records) an arrival at `at` (default: now), or says when room will next exist. */
  admit(key: string, at: number = this.clock.now()): Admission {
    const { limit, windowMs } = this.rule;
    // Prune what has left the window; the arrays stay at most `limit` long.
    const live = (this.arrivals.get(key) ?? []).filter((t) => t > at - windowMs);
    if (live.length < limit) {
      live.push(at);
      this.arrivals.set(key, live);
      return { ok: true };
    }
    this.arrivals.set(key, live);
    // Room appears when enough of the oldest arrivals have left: normally just the oldest one, more
    // if the limit was lowered while the window was full.
    const sorted = [...live].sort((a, b) => a - b);
    const leaving = sorted[live.length - limit] as number;
    return { ok: false, retryAt: leaving + windowMs };
  }
}
