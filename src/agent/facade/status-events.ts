/**
 * The agent's events: a punch's answer as it happens, and `status` coalesced, so a screen's waiting
 * count follows each punch and each delivery without a status query per change.
 */
import type { Logger } from '../../log.js';
import type { PunchAnswer } from '../receipts/receipts.js';
import type { AgentStatus } from '../status/status.js';

export type AgentEvents = {
  punch: PunchAnswer;
  status: AgentStatus;
};
type Listener<K extends keyof AgentEvents> = (e: AgentEvents[K]) => void;

/** How long `status` listeners wait to hear about a burst of changes in one event. */
const STATUS_COALESCE_MS = 150;

export class AgentEventHub {
  private readonly listeners: { [K in keyof AgentEvents]: Set<Listener<K>> } = { punch: new Set(), status: new Set() };
  private stopped = false;
  private statusTimer: NodeJS.Timeout | null = null;
  /** What a `status` event carries: the agent's status, told by the agent once it is built. */
  private status: (() => AgentStatus) | null = null;

  /** Built right after the databases open, before the parts that report through it (agent/open-stores.ts). */
  constructor(private readonly log: Logger) {}

  /** The agent's status, read when a coalesced `status` event goes out. */
  statusFrom(status: () => AgentStatus): void {
    this.status = status;
  }

  on<K extends keyof AgentEvents>(event: K, fn: Listener<K>): () => void {
    (this.listeners[event] as Set<Listener<K>>).add(fn);
    return () => (this.listeners[event] as Set<Listener<K>>).delete(fn);
  }

  /** The queue, the readers or the roster changed: one `status` event for a burst of changes, a moment later. */
  statusSoon(): void {
    if (this.stopped || this.statusTimer || this.listeners.status.size === 0) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      if (this.stopped || !this.status) return;
      try {
        this.emit('status', this.status());
      } catch (e) {
        this.log.warn('status for listeners failed', { error: (e as Error).message });
      }
    }, STATUS_COALESCE_MS);
    this.statusTimer.unref();
  }

  emit<K extends keyof AgentEvents>(event: K, value: AgentEvents[K]): void {
    for (const fn of this.listeners[event] as Set<Listener<K>>) {
      try {
        fn(value);
      } catch (e) {
        this.log.error('event listener failed', { event, error: (e as Error).message });
      }
    }
  }

  /** No `status` event after this (the database closes once the agent has stopped). */
  stop(): void {
    this.stopped = true;
    if (this.statusTimer) clearTimeout(this.statusTimer);
  }
}
