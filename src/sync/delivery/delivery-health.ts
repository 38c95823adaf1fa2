import type { ApiOutcome } from '../../api/classify.js';
import type { Random } from '../../domain/time/clock.js';
import { Backoff, rateLimitPause, type BackoffOptions } from '../../domain/rate/retry-policy.js';
import type { Logger } from '../../log.js';
import type { RateBudget } from '../window/rate-budget.js';
import type { UploaderEvent } from './uploader-types.js';

/** What delivery's health is built from (the uploader's parts). */
export type DeliveryHealthDeps = {
  budget: RateBudget;
  opts: { backoff: BackoffOptions; windowMs: number; authRetryMs: number };
  random: Random;
  log: Logger;
  onEvent: (e: UploaderEvent) => void;
};

/**
 * What every answer of delivery (sends, probes, reconciliation checks) says about the road to the
 * service, kept in one place: the failures in a row and the back-off the whole queue waits out,
 * whether to go one request at a time, a 429's or a refused token's pause, a set-up problem.
 */
export class DeliveryHealth {
  /** The whole queue waits until then after a failure. */
  blockedUntil = 0;
  /** The wall reading `blockedUntil` was computed from (a step moves only one read before it). */
  private blockedSetAt = 0;
  /** Set by an answer that did not go through: one request at a time until one does. */
  cautious = false;
  private readonly backoff: Backoff;

  private readonly budget: RateBudget;
  private readonly opts: { backoff: BackoffOptions; windowMs: number; authRetryMs: number };
  private readonly log: Logger;
  private readonly onEvent: (e: UploaderEvent) => void;

  constructor(d: DeliveryHealthDeps) {
    const { opts, random } = d;
    this.budget = d.budget;
    this.opts = opts;
    this.log = d.log;
    this.onEvent = d.onEvent;
    this.backoff = new Backoff(opts.backoff, random);
  }

  /** Used for a 429 without a usable Retry-After. */
  setWindowMs(ms: number): void {
    this.opts.windowMs = ms;
  }

  /**
   * The service answers again: the queue's back-off ends now; the next request still goes alone until one gets through.
   */
  resume(now: number): void {
    if (this.blockedUntil > now) this.blockedUntil = now;
    this.backoff.reset();
  }

  /** The wall clock stepped by `ms`; a back-off computed after `before` is on the new clock already. */
  clockStepped(ms: number, before = Number.MAX_SAFE_INTEGER): void {
    if (this.blockedUntil > 0 && this.blockedSetAt <= before) this.blockedUntil += ms;
  }

  /** Every answer: the server's clock, the failure count and back-off, a set-up problem or its end. */
  noteAnswer(res: ApiOutcome<unknown>, sentAt: number, now: number): void {
    if ('serverDate' in res && res.serverDate !== null)
      this.onEvent({ type: 'server_date', serverDate: res.serverDate, sentAt, receivedAt: now });
    this.cautious = res.kind !== 'ok' && res.kind !== 'refused' && res.kind !== 'forbidden';
    if (res.kind === 'not_sent' || res.kind === 'server_error' || res.kind === 'unknown' || res.kind === 'setup') {
      this.blockedUntil = now + this.backoff.fail();
      this.blockedSetAt = now;
      const error = res.kind === 'setup' ? res.reason : res.error;
      this.onEvent({
        type: 'failed',
        failures: this.backoff.failures,
        error,
        reachable: res.kind === 'server_error' || res.kind === 'setup',
      });
      if (res.kind === 'setup') this.onEvent({ type: 'setup', reason: res.reason, location: res.location });
      return;
    }
    if (res.kind !== 'rate_limited') this.onEvent({ type: 'answered' });
    this.backoff.reset();
  }

  rateLimited(res: { retryAfterHeader: string | null; serverDate: number | null }, now: number): void {
    const wait = rateLimitPause(res.retryAfterHeader, now, this.opts.windowMs, res.serverDate);
    this.log.warn('429 from the service; pausing all requests', { waitMs: wait });
    this.budget.pauseUntil(now + wait, 'retry_after');
  }

  authRefused(reason: string, now: number): void {
    this.log.error('the service refused the API token; sending paused, capture goes on', { reason });
    this.budget.pauseUntil(now + this.opts.authRetryMs, 'auth');
    this.onEvent({ type: 'auth_refused', reason });
  }
}
