import { msUntilFreeSlot, punchReserve, slotsInUse, type WindowRule } from '../../domain/rate/sliding-window.js';
import type { StoredSlot } from '../../store/settings/rate-slots.js';
import { AdaptiveLimit } from './adaptive-limit.js';
import type { PauseReason, RateBudgetDeps, SlotTicket, Waiter } from './rate-budget-deps.js';
import type { RateSharing, SharedWindowLink } from './shared-window-link.js';
import { dropAborted, enqueue, nextWaiter, type AcquireOptions } from './waiters.js';

import { DEFAULT_SELF_SERVICE_SHARE, fillLimit, type Priority } from './priority.js';

export { Priority } from './priority.js';

export type { PauseReason, RateBudgetDeps, SlotTicket } from './rate-budget-deps.js';

/**
 * The one sliding-window budget every API call of the terminal draws from. Slots are persisted
 * (see RateSlots) and held from send until one window after the response; callers queue by
 * priority. A 429's Retry-After or a refused token pauses everybody, not just one request.
 * With a `link`, every slot the local window grants must also come from the fleet's shared window
 * (shared-window-link.ts); the local window keeps counting underneath, for when Redis is away.
 * Roster pages leave a reserve of the window free, so a punch taken during a sync goes at once;
 * self-service reads go only while the window is nearly empty.
 * Without the shared window, the local limit adapts: a 429 cuts it, calm windows earn it back
 * (adaptive-limit.ts), so terminals sharing an account's limit settle on shares of it.
 */
export class RateBudget {
  private slots: StoredSlot[];
  private readonly waiters: Waiter[] = [];
  private seq = 0;
  private takes = 0;
  private unsavedId = -1;
  private pumping = false;
  private wake = new AbortController();
  private pausedUntil = 0;
  private pauseReason: PauseReason | null = null;
  private lastTakeAt = Number.NEGATIVE_INFINITY;
  private readonly adaptive: AdaptiveLimit;

  private rule: WindowRule;
  private readonly d: Required<RateBudgetDeps>;

  constructor(deps: RateBudgetDeps) {
    const d = (this.d = {
      link: null,
      adaptive: {},
      reserveShare: 0,
      selfServiceShare: DEFAULT_SELF_SERVICE_SHARE,
      ...deps,
    });
    const { store, clock, rule, link, adaptive } = d;
    this.rule = rule;
    const now = clock.now();
    this.adaptive = new AdaptiveLimit(rule, adaptive);
    store.clampFuture(now);
    store.closeOrphans(now);
    store.prune(now, rule.windowMs);
    this.slots = store.live(now, rule.windowMs);
    // Slots an earlier run took are in the shared window under its name already (see RateSlots.claim).
    const inherited =
      (link && this.persist(() => store.claim(link.self, this.slots))) || new Map<number, string | null>();
    link?.attach({
      wake: () => this.kick(),
      held: () => this.slots,
      windowMs: () => this.rule.windowMs,
      ownerOf: (id) => inherited.get(id) ?? null,
    });
  }

  /**
   * A new limit or window, in force at once for the next slot. Slots already held stay counted:
   * a longer window brings back, from the persisted log, slots the shorter one had let go.
   */
  setRule(rule: WindowRule): void {
    if (rule.windowMs > this.rule.windowMs) {
      const known = new Set(this.slots.map((s) => s.id));
      const stored = this.persist(() => this.d.store.live(this.d.clock.now(), rule.windowMs)) ?? [];
      for (const s of stored) if (!known.has(s.id)) this.slots.push(s);
    }
    this.rule = { limit: rule.limit, windowMs: rule.windowMs };
    this.adaptive.reset(this.rule);
    this.kick();
  }

  /**
   * The wall clock stepped by `ms`: slots and the pause move with it, so a step back does not hold
   * sending for as long as the step, nor a step forward free the window early. Times read after
   * `before` (the old clock's latest reading) are on the new clock already and stay.
   */
  clockStepped(ms: number, before = Number.MAX_SAFE_INTEGER): void {
    for (const s of this.slots) {
      if (s.takenAt <= before) s.takenAt += ms;
      if (s.releasedAt !== null && s.releasedAt <= before) s.releasedAt += ms;
    }
    if (this.pausedUntil > 0) this.pausedUntil += ms;
    if (this.lastTakeAt <= before) this.lastTakeAt += ms;
    this.adaptive.clockStepped(ms);
    this.d.link?.clockStepped(ms);
    this.persist(() => this.d.store.shift(ms, before));
    this.kick();
  }

  get windowMs(): number {
    return this.rule.windowMs;
  }

  /** Waits for a slot. Resolves null if `signal` aborts first. */
  acquire(priority: Priority, purpose: string, opts: AcquireOptions = {}): Promise<SlotTicket | null> {
    if (opts.signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      enqueue(this.waiters, { priority, seq: this.seq++, purpose }, opts, () => this.kick(), resolve);
      this.kick();
    });
  }

  /** The response arrived (or the request failed) at `at`: the slot counts one more window. */
  release(ticket: SlotTicket, at = this.d.clock.now()): void {
    const s = this.slots.find((x) => x.id === ticket.id);
    if (s) s.releasedAt = at;
    this.persist(() => this.d.store.release(ticket.id, at));
    this.d.link?.release(ticket.id);
    this.kick();
  }

  /** Nothing was sent on this slot after all: give it back. */
  giveBack(ticket: SlotTicket): void {
    this.slots = this.slots.filter((x) => x.id !== ticket.id);
    this.persist(() => this.d.store.forget(ticket.id));
    this.d.link?.giveBack(ticket.id);
    this.kick();
  }

  /**
   * The in-memory slots rule this process; the table is for the next start. A failed write (full
   * disk) must not stop sending: at worst a restart forgets one slot, whose request the server
   * then sees as one window older than it was.
   */
  private persist<T>(write: () => T): T | null {
    try {
      return write();
    } catch {
      return null;
    }
  }

  /** `retry_after`: the service answered 429 (every caller pauses through here), which may also cut the limit. */
  pauseUntil(at: number, reason: PauseReason): void {
    if (reason === 'retry_after') {
      // Answers within the last window, and not before the last pause ended.
      const now = this.d.clock.now();
      const since = this.pausedUntil;
      const count = this.slots.filter(
        (s) => s.releasedAt !== null && s.releasedAt > now - this.rule.windowMs && s.releasedAt >= since,
      ).length;
      this.adaptive.rateLimited(now, this.sharing().shared, { count, since }, at - now);
    }
    if (at > this.pausedUntil || reason === 'auth') {
      this.pausedUntil = at;
      this.pauseReason = reason;
    }
    this.kick();
  }

  resume(): void {
    this.pausedUntil = 0;
    this.pauseReason = null;
    this.kick();
  }

  /** Re-evaluate waiters that stand aside (called when the punch queue changes). */
  poke(): void {
    this.kick();
  }

  pause(): { until: number; reason: PauseReason } | null {
    return this.pausedUntil > this.d.clock.now() && this.pauseReason
      ? { until: this.pausedUntil, reason: this.pauseReason }
      : null;
  }

  inUse(): number {
    return slotsInUse(this.slots, this.d.clock.now(), this.rule.windowMs);
  }

  /** The limit in force now: the configured one, or less after 429s (see AdaptiveLimit). */
  get limit(): number {
    return this.adaptive.current(this.d.clock.now());
  }

  /** Whether the slots come from the fleet's window in Redis, from this terminal's share meanwhile, or only from it. */
  sharing(): RateSharing {
    return this.d.link?.view() ?? { shared: 'local', redisError: null };
  }

  private kick(): void {
    if (this.pumping) this.wake.abort();
    else void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      for (;;) {
        // Armed before looking, so a kick while we look (or wait on the shared window) is not lost.
        this.wake = new AbortController();
        dropAborted(this.waiters);
        if (this.waiters.length === 0) return;
        const now = this.d.clock.now();
        const paused = now < this.pausedUntil;
        const head = nextWaiter(this.waiters, paused, this.pauseReason);
        if (paused && !head) {
          await this.idle(this.pausedUntil - now);
          continue;
        }
        if (!head) {
          // Only stand-aside waiters: look again when poked, or after a while in case nobody pokes.
          await this.idle(1_000);
          continue;
        }
        this.slots = this.slots.filter((s) => s.releasedAt === null || s.releasedAt + this.rule.windowMs > now);
        const share = this.adaptive.current(now);
        const shareLimit = this.d.link ? this.d.link.localLimit(share, now) : share;
        const limit = fillLimit(
          head.priority,
          shareLimit,
          punchReserve(shareLimit, this.d.reserveShare),
          this.d.selfServiceShare,
        );
        let wait = msUntilFreeSlot(this.slots, now, { limit, windowMs: this.rule.windowMs });
        // Once cut, requests are spread over the window (see adaptive-rate.ts); not while Redis's window rules.
        const spacing = Number.isFinite(shareLimit) ? this.adaptive.spacingMs(now) : 0;
        if (wait !== null && spacing > 0) wait = Math.max(wait, Math.ceil(this.lastTakeAt + spacing - now));
        if (wait === 0) {
          // Keep the persisted log short; what no longer counts is of no use to a restart.
          if (++this.takes % 100 === 0) this.persist(() => this.d.store.prune(now, this.rule.windowMs));
          const id = this.persist(() => this.d.store.take(now, head.purpose)) ?? this.unsavedId--;
          if (this.d.link && !(await this.sharedAgrees(this.d.link, head, id, now))) continue;
          this.slots.push({ id, takenAt: now, releasedAt: null });
          this.lastTakeAt = now;
          this.waiters.splice(this.waiters.indexOf(head), 1);
          head.resolve({ id, purpose: head.purpose });
          continue;
        }
        await this.idle(wait ?? 60_000);
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * The shared window must grant slot `id` too. When it does not (or the waiter left, or a pause
   * began while it was asked), the slot is given back and, if the window said so, we wait.
   */
  private async sharedAgrees(link: SharedWindowLink, head: Waiter, id: number, now: number): Promise<boolean> {
    const answer = await link.take(head.priority, id, now, head.waiting?.() ?? null);
    const eligible =
      !head.signal?.aborted &&
      (this.d.clock.now() >= this.pausedUntil || (this.pauseReason === 'auth' && head.duringAuthPause));
    if (answer.ok && eligible) return true;
    this.persist(() => this.d.store.forget(id));
    if (answer.ok) link.giveBack(id);
    else if (answer.waitMs > 0) await this.idle(answer.waitMs);
    return false;
  }

  private async idle(ms: number): Promise<void> {
    if (!this.wake.signal.aborted) await this.d.sleep(ms, this.wake.signal);
  }
}
