/**
 * The callers waiting for a slot of the request budget (rate-budget.ts): each queued by priority,
 * then arrival; those whose signal aborted answered null and dropped; and the one served next.
 * Apart from the budget's pump, which decides when a slot is free and for how long to wait.
 */
import type { Priority } from './priority.js';
import type { PauseReason, SlotTicket, Waiter } from './rate-budget-deps.js';
import type { PunchWaiting } from './shared-window.js';

/** What a caller of `RateBudget.acquire` asks beside its priority and purpose. */
export type AcquireOptions = {
  signal?: AbortSignal;
  standAside?: () => boolean;
  duringAuthPause?: boolean;
  waiting?: () => PunchWaiting | null;
};

/** Queues a caller in order of priority, then arrival; `onAbort` runs when its signal aborts while it waits. */
export function enqueue(
  waiters: Waiter[],
  place: { priority: Priority; seq: number; purpose: string },
  opts: AcquireOptions,
  onAbort: () => void,
  resolve: (t: SlotTicket | null) => void,
): void {
  const w: Waiter = {
    ...place,
    signal: opts.signal,
    standAside: opts.standAside,
    duringAuthPause: opts.duringAuthPause ?? false,
    waiting: opts.waiting,
    // The signal outlives many acquisitions (the uploader's stop signal): unhook when served.
    resolve: (t) => {
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(t);
    },
  };
  waiters.push(w);
  waiters.sort((a, b) => a.priority - b.priority || a.seq - b.seq);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
}

/** Callers whose signal aborted leave the queue, answered null. */
export function dropAborted(waiters: Waiter[]): void {
  for (let i = waiters.length - 1; i >= 0; i--) {
    const w = waiters[i] as Waiter;
    if (w.signal?.aborted) {
      waiters.splice(i, 1);
      w.resolve(null);
    }
  }
}

/** The caller served next, if any may be served now. */
export function nextWaiter(waiters: Waiter[], paused: boolean, pauseReason: PauseReason | null): Waiter | undefined {
  // A refused token stops everything but the check of a new one; a 429 stops everything.
  return paused
    ? pauseReason === 'auth'
      ? waiters.find((w) => w.duringAuthPause)
      : undefined
    : waiters.find((w) => !w.standAside?.());
}
