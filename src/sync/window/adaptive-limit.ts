import {
  aimdLimit,
  aimdPaced,
  aimdRateLimited,
  aimdRule,
  aimdShift,
  aimdStart,
  type AimdRule,
  type AimdState,
} from '../../domain/rate/adaptive-rate.js';
import type { Random } from '../../domain/time/clock.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { RateSharing } from './shared-window-link.js';

export type AdaptiveOptions = {
  /** False: always the configured limit (the control of the fleet tests). Default true. */
  adapt?: boolean;
  /** A cut was made: the new limit in force, from `was`. */
  onCut?: (limit: number, was: number) => void;
  /** Spreads when terminals cut together start earning back (see aimdRateLimited); none without it. */
  random?: Random;
};

/** Requests of this terminal answered (any status) in the last window, none before `since` (a pause's end). */
export type Answered = { count: number; since: number };

/**
 * This terminal's own limit (src/domain/rate/adaptive-rate.ts), for the RateBudget. Only while the
 * terminal runs its own window ('local', 'fallback-local'): when the fleet draws from the shared
 * window in Redis, that window coordinates the terminals and a 429 is no one's to cut.
 */
export class AdaptiveLimit {
  private rule: AimdRule;
  private state: AimdState;
  /** When the last window's 429s arrived: answered, but not admitted. */
  private refusedAt: number[] = [];

  constructor(
    rule: WindowRule,
    private readonly opts: AdaptiveOptions = {},
  ) {
    this.rule = aimdRule(rule.limit, rule.windowMs);
    this.state = aimdStart(this.rule);
  }

  /** A new configured limit (config, admin screen): the controller starts over from it. */
  reset(rule: WindowRule): void {
    this.rule = aimdRule(rule.limit, rule.windowMs);
    this.state = aimdStart(this.rule);
    this.refusedAt = [];
  }

  /** The service answered 429 at `now` with a pause of `pauseMs`, while slots came from `sharing`. */
  rateLimited(now: number, sharing: RateSharing['shared'], answered: Answered, pauseMs: number): void {
    if (this.opts.adapt === false || sharing === 'redis') return;
    this.refusedAt = this.refusedAt.filter((t) => t > now - this.rule.windowMs && t <= now);
    const admitted = answered.count - this.refusedAt.filter((t) => t >= answered.since).length;
    this.refusedAt.push(now);
    const was = this.current(now);
    const before = this.state;
    this.state = aimdRateLimited(before, this.rule, now, { admitted, pauseMs, jitter: this.opts.random?.() ?? 0 });
    if (this.state !== before) this.opts.onCut?.(this.current(now), was);
  }

  /** The limit in force at `now`. */
  current(now: number): number {
    return this.opts.adapt === false ? this.rule.ceiling : aimdLimit(this.state, this.rule, now);
  }

  /** Least time between two requests: a window / the limit once cut (see aimdPaced), else none. */
  spacingMs(now: number): number {
    if (this.opts.adapt === false || !aimdPaced(this.state, this.rule, now)) return 0;
    return this.rule.windowMs / this.current(now);
  }

  clockStepped(ms: number): void {
    this.state = aimdShift(this.state, ms);
    this.refusedAt = this.refusedAt.map((t) => t + ms);
  }
}
