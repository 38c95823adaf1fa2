import type { Clock, Random, Sleep } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';
import { DeliveryHealth } from './delivery-health.js';
import { recordPunchAnswer, type AnswerContext } from './punch-answer.js';
import { ProbeReads } from './probe-reads.js';
import { employeeRefOf, Reconciler } from './reconcile.js';
import type { RouteGate } from './route-gate.js';
import type { PunchWaiting } from '../window/shared-window.js';
import type { PunchAnchoring, TimesApi, UploaderEvent, UploaderOptions } from './uploader-types.js';

export type { PunchAnchoring, TimesApi, UploaderEvent, UploaderOptions } from './uploader-types.js';

/** What the uploader is built from (build-delivery.ts). */
export type UploaderDeps = {
  outbox: Outbox;
  api: TimesApi;
  budget: RateBudget;
  clock: Clock;
  sleep: Sleep;
  random: Random;
  opts: UploaderOptions;
  log: Logger;
  /** Delivery bookkeeping: the status recorder in the agent. */
  onEvent?: (e: UploaderEvent) => void;
  /**
   * A punch of this boot taken before any answer waits for one (agent/time/punch-anchoring.ts); none: every punch goes.
   */
  anchoring?: PunchAnchoring;
  /** Read routes the service lacks (GET /times: in-doubt punches go to a person without a check). */
  routes?: RouteGate;
};

/** The most due punches a terminal tells the fleet's window it has (the slots kept for it at most). */
const BACKLOG_TOLD = 16;

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
  /** What recording an answer to `POST /times` needs. */
  private readonly answers: AnswerContext;
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
  private readonly api: TimesApi;
  private readonly budget: RateBudget;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly log: Logger;
  private readonly onEvent: (e: UploaderEvent) => void;
  private readonly anchoring: PunchAnchoring;

  constructor(d: UploaderDeps) {
    const { outbox, api, budget, clock, random, opts, log, routes } = d;
    const onEvent = (this.onEvent = d.onEvent ?? (() => {}));
    const anchoring = (this.anchoring = d.anchoring ?? {
      needsAnchor: () => false,
      mayGo: () => true,
      reanchor: () => false,
      doubt: () => null,
    });
    this.outbox = outbox;
    this.api = api;
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
    this.answers = { outbox, health: this.health, log, onEvent, opts: this.opts };
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
        if (this.inFlight.size >= (this.health.cautious ? 1 : this.opts.maxInFlight)) {
          await this.idle(60_000); // a finishing request wakes us
          continue;
        }
        if (!this.pick(now)) {
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
          waiting: () => this.punchWaiting(),
        });
        if (!ticket) break;
        const item = this.pick(this.clock.now());
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
        // send() marks the row 'sending' before its first await, so the next pick skips it.
        const work = item.state === 'in_doubt' ? this.reconciler.check(item) : this.send(item);
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

  /**
   * How long the two oldest due punches not in flight have waited, since they became due (capture,
   * or the end of a retry's back-off): the fleet's shared window serves its oldest punches first.
   */
  private punchWaiting(): PunchWaiting | null {
    const now = this.clock.now();
    // Its backlog (up to a bound): slots freed together are kept for it while its punches are the oldest.
    const due = this.outbox.dueBatch(now, this.inFlight.size + BACKLOG_TOLD).filter((p) => !this.inFlight.has(p.id));
    const [oldest, next] = due;
    if (!oldest) return null;
    const ageOf = (p: PunchRow) => Math.max(0, now - p.next_attempt_at);
    // But only as many as it can take at once: past its places in flight a kept slot idles until an
    // answer comes back (told its whole backlog, the fleet drained at 0.83-0.92 of the limit).
    const places = Math.max(0, (this.health.cautious ? 1 : this.opts.maxInFlight) - this.inFlight.size - 1);
    return { oldestMs: ageOf(oldest), nextMs: next ? ageOf(next) : null, more: Math.min(due.length - 1, places) };
  }

  /** A storage error (disk full) must not stop delivery for good: report it and go on. */
  private onStorageError(e: unknown): void {
    this.needsRecovery = true;
    const message = `uploader: ${(e as Error).message}`;
    this.log.error(message);
    this.onEvent({ type: 'error', message });
  }

  /** Sends one punch; resolves with the time its answer (or failure) arrived. */
  private async send(picked: PunchRow): Promise<number> {
    let item = picked;
    if (this.anchoring.needsAnchor(item)) {
      // Any answer with a Date header anchors the clock (the API client tells the time source).
      const anchoredAt = await this.probes.forAnchor(item);
      if (anchoredAt !== null) return anchoredAt;
    }
    this.anchoring.reanchor(item);
    // Taken before the first anchor: read it again, with the time the anchor gave it.
    if (item.anchored === 0) item = this.outbox.get(item.id) ?? item;
    // Still on the wall clock (an earlier boot, or no usable Date): a time that cannot be true waits for a person.
    const doubt = item.anchored === 0 ? this.anchoring.doubt(item) : null;
    if (doubt !== null) return this.holdForClock(item, doubt);
    const sentAt = this.clock.now();
    this.outbox.markSending(item.id, sentAt);
    const res = await this.api.postTime(employeeRefOf(item), item.local_date, item.local_time);
    const now = this.clock.now();
    this.health.noteAnswer(res, sentAt, now);
    if (res.kind === 'forbidden') return this.probes.onForbidden(item, res.reason, now);
    // A 409 after a list said it absent: counted toward the hand-off, not another turn of POST, 409, GET.
    if (res.kind === 'unknown' && res.status === 409 && this.reconciler.conflictAfterAbsent(item, now, res.error))
      return now;
    recordPunchAnswer(this.answers, item, res, now);
    return now;
  }

  /** Its wall-clock time cannot be true (a dead RTC): kept for a person, never delivered as fact. */
  private holdForClock(item: PunchRow, why: string): number {
    const now = this.clock.now();
    this.log.warn(
      "a punch's time is this terminal's clock, never confirmed by the service, and cannot be true: held for a person",
      { punchId: item.id, why },
    );
    // Nothing brings it back by itself but a re-timing by its boot's anchor (store/punches/punch-times.ts).
    this.outbox.markHeld(item.id, now, 'clock_unverified', why, now);
    this.onEvent({ type: 'held', punchId: item.id, reason: why });
    return now;
  }

  private async idle(ms: number): Promise<void> {
    if (!this.running) return;
    this.wakeCtl = new AbortController();
    await this.sleep(Math.max(0, ms), this.wakeCtl.signal);
  }
}
