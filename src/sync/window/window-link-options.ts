/** The shapes around the shared-window link (shared-window-link.ts): what it is built from, reads and reports. */
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { Slot } from '../../domain/rate/sliding-window.js';
import type { Logger } from '../../log.js';
import type { RedisFault } from './redis-fault.js';
import type { SharedWindow } from './shared-window.js';

/** Where this terminal's slots come from now (status `rate`). */
export type RateSharing = {
  /**
   * redis: the account's shared window; joining: started, Redis not answered yet (nothing is sent
   * meanwhile, for at most `joinWaitMs`); fallback-local: Redis is configured but out of reach, this
   * terminal's own share; local: no Redis.
   */
  shared: 'redis' | 'joining' | 'fallback-local' | 'local';
  redisError: { at: number; message: string } | null;
  /** Why the terminal is on its own share (null unless fallback-local). */
  reason?: RedisFault | null;
  /** When the current mode began. */
  since?: number | null;
};

export type LinkOptions = {
  /** The request timeout: how long past one window an unanswered slot still counts. */
  inFlightMs: number;
  /** Back-off between attempts after a call failed on a live connection (a timeout, a bad answer). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** At start, how long nothing is sent while Redis is still connecting before the own share is chosen. */
  joinWaitMs?: number;
  /** The mode, or why the terminal is on its own share, changed (status is recorded). */
  changed?: () => void;
};

/** What the link reads from the budget it serves. */
export type BudgetView = {
  wake(): void;
  held(): readonly (Slot & { id: number })[];
  windowMs(): number;
  /** Who took slot `id` when an earlier run did (its name in the window), else null. */
  ownerOf?(id: number): string | null;
};

/** What the link to the shared window is built from (agent/delivery/shared-rate.ts). */
export type SharedWindowLinkDeps = {
  window: SharedWindow;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  opts: LinkOptions;
};
