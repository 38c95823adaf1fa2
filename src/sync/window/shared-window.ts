import type { Priority } from './priority.js';

/** A slot taken, or how long until one may be. */
export type SharedTake = { ok: true } | { ok: false; waitMs: number };

/** A slot this terminal holds, as it is put back into the shared window: how long it still counts. */
export type HeldSlot = {
  slotId: number;
  countsForMs: number;
  /** The name of the process that took it (an earlier run of this terminal), when not this one: it keeps its member. */
  owner?: string | null;
};

/**
 * How long this terminal's punches have waited (ms, on its own clock): the oldest, which the slot
 * asked for is meant for, and the one after it (null: none). The shared window serves the fleet's
 * oldest waiting punches first (issue 24 item 3).
 */
export type PunchWaiting = {
  oldestMs: number;
  nextMs: number | null;
  /**
   * How many more of its punches are due after this one (the slots kept for it at most); default 1 with a next punch.
   */
  more?: number;
};

/**
 * One sliding window shared by every terminal of an account (redis-window.ts keeps it in Redis).
 * Slots are named by this terminal, its process (instance) and its local slot id. Every call
 * rejects when the window is out of reach or answers what it never should (the caller then falls
 * back to its own share); none waits for a reconnection.
 */
export interface SharedWindow {
  /** This process's name in the window (`<terminalId>:<instanceId>`): its slots' members begin with it. */
  readonly self: string;
  /** True while calls can reach the window (connected); false: they would fail at once. */
  readonly reachable: boolean;
  /**
   * Takes a slot unless `limit` already count; anything but a punch also yields to punches waiting
   * anywhere, and a punch to other terminals' punches that have waited longer (`waiting`).
   */
  take(priority: Priority, slotId: number, windowMs: number, waiting?: PunchWaiting | null): Promise<SharedTake>;
  /** The request was answered now: the slot counts one more window. */
  release(slotId: number, windowMs: number): Promise<void>;
  /** Nothing was sent on the slot: it counts no more. */
  forget(slotId: number): Promise<void>;
  /** Puts slots held locally back into the window (on reconnecting); never shortens one it has. */
  restore(slots: readonly HeldSlot[]): Promise<void>;
  /** Called when the window becomes reachable (again) or unreachable, with why. */
  onChange(fn: (reachable: boolean, error: string | null) => void): void;
  close(): Promise<void>;
}
