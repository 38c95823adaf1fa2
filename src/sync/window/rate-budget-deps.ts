/** What the request budget (rate-budget.ts) is built from, and the tickets and waiters it deals in. */
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { RateSlots } from '../../store/settings/rate-slots.js';
import type { AdaptiveOptions } from './adaptive-limit.js';
import type { Priority } from './priority.js';
import type { SharedWindowLink } from './shared-window-link.js';
import type { PunchWaiting } from './shared-window.js';

export type SlotTicket = { readonly id: number; readonly purpose: string };

export type Waiter = {
  priority: Priority;
  seq: number;
  purpose: string;
  signal: AbortSignal | undefined;
  /** While this returns true the waiter stands aside (roster sync while punches are due). */
  standAside: (() => boolean) | undefined;
  /** Served while sending is paused for a refused token (the check of a new token). */
  duringAuthPause: boolean;
  /** How long the punches this slot is for have waited, read when the fleet's window is asked. */
  waiting: (() => PunchWaiting | null) | undefined;
  resolve: (t: SlotTicket | null) => void;
};

export type PauseReason = 'retry_after' | 'auth';

/** What the request budget is built from. */
export type RateBudgetDeps = {
  store: RateSlots;
  clock: Clock;
  sleep: Sleep;
  rule: WindowRule;
  /** The fleet's shared window (Redis); null: this terminal's own. */
  link?: SharedWindowLink | null;
  adaptive?: AdaptiveOptions;
  /** Share of the window roster traffic leaves free for punches (see punchReserve); 0: none. */
  reserveShare?: number;
  /**
   * The self-service reads go only while the whole window is below this share of the limit, so a shift change finds it
   * nearly empty.
   */
  selfServiceShare?: number;
};
