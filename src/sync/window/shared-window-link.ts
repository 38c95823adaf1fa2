import type { Priority } from './priority.js';
import { BadRedisAnswer } from './redis-answers.js';
import { faultOf, type RedisFault } from './redis-fault.js';
import type { HeldSlot, PunchWaiting, SharedTake } from './shared-window.js';
import type { BudgetView, RateSharing, SharedWindowLinkDeps } from './window-link-options.js';

export type { BudgetView, LinkOptions, RateSharing, SharedWindowLinkDeps } from './window-link-options.js';

const TAKEN: SharedTake = { ok: true };
const LOOK_AGAIN: SharedTake = { ok: false, waitMs: 0 };

/**
 * Decides for the RateBudget which window rules a slot: the fleet's shared one, or (Redis out of
 * reach) this terminal's own share, with the local window running underneath all along.
 *
 * At start nothing is sent until the window is joined or the own share chosen (Redis refused, or
 * silent for `joinWaitMs`): a restarted terminal beside busy ones must not spend its share unseen.
 * Losing Redis, it sends nothing for one window: the others' requests through Redis still count. On
 * reconnecting it first puts back every slot it holds that still counts, then, for one window, takes
 * only what both the shared window and its own share allow: a terminal that has not reconnected yet
 * is still spending its share unseen, and this keeps the fleet within the account meanwhile.
 *
 * A Redis that answers what the scripts never return is out of reach too (redis-answers.ts): it
 * is asked again after a back-off that grows to `retryMaxMs`, and only an answer of the take script
 * that makes sense ends that outage (a Redis may answer one script right and another wrong).
 */
export class SharedWindowLink {
  private mode: 'redis' | 'joining' | 'fallback-local' = 'joining';
  private since: number;
  private joinUntil: number;
  private needsRejoin = true;
  private rejoining: Promise<boolean> | null = null;
  /** Counts failures: a rejoin that a failure overtook (the connection dropped meanwhile) does not count. */
  private failures = 0;
  private retryAt = 0;
  private retryPlanned = false;
  /** An outage is under way and in the log (once per outage, not per reconnection attempt). */
  private outage: RedisFault | null = null;
  /** A take answered right since the last join: the shared window really ruled. */
  private confirmed = false;
  private backoffMs: number;
  private probationUntil = 0;
  /**
   * Redis was lost while it ruled: until one window has passed, the account's window may still be
   * full of what other terminals took through it, which this one cannot see. No slot until then.
   */
  private holdUntil = 0;
  private error: RateSharing['redisError'] = null;
  private reason: RedisFault | null = null;
  private budget: BudgetView | null = null;
  private readonly stopped = new AbortController();

  constructor(private readonly d: SharedWindowLinkDeps) {
    const { window, clock, opts } = d;
    this.backoffMs = opts.retryBaseMs ?? 250;
    this.since = clock.now();
    this.joinUntil = this.since + (opts.joinWaitMs ?? 2_500);
    window.onChange((reachable, error) => {
      if (!reachable) return this.fail(error ?? 'Redis unreachable');
      // Reconnected: rejoin now, not at the next request, so status tells the truth on an idle
      // terminal; after bad answers, not before their back-off (a reconnection does not cure them).
      if (this.outage !== 'bad_answer') this.retryAt = 0;
      void this.rejoin();
    });
  }

  /** This process's name in the shared window. */
  get self(): string {
    return this.d.window.self;
  }

  attach(budget: BudgetView): void {
    this.budget = budget;
    if (this.d.window.reachable) void this.rejoin();
    // Silent Redis at start: the own share is chosen when the wait is over, even with nothing to send.
    void this.d
      .sleep(Math.max(0, this.joinUntil - this.d.clock.now()), this.stopped.signal)
      .then(() => this.joinTimedOut());
  }

  /**
   * The limit of the local window now: none while the shared window alone rules (every punch that
   * waits must ask it, or other terminals would not know it waits), else this terminal's share.
   */
  localLimit(share: number, now: number): number {
    return this.fullyShared(now) ? Number.POSITIVE_INFINITY : share;
  }

  /**
   * The local window granted slot `slotId` (at `localLimit`): the shared window must agree. ok: take
   * it; else wait `waitMs` (0: look again now, the local share applies from here on). `waiting`: how
   * long this terminal's punches have waited, so the fleet serves its oldest first.
   */
  async take(
    priority: Priority,
    slotId: number,
    now: number,
    waiting: PunchWaiting | null = null,
  ): Promise<SharedTake> {
    if (this.mode === 'joining') {
      if (now < this.joinUntil) {
        void this.rejoin();
        // The budget is woken when the window is joined or the own share chosen.
        return { ok: false, waitMs: this.joinUntil - now };
      }
      this.joinTimedOut();
    }
    const shareDecided = !this.fullyShared(now);
    if (this.needsRejoin && !(await this.rejoin())) return shareDecided ? this.ownShare() : LOOK_AGAIN;
    try {
      const answer = await this.d.window.take(priority, slotId, this.windowMs(), waiting);
      this.confirm();
      return answer;
    } catch (e) {
      this.fail(e);
      return shareDecided ? this.ownShare() : LOOK_AGAIN;
    }
  }

  /** The local share decides, once the hold after losing Redis is over. */
  private ownShare(): SharedTake {
    const wait = this.holdUntil - this.d.clock.now();
    return wait > 0 ? { ok: false, waitMs: wait } : TAKEN;
  }

  /** The answer arrived: the shared slot counts one window from now. Unreachable: the next rejoin restores it. */
  release(slotId: number): void {
    if (!this.inWindow()) return;
    this.d.window.release(slotId, this.windowMs()).catch((e: unknown) => this.fail(e));
  }

  giveBack(slotId: number): void {
    if (!this.inWindow()) return;
    this.d.window.forget(slotId).catch((e: unknown) => this.fail(e));
  }

  /** Another account's window (a new token): put this terminal's slots there before taking from it. */
  rejoinSoon(): void {
    this.needsRejoin = true;
    this.retryAt = 0;
    void this.rejoin();
  }

  clockStepped(ms: number): void {
    if (this.probationUntil > 0) this.probationUntil += ms;
    if (this.holdUntil > 0) this.holdUntil += ms;
    if (this.retryAt > 0) this.retryAt += ms;
    this.joinUntil += ms;
  }

  /** No more attempts (the agent stops; the window is closed after). */
  stop(): void {
    this.stopped.abort();
  }

  view(): RateSharing {
    return {
      shared: this.mode,
      redisError: this.error,
      reason: this.mode === 'fallback-local' ? this.reason : null,
      since: this.since,
    };
  }

  private fullyShared(now: number): boolean {
    return this.mode === 'redis' && !this.needsRejoin && now >= this.probationUntil;
  }

  private inWindow(): boolean {
    return this.mode === 'redis' && !this.needsRejoin;
  }

  private windowMs(): number {
    return this.budget?.windowMs() ?? 60_000;
  }

  private setMode(mode: SharedWindowLink['mode']): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.since = this.d.clock.now();
    this.d.opts.changed?.();
  }

  /** Redis has not answered since the start: the own share from now on (it is still tried in the background). */
  private joinTimedOut(): void {
    if (this.mode !== 'joining' || this.stopped.signal.aborted) return;
    const waited = this.d.opts.joinWaitMs ?? 2_500;
    this.fail(this.error?.message ?? `no answer from Redis within ${waited} ms of the start`, 'connecting');
  }

  /** A take answered right: the shared window rules, and an outage (even of bad answers) is over. */
  private confirm(): void {
    if (this.confirmed) return;
    this.confirmed = true;
    this.backoffMs = this.d.opts.retryBaseMs ?? 250;
    if (this.outage === 'bad_answer')
      this.d.log.info('rate window: Redis answers right again; sharing the account window');
    this.outage = null;
  }

  /**
   * Restores held slots into the shared window; true when it now rules. One attempt at a time, none during back-off.
   */
  private rejoin(): Promise<boolean> {
    if (!this.needsRejoin) return Promise.resolve(true);
    if (this.stopped.signal.aborted) return Promise.resolve(false);
    if (this.rejoining) return this.rejoining;
    if (!this.budget || !this.d.window.reachable || this.d.clock.now() < this.retryAt) return Promise.resolve(false);
    const now = this.d.clock.now();
    const windowMs = this.windowMs();
    const failures = this.failures;
    // Durations on this terminal's clock, so its error does not matter; in flight: as if just sent.
    const held: HeldSlot[] = this.budget
      .held()
      .map((s) => ({
        slotId: s.id,
        countsForMs: s.releasedAt === null ? windowMs + this.d.opts.inFlightMs : s.releasedAt + windowMs - now,
        owner: this.budget?.ownerOf?.(s.id) ?? null,
      }))
      .filter((s) => s.countsForMs > 0);
    this.rejoining = this.d.window
      .restore(held)
      .then(() => {
        if (this.failures !== failures) return false;
        const was = this.mode;
        this.setMode('redis');
        this.needsRejoin = false;
        this.confirmed = false;
        this.probationUntil = this.d.clock.now() + windowMs;
        // After bad answers, the outage ends only with a take answered right (confirm).
        if (this.outage !== 'bad_answer') {
          this.outage = null;
          this.backoffMs = this.d.opts.retryBaseMs ?? 250;
          if (was !== 'redis')
            this.d.log.info('rate window: sharing the account window in Redis', { restoredSlots: held.length });
        }
        this.budget?.wake();
        return true;
      })
      .catch((e: unknown) => {
        this.fail(e);
        return false;
      })
      .finally(() => {
        this.rejoining = null;
      });
    return this.rejoining;
  }

  private fail(e: unknown, fault: RedisFault = faultOf(e)): void {
    if (this.stopped.signal.aborted) return; // the client closing as the agent stops is no outage
    const message = e instanceof Error ? e.message : String(e);
    const now = this.d.clock.now();
    this.failures++;
    this.error = { at: now, message };
    const newReason = this.mode === 'fallback-local' && fault !== this.reason;
    this.reason = fault;
    this.needsRejoin = true;
    // A call failed on a live connection (timeout, bad answer): not again before the back-off. A
    // dropped connection is retried by the client, and its reconnection ends this wait.
    this.retryAt = now + this.backoffMs;
    this.planRetry();
    this.backoffMs = Math.min(this.backoffMs * 2, this.d.opts.retryMaxMs ?? 30_000);
    const firstOfOutage = this.outage === null;
    if (firstOfOutage) {
      this.outage = fault;
      const words = e instanceof BadRedisAnswer ? `${message}: Redis misbehaves` : 'Redis out of reach';
      this.d.log.warn(`rate window: ${words}, this terminal goes on at its own share`, {
        error: message,
        reason: fault,
      });
    }
    const was = this.mode;
    if (was !== 'fallback-local') this.setMode('fallback-local');
    else if (newReason) this.d.opts.changed?.();
    // It ruled (a take answered right, or this is the outage's start): others' slots still count for a window.
    if (was === 'redis' && (this.confirmed || firstOfOutage)) this.holdUntil = now + this.windowMs();
    this.confirmed = false;
    if (was !== 'fallback-local') this.budget?.wake();
  }

  /** One attempt after the back-off even if no request comes, so an idle terminal's status tells the truth. */
  private planRetry(): void {
    if (this.retryPlanned) return;
    this.retryPlanned = true;
    void this.d.sleep(Math.max(0, this.retryAt - this.d.clock.now()), this.stopped.signal).then(() => {
      this.retryPlanned = false;
      if (this.stopped.signal.aborted || !this.needsRejoin) return;
      if (this.d.clock.now() < this.retryAt) this.planRetry();
      else void this.rejoin();
    });
  }
}
