import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Outbox } from '../../store/punches/outbox.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';
import { DeliveryHealth } from './delivery-health.js';
import { pickDue, punchWaiting } from './due-picks.js';
import { ProbeReads } from './probe-reads.js';
import { Reconciler } from './reconcile.js';
import { sendPunch, type SendContext } from './send-punch.js';
import type { UploaderDeps, UploaderEvent, UploaderOptions } from './uploader-types.js';

/** How often the loop looks for held punches whose retry is due (more often when they are retried sooner). */
const HELD_CHECK_EVERY_MS = 30_000;

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
  /** Failures in a row, the queue's back-off, one request at a time after a failure, pauses. */
  private readonly health: DeliveryHealth;
  private readonly reconciler: Reconciler;
  /** What sending a punch and recording its answer need (send-punch.ts). */
  private readonly sending: SendContext;
  private readonly heldCheckEveryMs: number;
  /** A storage error may have left a row in 'sending' with nothing in flight. */
  private needsRecovery = false;
  private heldCheckedAt = Number.NEGATIVE_INFINITY;
  /** The cheap reads: a 403's employee or token, the service's time before a boot's first punch. */
  private readonly probes: ProbeReads;
  /** The read that asks whether the service answers again, while it is out. */
  private serviceProbe: Promise<void> | null = null;

  private readonly opts: UploaderOptions;

  private readonly outbox: Outbox;
  private readonly budget: RateBudget;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly log: Logger;
  private readonly onEvent: (e: UploaderEvent) => void;

  constructor(d: UploaderDeps) {
    const { outbox, api, budget, clock, random, opts, log, routes } = d;
    const onEvent = (this.onEvent = d.onEvent ?? (() => {}));
    const anchoring = d.anchoring ?? {
      needsAnchor: () => false,
      mayGo: () => true,
      reanchor: () => false,
      doubt: () => null,
    };
    this.outbox = outbox;
    this.budget = budget;
    this.clock = clock;
    this.sleep = d.sleep;
    this.log = log;
    this.opts = { ...opts };
    this.health = new DeliveryHealth({
      budget,
      opts: { backoff: opts.backoff, windowMs: opts.windowMs, authRetryMs: opts.authRetryMs },
      random,
      log,
      onEvent,
    });
    this.heldCheckEveryMs = Math.min(HELD_CHECK_EVERY_MS, opts.heldRetryMs);
    this.reconciler = new Reconciler({
      outbox,
      api,
      clock,
      random,
      opts: this.opts,
      log,
      onEvent,
      health: this.health,
      ...(routes ? { routes } : {}),
    });
    this.probes = new ProbeReads({
      outbox,
      api,
      budget,
      clock,
      health: this.health,
      log,
      onEvent,
      opts: this.opts,
      anchoring,
      stopSignal: () => this.stopCtl.signal,
    });
    this.sending = {
      outbox,
      health: this.health,
      log,
      onEvent,
      opts: this.opts,
      api,
      clock,
      anchoring,
      probes: this.probes,
      reconciler: this.reconciler,
    };
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

  /**
   * The wall clock stepped by `ms` (see Agent.checkClock): the uploader's own deadlines move with
   * it, those read by `before` only (later ones are on the new clock), and it looks now.
   */
  clockStepped(ms: number, before = Number.MAX_SAFE_INTEGER): void {
    this.health.clockStepped(ms, before);
    if (this.heldCheckedAt <= before) this.heldCheckedAt += ms;
    this.probes.clockStepped(ms, before);
    this.wake();
  }

  /** The budget's window changed (admin screen): used for a 429 without a usable Retry-After. */
  setWindowMs(ms: number): void {
    this.health.setWindowMs(ms);
  }

  /**
   * A new API token: the pause for the refused one is over (a 429's pause is not: the service's
   * Retry-After still stands). Connection backoff is kept; due punches go out at once.
   */
  tokenChanged(): void {
    if (this.budget.pause()?.reason === 'auth') this.budget.resume();
    this.wake();
  }

  /**
   * The service is back (its host takes connections again, or a request got a good answer): the
   * back-off ends now and punches it had put off are due at once; the first goes alone, the rest
   * follow at the full rate once it is through. `probe`: with nothing to send, one cheap read
   * confirms that the API answers (the screen then says online with nobody punching).
   */
  serviceBack(opts: { probe: boolean }): void {
    if (!this.running) return;
    const now = this.clock.now();
    this.health.resume(now);
    const due = this.outbox.pullForward(now);
    if (due > 0)
      this.log.info('the service answers again: punches put off by the back-off are due now', { count: due });
    if (opts.probe && !this.outbox.hasDue(now) && !this.serviceProbe) {
      const task = this.probes
        .probe('service_back')
        .then(
          () => undefined,
          (e: unknown) => this.onStorageError(e),
        )
        .finally(() => {
          this.serviceProbe = null;
          this.tasks.delete(task);
        });
      this.serviceProbe = task;
      this.tasks.add(task);
    }
    this.wake();
  }

  /** Whether the queue waits out a back-off now (the service failed): nothing goes before it ends. */
  backingOff(): boolean {
    return this.clock.now() < this.health.blockedUntil;
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
        // Punches held for a 403 come back on their slow schedule (the loop idles at most a minute).
        if (now - this.heldCheckedAt >= this.heldCheckEveryMs) {
          this.heldCheckedAt = now;
          this.outbox.releaseDueForbidden(now);
        }
        // After a failure, one probe at a time until a request gets through again.
        if (this.inFlight.size >= this.maxInFlightNow()) {
          await this.idle(60_000); // a finishing request wakes us
          continue;
        }
        if (!pickDue(this.outbox, this.inFlight, now)) {
          const next = this.outbox.earliestDueAt();
          // Due but in flight: woken when it lands. At most until the next look at held punches.
          const wait = Math.min(next === null || next <= now ? 60_000 : next - now, this.heldCheckEveryMs);
          await this.idle(wait);
          continue;
        }
        const pause = this.budget.pause();
        if (pause?.reason === 'auth') {
          await this.idle(pause.until - now);
          continue;
        }
        if (now < this.health.blockedUntil) {
          await this.idle(this.health.blockedUntil - now);
          continue;
        }
        const ticket = await this.budget.acquire(Priority.punch, 'punch', {
          signal: this.stopCtl.signal,
          waiting: () => punchWaiting(this.outbox, this.inFlight, this.clock.now(), this.maxInFlightNow()),
        });
        if (!ticket) break;
        const item = pickDue(this.outbox, this.inFlight, this.clock.now());
        if (!item) {
          this.budget.giveBack(ticket);
          continue;
        }
        const timesAbsent = item.state === 'in_doubt' ? this.reconciler.timesAbsent() : null;
        if (timesAbsent) {
          // Nothing is asked of a route the service lacks: the slot goes back unused.
          this.budget.giveBack(ticket);
          this.reconciler.handOver(item, timesAbsent);
          continue;
        }
        this.inFlight.add(item.id);
        // sendPunch() marks the row 'sending' before its first await, so the next pick skips it.
        const work = item.state === 'in_doubt' ? this.reconciler.check(item) : sendPunch(this.sending, item);
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

  /** After a failure, one request at a time until one gets through again. */
  private maxInFlightNow(): number {
    return this.health.cautious ? 1 : this.opts.maxInFlight;
  }

  /** A storage error (disk full) must not stop delivery for good: report it and go on. */
  private onStorageError(e: unknown): void {
    this.needsRecovery = true;
    const message = `uploader: ${(e as Error).message}`;
    this.log.error(message);
    this.onEvent({ type: 'error', message });
  }

  private async idle(ms: number): Promise<void> {
    if (!this.running) return;
    this.wakeCtl = new AbortController();
    await this.sleep(Math.max(0, ms), this.wakeCtl.signal);
  }
}
