/**
 * Whether the agent answers, as the screen sees it: the status poll (every 15 s, every 2 s while
 * calls fail) and the grace before the offline-agent screen (connection.ts Reachability). Any sign
 * of the agent (a status, an event, the link up) counts as contact.
 */
import type { StatusView } from '../../src/contract.js';
import type { Client } from './bridge.js';
import { Reachability } from './connection.js';

const STATUS_POLL_MS = 15_000;
const STATUS_POLL_FAILING_MS = 2_000;

export type ContactHooks = {
  /** A status read by the poll. */
  status(s: StatusView): void;
  /** Whether the screen shows the agent as reachable now. */
  reachable(): boolean;
  /** The agent went out of reach (false) or came back (true). */
  setReachable(reachable: boolean): void;
};

export class AgentContact {
  readonly #reach = new Reachability();
  #pollTimer: ReturnType<typeof setTimeout> | null = null;
  #reachTimer: ReturnType<typeof setTimeout> | null = null;
  #polling = false;

  constructor(
    private readonly client: Client,
    private readonly hooks: ContactHooks,
  ) {}

  /** How soon to try loading the screen again after a failed first load. */
  static readonly RETRY_MS = STATUS_POLL_FAILING_MS;

  /** From the first complete load on, the status is polled. */
  startPolling(): void {
    this.#polling = true;
    this.#schedulePoll(STATUS_POLL_MS);
  }

  /** Any sign of the agent (true) or of its absence (false). */
  contact(up: boolean): void {
    if (up) {
      this.#reach.ok();
      if (this.#reachTimer !== null) clearTimeout(this.#reachTimer);
      this.#reachTimer = null;
      if (!this.hooks.reachable()) this.hooks.setReachable(true);
      return;
    }
    const wasFailing = this.#reach.failing;
    this.#reach.fail(performance.now());
    if (!wasFailing && this.#polling) this.#schedulePoll(STATUS_POLL_FAILING_MS);
    this.#checkReach();
  }

  #schedulePoll(ms: number): void {
    if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
    this.#pollTimer = setTimeout(() => void this.#poll(), ms);
  }

  async #poll(): Promise<void> {
    const r = await this.client.call('status', {});
    if (r.ok) {
      this.hooks.status(r.value);
      this.contact(true);
    } else {
      this.contact(false);
    }
    this.#schedulePoll(this.#reach.failing ? STATUS_POLL_FAILING_MS : STATUS_POLL_MS);
  }

  #checkReach(): void {
    const now = performance.now();
    if (this.#reach.unreachable(now)) {
      if (this.hooks.reachable()) this.hooks.setReachable(false);
      return;
    }
    const at = this.#reach.nextCheckAt();
    if (at === null || this.#reachTimer !== null) return;
    this.#reachTimer = setTimeout(
      () => {
        this.#reachTimer = null;
        this.#checkReach();
      },
      Math.max(0, at - now),
    );
  }
}
