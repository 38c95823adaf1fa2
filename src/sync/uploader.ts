import type { ApiOutcome } from '../api/client.js';
import type { EmployeeRef, TimesResponse } from '../api/shapes.js';
import type { Clock, Random, Sleep } from '../domain/clock.js';
import { backoffDelay, rateLimitPause, type BackoffOptions } from '../domain/retry-policy.js';
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
  /** After a refused token, try again this much later (a fixed token also resumes at once). */
  authRetryMs: number;
  /** Used when a 429 carries no usable Retry-After. */
  windowMs: number;
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
 * Delivers the outbox to `POST /times`, oldest due punch first, one request at a time, each on a
 * slot of the shared budget. The row is never removed: only a 2xx or a reconciliation that finds
 * the record on the server turns it `sent`.
 */
export class Uploader {
  private running = false;
  private stopCtl = new AbortController();
  private wakeCtl = new AbortController();
  private loopDone: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** Connection-level trouble backs off the whole queue, not just one punch: one probe per delay. */
  private blockedUntil = 0;
  private failures = 0;
  /** A storage error may have left a row in 'sending' with nothing in flight. */
  private needsRecovery = false;

  constructor(
    private readonly outbox: Outbox,
    private readonly api: TimesApi,
    private readonly budget: RateBudget,
    private readonly clock: Clock,
    private readonly sleep: Sleep,
    private readonly random: Random,
    private readonly opts: UploaderOptions,
    private readonly log: Logger,
    private readonly onEvent: (e: UploaderEvent) => void = () => {},
  ) {}

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

  /** A punch was committed (or a rejected one retried): look now, not at the next timer. */
  wake(): void {
    this.wakeCtl.abort();
    this.budget.poke();
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        const now = this.clock.now();
        if (this.needsRecovery) {
          // Sending is sequential and nothing is in flight here, so a 'sending' row is a leftover.
          this.outbox.recoverInterrupted(now);
          this.needsRecovery = false;
        }
        const pause = this.budget.pause();
        if (!this.outbox.hasDue(now)) {
          const next = this.outbox.earliestDueAt();
          await this.idle(next === null ? 60_000 : Math.max(1, next - now));
          continue;
        }
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
        const item = this.outbox.nextDue(this.clock.now());
        if (!item) {
          this.budget.giveBack(ticket);
          continue;
        }
        this.inFlight++;
        try {
          if (item.state === 'in_doubt') await this.reconcile(item);
          else await this.send(item);
        } finally {
          // Released whatever happened (even a storage error before sending): holding it one
          // window from now is always on the safe side of the server's count.
          this.budget.release(ticket);
          this.inFlight--;
        }
      } catch (e) {
        // A storage error here (disk full) must not kill delivery for good: report, wait, go on.
        this.needsRecovery = true;
        const message = `uploader: ${(e as Error).message}`;
        this.log.error(message);
        this.onEvent({ type: 'error', message });
        await this.idle(this.opts.backoff.baseMs);
      }
    }
  }

  private async send(item: PunchRow): Promise<void> {
    const sentAt = this.clock.now();
    this.outbox.markSending(item.id, sentAt);
    const res = await this.api.postTime(employeeRefOf(item), item.local_date, item.local_time);
    const now = this.clock.now();
    this.noteServerDate(res, sentAt, now);
    this.countFailure(res);
    switch (res.kind) {
      case 'ok':
        this.outbox.markSent(item.id, now, res.value.remoteId, 'created');
        this.onEvent({ type: 'sent', punchId: item.id });
        return;
      case 'rate_limited':
        this.onRateLimited(res.retryAfterHeader, now);
        this.outbox.markPending(item.id, now, now, '429 rate limited');
        return;
      case 'not_sent':
      case 'server_error':
        this.blockedUntil = now + backoffDelay(this.failures, this.opts.backoff, this.random);
        this.outbox.markPending(item.id, now, this.blockedUntil, res.error, true);
        return;
      case 'unknown':
        this.blockedUntil = now + backoffDelay(this.failures, this.opts.backoff, this.random);
        this.log.warn('punch outcome unknown; will check the server before any resend', { punchId: item.id, error: res.error });
        this.outbox.markInDoubt(item.id, now, now + this.opts.inDoubtGraceMs, res.error);
        return;
      case 'refused':
        this.log.warn('punch rejected by the service', { punchId: item.id, reason: res.reason });
        this.outbox.markRejected(item.id, now, res.reason);
        this.onEvent({ type: 'rejected', punchId: item.id, reason: res.reason });
        return;
      case 'auth':
        this.outbox.markPending(item.id, now, now, res.reason);
        this.onAuthRefused(res.reason, now);
        return;
    }
  }

  /** Before anything is sent again: is the record already on the server? */
  private async reconcile(item: PunchRow): Promise<void> {
    const sentAt = this.clock.now();
    const res = await this.api.getTimes(employeeRefOf(item), item.local_date, item.local_date);
    const now = this.clock.now();
    this.noteServerDate(res, sentAt, now);
    if (this.countFailure(res)) this.blockedUntil = now + backoffDelay(this.failures, this.opts.backoff, this.random);
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
        return;
      }
      case 'rate_limited':
        this.onRateLimited(res.retryAfterHeader, now);
        return;
      case 'refused':
        if (res.status === 404) {
          // The service no longer knows the employee: sending will tell us why, as a rejection.
          this.outbox.markPending(item.id, now, now, res.reason);
        } else {
          this.outbox.markInDoubt(item.id, now, retryAt, `reconciliation failed: ${res.reason}`);
        }
        return;
      case 'auth':
        this.outbox.markInDoubt(item.id, now, now, res.reason);
        this.onAuthRefused(res.reason, now);
        return;
      case 'not_sent':
      case 'server_error':
      case 'unknown':
        this.outbox.markInDoubt(item.id, now, retryAt, `reconciliation failed: ${res.error}`);
        return;
    }
  }

  /** Counts transient failures in a row; returns true when this outcome was one. */
  private countFailure(res: ApiOutcome<unknown>): boolean {
    if (res.kind === 'not_sent' || res.kind === 'server_error' || res.kind === 'unknown') {
      this.failures++;
      this.onEvent({ type: 'failed', failures: this.failures, error: res.error, reachable: res.kind === 'server_error' });
      return true;
    }
    this.failures = 0;
    return false;
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
