/**
 * A check with the service for a setting typed on the admin screen (a token, a site): one request
 * on a slot of the shared budget, so a manager's clicks never push the account over its limit.
 */
import type { ApiOutcome } from '../../api/client.js';
import type { Clock } from '../../domain/time/clock.js';
import { rateLimitPause } from '../../domain/rate/retry-policy.js';
import { Priority, type RateBudget } from '../../sync/window/rate-budget.js';

/** How long a check with the service may wait for a slot of the budget before the setting is kept unchecked. */
export const CHECK_WAIT_MS = 10_000;

export type CheckDeps = { budget: RateBudget; clock: Clock; stopSignal: AbortSignal };

/**
 * One request on a slot of the shared budget, for a check; null when no slot came within
 * CHECK_WAIT_MS (or the agent stopped). `duringAuthPause`: the check of a new token may go while
 * sending is paused for the refused one. `windowMs`: the budget's window in force when a 429 comes
 * without a usable Retry-After.
 */
export async function checkOnSlot<T>(
  d: CheckDeps,
  windowMs: () => number,
  purpose: string,
  fn: () => Promise<ApiOutcome<T>>,
  duringAuthPause: boolean,
): Promise<ApiOutcome<T> | null> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), CHECK_WAIT_MS);
  const onStop = () => ctl.abort();
  d.stopSignal.addEventListener('abort', onStop, { once: true });
  try {
    const ticket = await d.budget.acquire(Priority.punch, purpose, { signal: ctl.signal, duringAuthPause });
    if (!ticket) return null;
    let res: ApiOutcome<T> | undefined;
    try {
      res = await fn();
      return res;
    } finally {
      d.budget.release(ticket);
      if (res?.kind === 'rate_limited') {
        const at = d.clock.now();
        d.budget.pauseUntil(at + rateLimitPause(res.retryAfterHeader, at, windowMs(), res.serverDate), 'retry_after');
      }
    }
  } finally {
    clearTimeout(timer);
    d.stopSignal.removeEventListener('abort', onStop);
  }
}
