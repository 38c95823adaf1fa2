/**
 * What the status bar says about delivery, and whether the agent itself answers. Pure.
 */
import type { StatusView } from '../../src/contract.js';

export type ConnectionState = 'online' | 'errors' | 'offline' | 'paused' | 'setup' | 'unknown';

/**
 * A set-up problem wins (the service answered from another address or not as the API: nothing
 * goes out until the address is fixed, whatever else is true), then paused sending (the service
 * refused the token or asked to wait), then whether the service answers: online, answering with
 * server errors (`service.state` errors: it answers, it cannot take punches now), or offline.
 */
export function connectionOf(status: StatusView | null): { state: ConnectionState; waiting: number } {
  if (!status) return { state: 'unknown', waiting: 0 };
  const state: ConnectionState = status.setupProblem
    ? 'setup'
    : status.sendingPaused
      ? 'paused'
      : status.service?.state === 'errors'
        ? 'errors'
        : status.online === true
          ? 'online'
          : status.online === false
            ? 'offline'
            : 'unknown';
  return { state, waiting: status.unsent };
}

/** A punch saved now waits in the queue rather than going out at once. */
export function isQueued(status: StatusView | null): boolean {
  return !status || status.online !== true || status.sendingPaused !== null || status.setupProblem !== null;
}

/**
 * The agent counts as unreachable once failures (status calls, the event stream) have gone on for
 * more than `graceMs` with no success in between. One success makes it reachable again.
 */
export class Reachability {
  #failingSince: number | null = null;

  constructor(private readonly graceMs = 5_000) {}

  ok(): void {
    this.#failingSince = null;
  }

  fail(now: number): void {
    if (this.#failingSince === null) this.#failingSince = now;
  }

  get failing(): boolean {
    return this.#failingSince !== null;
  }

  unreachable(now: number): boolean {
    return this.#failingSince !== null && now - this.#failingSince > this.graceMs;
  }

  /** When to look again for `unreachable` to turn true; null when not failing. */
  nextCheckAt(): number | null {
    return this.#failingSince === null ? null : this.#failingSince + this.graceMs + 1;
  }
}
