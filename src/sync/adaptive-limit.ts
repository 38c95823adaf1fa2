import { aimdLimit, aimdNext, aimdRule, aimdShift, aimdStart, type AimdRule, type AimdState } from '../domain/adaptive-rate.js';
import type { Random } from '../domain/clock.js';
import type { WindowRule } from '../domain/sliding-window.js';
import type { RateSharing } from './shared-window-link.js';

export type AdaptiveOptions = {
  /** False: always the configured limit (the control of the fleet tests). Default true. */
  adapt?: boolean;
  /** A cut was made: the new limit in force, from `was`. */
  onCut?: (limit: number, was: number) => void;
  /** Spreads when terminals cut together start earning back (see aimdNext); none without it. */
  random?: Random;
};

/**
 * This terminal's own limit under AIMD (src/domain/adaptive-rate.ts), for the RateBudget. Only
 * while the terminal runs its own window ('local', 'fallback-local'): when the fleet draws from
 * the shared window in Redis, that window coordinates the terminals and a 429 is no one's to cut.
 */
export class AdaptiveLimit {
  private rule: AimdRule;
  private state: AimdState;

  constructor(
    rule: WindowRule,
    now: number,
    private readonly opts: AdaptiveOptions = {},
  ) {
    this.rule = aimdRule(rule.limit, rule.windowMs);
    this.state = aimdStart(this.rule, now);
  }

  /** A new configured limit (config, admin screen): the controller starts over from it. */
  reset(rule: WindowRule, now: number): void {
    this.rule = aimdRule(rule.limit, rule.windowMs);
    this.state = aimdStart(this.rule, now);
  }

  /** The service answered 429 at `now`, while slots came from `sharing`. */
  rateLimited(now: number, sharing: RateSharing['shared']): void {
    if (this.opts.adapt === false || sharing === 'redis') return;
    const was = this.current(now);
    const before = this.state;
    this.state = aimdNext(before, this.rule, now, true, this.opts.random?.() ?? 0);
    if (this.state.lastCutAt !== before.lastCutAt) this.opts.onCut?.(aimdLimit(this.state), was);
  }

  /** The limit in force at `now` (earned back for the whole windows since the last 429). */
  current(now: number): number {
    if (this.opts.adapt === false) return this.rule.ceiling;
    this.state = aimdNext(this.state, this.rule, now, false);
    return aimdLimit(this.state);
  }

  clockStepped(ms: number): void {
    this.state = aimdShift(this.state, ms);
  }
}
