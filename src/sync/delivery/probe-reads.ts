/**
 * The uploader's cheap reads (`GET /employees`, one record) and what it decides from them: whether
 * a 403 on a punch refuses the employee or the token, and the service's time before the first punch
 * of a boot goes. Apart from the delivery loop so the loop stays about when to send.
 */
import type { ApiOutcome } from '../../api/client.js';
import { describeOutcome } from '../../api/classify.js';
import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { DeliveryHealth } from './delivery-health.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';
import type { PunchAnchoring, TimesApi, UploaderEvent, UploaderOptions } from './uploader-types.js';

/** A probe that found the token fine answers for the 403s of the next minute too. */
const PROBE_VALID_MS = 60_000;

export type ProbeReadsDeps = {
  outbox: Outbox;
  api: Pick<TimesApi, 'probe'>;
  budget: RateBudget;
  clock: Clock;
  health: DeliveryHealth;
  log: Logger;
  onEvent: (e: UploaderEvent) => void;
  opts: Pick<UploaderOptions, 'backoff' | 'heldRetryMs'>;
  anchoring: PunchAnchoring;
  /** The uploader's stop signal in force (a new one at each start). */
  stopSignal: () => AbortSignal;
};

export class ProbeReads {
  /** When a probe last showed the token is fine: 403s soon after need no probe of their own. */
  private tokenFineAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly d: ProbeReadsDeps) {}

  /** The wall clock stepped by `ms`; a time read after `before` is on the new clock already. */
  clockStepped(ms: number, before: number): void {
    if (this.tokenFineAt <= before) this.tokenFineAt += ms;
  }

  /** A cheap read with the token in use, on a slot of its own; null when stopping. */
  async probe(purpose: string): Promise<{ res: ApiOutcome<unknown>; at: number } | null> {
    const { budget, clock, health } = this.d;
    const ticket = await budget.acquire(Priority.punch, purpose, { signal: this.d.stopSignal() });
    if (!ticket) return null;
    let at: number | undefined;
    try {
      const sentAt = clock.now();
      const res = await this.d.api.probe();
      at = clock.now();
      health.noteAnswer(res, sentAt, at);
      return { res, at };
    } finally {
      budget.release(ticket, at);
    }
  }

  /**
   * A 403 on a punch: that employee, or the token? One cheap read with the same token tells. The
   * employee's punch is held (retried slowly, and after each roster sync) and everyone else's go on.
   */
  async onForbidden(item: PunchRow, reason: string, now: number): Promise<number> {
    const { outbox, health } = this.d;
    if (now - this.tokenFineAt < PROBE_VALID_MS) {
      this.hold(item, reason, now);
      return now;
    }
    const p = await this.probe('probe');
    if (!p) {
      outbox.markPending(item.id, now, now, reason);
      return now;
    }
    const { res, at } = p;
    if (res.kind === 'ok' || res.kind === 'refused') {
      this.tokenFineAt = at;
      this.hold(item, reason, at);
    } else if (res.kind === 'auth' || res.kind === 'forbidden') {
      outbox.markPending(item.id, at, at, reason);
      health.authRefused(res.reason, at);
    } else {
      outbox.markPending(item.id, at, Math.max(health.blockedUntil, at), reason);
    }
    return at;
  }

  /**
   * One cheap read for a `Date` header before the first punch of a boot goes. Returns null when it
   * anchored the clock (the send goes on), else the time it failed (the punch waits, backed off).
   */
  async forAnchor(item: PunchRow): Promise<number | null> {
    const { outbox, health } = this.d;
    const p = await this.probe('anchor');
    if (!p) {
      const now = this.d.clock.now();
      outbox.markPending(item.id, now, now, "waiting for the service's time");
      return now;
    }
    if (this.d.anchoring.mayGo(item)) return null;
    const why = p.res.kind === 'ok' ? 'the service sent no usable Date header' : describeOutcome(p.res);
    outbox.markPending(
      item.id,
      p.at,
      Math.max(health.blockedUntil, p.at + this.d.opts.backoff.baseMs),
      `waiting for the service's time: ${why}`,
    );
    return p.at;
  }

  private hold(item: PunchRow, reason: string, now: number): void {
    this.d.log.warn("the service refuses this employee's punch (403); held, the others go on", {
      punchId: item.id,
      reason,
    });
    this.d.outbox.markHeld(item.id, now, 'forbidden', reason, now + this.d.opts.heldRetryMs);
    this.d.onEvent({ type: 'held', punchId: item.id, reason });
  }
}
