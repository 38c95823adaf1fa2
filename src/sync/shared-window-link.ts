import type { Clock, Sleep } from '../domain/clock.js';
import type { Slot } from '../domain/sliding-window.js';
import type { Logger } from '../log.js';
import type { Priority } from './priority.js';
import type { HeldSlot, SharedTake, SharedWindow } from './shared-window.js';

/** Where this terminal's slots come from now (status `rate`). */
export type RateSharing = {
  /** redis: the account's shared window; fallback-local: Redis is configured but out of reach; local: no Redis. */
  shared: 'redis' | 'fallback-local' | 'local';
  redisError: { at: number; message: string } | null;
};

export type LinkOptions = {
  /** The request timeout: how long past one window an unanswered slot still counts. */
  inFlightMs: number;
  /** Back-off between attempts after a call failed on a live connection (a timeout). */
  retryBaseMs?: number;
  retryMaxMs?: number;
};

/** What the link reads from the budget it serves. */
export type BudgetView = { wake(): void; held(): readonly (Slot & { id: number })[]; windowMs(): number };

const TAKEN: SharedTake = { ok: true };
const LOOK_AGAIN: SharedTake = { ok: false, waitMs: 0 };

/**
 * Decides for the RateBudget which window rules a slot: the fleet's shared one, or (Redis out of
 * reach) this terminal's own share, with the local window running underneath all along. Losing
 * Redis, it sends nothing for one window: the others' requests through Redis still count. On
 * reconnecting it first puts back every slot it holds that still counts, then, for one window, takes
 * only what both the shared window and its own share allow: a terminal that has not reconnected yet
 * is still spending its share unseen, and this keeps the fleet within the account meanwhile.
 */
export class SharedWindowLink {
  private mode: 'redis' | 'fallback-local' = 'fallback-local';
  private needsRejoin = true;
  private rejoining: Promise<boolean> | null = null;
  /** Counts failures: a rejoin that a failure overtook (the connection dropped meanwhile) does not count. */
  private failures = 0;
  private retryAt = 0;
  private retryPlanned = false;
  /** The current outage is in the log (once per outage, not per reconnection attempt). */
  private outageLogged = false;
  private backoffMs: number;
  private probationUntil = 0;
  /**
   * Redis was lost while it ruled: until one window has passed, the account's window may still be
   * full of what other terminals took through it, which this one cannot see. No slot until then.
   */
  private holdUntil = 0;
  private error: RateSharing['redisError'] = null;
  private budget: BudgetView | null = null;
  private readonly stopped = new AbortController();

  constructor(
    private readonly window: SharedWindow,
    private readonly clock: Clock,
    private readonly sleep: Sleep,
    private readonly log: Logger,
    private readonly opts: LinkOptions,
  ) {
    this.backoffMs = opts.retryBaseMs ?? 250;
    window.onChange((reachable, error) => {
      if (!reachable) return this.fail(error ?? 'Redis unreachable');
      // Reconnected: rejoin now, not at the next request, so status tells the truth on an idle terminal.
      this.retryAt = 0;
      void this.rejoin();
    });
  }

  attach(budget: BudgetView): void {
    this.budget = budget;
    if (this.window.reachable) void this.rejoin();
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
   * it; else wait `waitMs` (0: look again now, the local share applies from here on).
   */
  async take(priority: Priority, slotId: number, now: number): Promise<SharedTake> {
    const shareDecided = !this.fullyShared(now);
    if (this.needsRejoin && !(await this.rejoin())) return shareDecided ? this.ownShare() : LOOK_AGAIN;
    try {
      return await this.window.take(priority, slotId, this.windowMs());
    } catch (e) {
      this.fail(messageOf(e));
      return shareDecided ? this.ownShare() : LOOK_AGAIN;
    }
  }

  /** The local share decides, once the hold after losing Redis is over. */
  private ownShare(): SharedTake {
    const wait = this.holdUntil - this.clock.now();
    return wait > 0 ? { ok: false, waitMs: wait } : TAKEN;
  }

  /** The answer arrived: the shared slot counts one window from now. Unreachable: the next rejoin restores it. */
  release(slotId: number): void {
    if (!this.inWindow()) return;
    this.window.release(slotId, this.windowMs()).catch((e: unknown) => this.fail(messageOf(e)));
  }

  giveBack(slotId: number): void {
    if (!this.inWindow()) return;
    this.window.forget(slotId).catch((e: unknown) => this.fail(messageOf(e)));
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
  }

  /** No more attempts (the agent stops; the window is closed after). */
  stop(): void {
    this.stopped.abort();
  }

  view(): RateSharing {
    return { shared: this.mode, redisError: this.error };
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

  /** Restores held slots into the shared window; true when it now rules. One attempt at a time, none during back-off. */
  private rejoin(): Promise<boolean> {
    if (!this.needsRejoin) return Promise.resolve(true);
    if (this.stopped.signal.aborted) return Promise.resolve(false);
    if (this.rejoining) return this.rejoining;
    if (!this.budget || !this.window.reachable || this.clock.now() < this.retryAt) return Promise.resolve(false);
    const now = this.clock.now();
    const windowMs = this.windowMs();
    const failures = this.failures;
    // Durations on this terminal's clock, so its error does not matter; in flight: as if just sent.
    const held: HeldSlot[] = this.budget
      .held()
      .map((s) => ({ slotId: s.id, countsForMs: s.releasedAt === null ? windowMs + this.opts.inFlightMs : s.releasedAt + windowMs - now }))
      .filter((s) => s.countsForMs > 0);
    this.rejoining = this.window
      .restore(held)
      .then(() => {
        if (this.failures !== failures) return false;
        const was = this.mode;
        this.mode = 'redis';
        this.outageLogged = false;
        this.needsRejoin = false;
        this.backoffMs = this.opts.retryBaseMs ?? 250;
        this.probationUntil = this.clock.now() + windowMs;
        if (was !== 'redis') this.log.info('rate window: sharing the account window in Redis', { restoredSlots: held.length });
        this.budget?.wake();
        return true;
      })
      .catch((e: unknown) => {
        this.fail(messageOf(e));
        return false;
      })
      .finally(() => {
        this.rejoining = null;
      });
    return this.rejoining;
  }

  private fail(message: string): void {
    if (this.stopped.signal.aborted) return; // the client closing as the agent stops is no outage
    const now = this.clock.now();
    this.failures++;
    this.error = { at: now, message };
    this.needsRejoin = true;
    // A call failed on a live connection (timeout): not again before the back-off. A dropped
    // connection is retried by the client, and its reconnection ends this wait.
    this.retryAt = now + this.backoffMs;
    this.planRetry();
    this.backoffMs = Math.min(this.backoffMs * 2, this.opts.retryMaxMs ?? 30_000);
    if (!this.outageLogged) {
      this.outageLogged = true;
      this.log.warn('rate window: Redis out of reach, this terminal goes on at its own share', { error: message });
    }
    if (this.mode === 'redis') {
      this.mode = 'fallback-local';
      this.holdUntil = now + this.windowMs();
      this.budget?.wake();
    }
  }

  /** One attempt after the back-off even if no request comes, so an idle terminal's status tells the truth. */
  private planRetry(): void {
    if (this.retryPlanned) return;
    this.retryPlanned = true;
    void this.sleep(Math.max(0, this.retryAt - this.clock.now()), this.stopped.signal).then(() => {
      this.retryPlanned = false;
      if (this.stopped.signal.aborted || !this.needsRejoin) return;
      if (this.clock.now() < this.retryAt) this.planRetry();
      else void this.rejoin();
    });
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
