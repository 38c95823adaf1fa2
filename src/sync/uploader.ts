import type { ApiOutcome } from '../api/client.js';
import type { EmployeeRef, TimesResponse } from '../api/shapes.js';
import type { Clock, Random, Sleep } from '../domain/clock.js';
import { Backoff, rateLimitPause, type BackoffOptions } from '../domain/retry-policy.js';
import type { Logger } from '../log.js';
import type { Outbox, PunchRow } from '../store/outbox.js';
import { Priority, type RateBudget } from './rate-budget.js';

/** The two calls the uploader needs; ApiClient provides them. */
export type TimesApi = {
  postTime(ref: EmployeeRef, localDate: string, localTime: string): Promise<ApiOutcome<{ remoteId: string | null }>>;
  getTimes(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesResponse>>;
};

export type UploaderOptions = {
  backoff: BackoffOptions;
  /** Wait after an unknown outcome before asking the server, so a slow server has finished. */
  inDoubtGraceMs: number;
  /** After a refused token, try again this much later (a restart with a fixed token resumes at once). */
  authRetryMs: number;
  /** Used when a 429 carries no usable Retry-After. */
  windowMs: number;
  /** Requests out at once, each on its own slot: keeps a window's slots busy when latency is high. */
  maxInFlight: number;
};

export type UploaderEvent =
  | { type: 'sent'; punchId: number }
  | { type: 'rejected'; punchId: number; reason: string }
  | { type: 'auth_refused'; reason: string }
  | { type: 'error'; message: string }
  /** A request failed for a transient reason; `failures` counts them in a row. */
  | { type: 'failed'; failures: number; error: string; reachable: boolean }
  | { type: 'server_date'; serverDate: number; sentAt: number; receivedAt: number };

export function employeeRefOf(p: Pick<PunchRow, 'employee_external_id' | 'employee_key'>): EmployeeRef {
  return p.employee_external_id ? { kind: 'external_id', value: p.employee_external_id } : { kind: 'employee_id', value: p.employee_key };
}

/**
 * Delivers the outbox to `POST /times`, oldest due punch first, up to `maxInFlight` requests at
 * once, each on a slot of the shared budget. The row is never removed: only a 2xx or a reconciliation that finds
 * the record on the server turns it `sent`.
 */
export class Uploader {
  private running = false;
  private stopCtl = new AbortController();
  private wakeCtl = new AbortController();
  private loopDone: Promise<void> = Promise.resolve();
  /** Ids of punches with a request out now. */
  private readonly inFlight = new Set<number>();
  private readonly tasks = new Set<Promise<void>>();
  /** Connection-level trouble backs off the whole queue, not just one punch: one probe per delay. */
  private blockedUntil = 0;
  private readonly backoff: Backoff;
  /** A storage error may have left a row in 'sending' with nothing in flight. */
  private needsRecovery = false;
  /** Set by any failed or refused-for-rate request, cleared by an answer that went through. */
  private cautious = false;

  private readonly opts: UploaderOptions;

  constructor(
    private readonly outbox: Outbox,
    private readonly api: TimesApi,
    private readonly budget: RateBudget,
    private readonly clock: Clock,
    private readonly sleep: Sleep,
    private readonly random: Random,
    opts: UploaderOptions,
    private readonly log: Logger,
    private readonly onEvent: (e: UploaderEvent) => void = () => {},
  ) {
    this.opts = { ...opts };
    this.backoff = new Backoff(opts.backoff, random);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopCtl = new AbortController();
    this.loopDone = this.loop();
  }

  /** Stops taking new work and waits for the request in flight to settle. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.stopCtl.abort();
    this.wakeCtl.abort();
    await this.loopDone;
  }

  /** The budget's window changed (admin screen): used for a 429 without a usable Retry-After. */
  setWindowMs(ms: number): void {
    this.opts.windowMs = ms;
  }

  /**
   * A new API token: the pause for the refused one is over (a 429's pause is not: the service's
   * Retry-After still stands). Connection backoff is kept; due punches go out at once.
   */
  tokenChanged(): void {
    if (this.budget.pause()?.reason === 'auth') this.budget.resume();
    this.wake();
  }

  /** A punch was committed (or a rejected one retried): look now, not at the next timer. */
  wake(): void {
    this.wakeCtl.abort();
    this.budget.poke();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        const now = this.clock.now();
        if (this.needsRecovery && this.inFlight.size === 0) {
          // Nothing is in flight, so a row still in 'sending' is a leftover of a failed write.
          this.outbox.recoverInterrupted(now);
          this.needsRecovery = false;
        }
        // After a failure, one probe at a time until a request gets through again.
        if (this.inFlight.size >= (this.cautious ? 1 : this.opts.maxInFlight)) {
          await this.idle(60_000); // a finishing request wakes us
          continue;
        }
        if (!this.pick(now)) {
          const next = this.outbox.earliestDueAt();
          const wait = next === null || next <= now ? 60_000 : next - now; // due but in flight: woken when it lands
          await this.idle(wait);
          continue;
        }
        const pause = this.budget.pause();
        if (pause?.reason === 'auth') {
          await this.idle(pause.until - now);
          continue;
        }
        if (now < this.blockedUntil) {
          await this.idle(this.blockedUntil - now);
          continue;
        }
        const ticket = await this.budget.acquire(Priority.punch, 'punch', { signal: this.stopCtl.signal });
        if (!ticket) break;
        const item = this.pick(this.clock.now());
        if (!item) {
          this.budget.giveBack(ticket);
          continue;
        }
        this.inFlight.add(item.id);
        // send() marks the row 'sending' before its first await, so the next pick skips it.
        const work = item.state === 'in_doubt' ? this.reconcile(item) : this.send(item);
        let answeredAt: number | undefined;
        const task = work
          .then((at) => {
            answeredAt = at;
          })
          .catch((e: unknown) => this.onStorageError(e))
          .finally(() => {
            // The slot counts one window from the answer (the server saw the request before it),
            // or from now when a storage error came first: always on the safe side.
            this.budget.release(ticket, answeredAt);
            this.inFlight.delete(item.id);
            this.tasks.delete(task);
            this.wakeCtl.abort();
          });
        this.tasks.add(task);
      } catch (e) {
        this.onStorageError(e);
        await this.idle(this.opts.backoff.baseMs);
      }
    }
    await Promise.allSettled([...this.tasks]);
  }

  /** The oldest due punch that is not already in flight. */
  private pick(now: number): PunchRow | null {
    return this.outbox.dueBatch(now, this.inFlight.size + 1).find((p) => !this.inFlight.has(p.id)) ?? null;
  }

  /** A storage error (disk full) must not stop delivery for good: report it and go on. */
  private onStorageError(e: unknown): void {
    this.needsRecovery = true;
    const message = `uploader: ${(e as Error).message}`;
    this.log.error(message);
    this.onEvent({ type: 'error', message });
  }

  /** Sends one punch; resolves with the time its answer (or failure) arrived. */
  private async send(item: PunchRow): Promise<number> {
    const sentAt = this.clock.now();
    this.outbox.markSending(item.id, sentAt);
    const res = await this.api.postTime(employeeRefOf(item), item.local_date, item.local_time);
    const now = this.clock.now();
    this.noteServerDate(res, sentAt, now);
    this.countFailure(res, now);
    switch (res.kind) {
      case 'ok':
        this.outbox.markSent(item.id, now, res.value.remoteId, 'created');
        this.onEvent({ type: 'sent', punchId: item.id });
        return now;
      case 'rate_limited':
        this.onRateLimited(res.retryAfterHeader, now);
        this.outbox.markPending(item.id, now, now, '429 rate limited');
        return now;
      case 'not_sent':
      case 'server_error':
        this.outbox.markPending(item.id, now, this.blockedUntil, res.error, true);
        return now;
      case 'unknown':
        this.log.warn('punch outcome unknown; will check the server before any resend', { punchId: item.id, error: res.error });
        this.outbox.markInDoubt(item.id, now, now + this.opts.inDoubtGraceMs, res.error);
        return now;
      case 'refused':
        this.log.warn('punch rejected by the service', { punchId: item.id, reason: res.reason });
        this.outbox.markRejected(item.id, now, res.reason);
        this.onEvent({ type: 'rejected', punchId: item.id, reason: res.reason });
        return now;
      case 'auth':
        this.outbox.markPending(item.id, now, now, res.reason);
        this.onAuthRefused(res.reason, now);
        return now;
    }
  }

  /** Before anything is sent again: is the record already on the server? */
  private async reconcile(item: PunchRow): Promise<number> {
    const sentAt = this.clock.now();
    const res = await this.api.getTimes(employeeRefOf(item), item.local_date, item.local_date);
    const now = this.clock.now();
    this.noteServerDate(res, sentAt, now);
    this.countFailure(res, now);
    const retryAt = Math.max(this.blockedUntil, now + this.opts.backoff.baseMs);
    switch (res.kind) {
      case 'ok': {
        const wanted = `${item.local_date}T${item.local_time}`;
        const found = res.value.times.find((t) => t.time === wanted && (t.type === undefined || t.type === 'registro externo'));
        if (found) {
          this.outbox.markSent(item.id, now, found._id ?? null, 'reconciled');
          this.onEvent({ type: 'sent', punchId: item.id });
        } else {
          // Not there: it never arrived. Due now, so the send follows at once.
          this.outbox.markPending(item.id, now, now, 'not found on server after unknown outcome');
        }
        return now;
      }
      case 'rate_limited':
        this.onRateLimited(res.retryAfterHeader, now);
        return now;
      case 'refused':
        if (res.status === 404) {
          // The service no longer knows the employee: sending will tell us why, as a rejection.
          this.outbox.markPending(item.id, now, now, res.reason);
        } else {
          this.outbox.markInDoubt(item.id, now, retryAt, `reconciliation failed: ${res.reason}`);
        }
        return now;
      case 'auth':
        this.outbox.markInDoubt(item.id, now, now, res.reason);
        this.onAuthRefused(res.reason, now);
        return now;
      case 'not_sent':
      case 'server_error':
      case 'unknown':
        this.outbox.markInDoubt(item.id, now, retryAt, `reconciliation failed: ${res.error}`);
        return now;
    }
  }

  /** Counts transient failures in a row; after one, the whole queue waits out the back-off. */
  private countFailure(res: ApiOutcome<unknown>, now: number): void {
    this.cautious = res.kind !== 'ok' && res.kind !== 'refused';
    if (res.kind === 'not_sent' || res.kind === 'server_error' || res.kind === 'unknown') {
      this.blockedUntil = now + this.backoff.fail();
      this.onEvent({ type: 'failed', failures: this.backoff.failures, error: res.error, reachable: res.kind === 'server_error' });
      return;
    }
    this.backoff.reset();
  }

  private onRateLimited(header: string | null, now: number): void {
    const wait = rateLimitPause(header, now, this.opts.windowMs);
    this.log.warn('429 from the service; pausing all requests', { waitMs: wait });
    this.budget.pauseUntil(now + wait, 'retry_after');
  }

  private onAuthRefused(reason: string, now: number): void {
    this.log.error('the service refused the API token; sending paused, capture goes on', { reason });
    this.budget.pauseUntil(now + this.opts.authRetryMs, 'auth');
    this.onEvent({ type: 'auth_refused', reason });
  }

  private noteServerDate(res: ApiOutcome<unknown>, sentAt: number, receivedAt: number): void {
    if ('serverDate' in res && res.serverDate !== null) this.onEvent({ type: 'server_date', serverDate: res.serverDate, sentAt, receivedAt });
  }

  private async idle(ms: number): Promise<void> {
    if (!this.running) return;
    this.wakeCtl = new AbortController();
    await this.sleep(Math.max(0, ms), this.wakeCtl.signal);
  }
}
