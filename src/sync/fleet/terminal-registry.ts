/**
 * The account's registry of live terminals in Redis (issue 24): each terminal announces itself (id,
 * instance, host, pid, start) with an expiry it renews, and reads who else is live. Two live
 * instances under one terminal id (a cloned data directory, a copied config) are a conflict: the
 * shared window still counts both (its members carry the instance), but logs, metrics and receipts
 * can no longer tell the two apart. Reported in status and the log (once per conflict, naming hosts).
 */
import { z } from 'zod';
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';

export type TerminalEntry = { id: string; instance: string; host: string; pid: number; startedAt: number };

/** Other live instances under this terminal's id, since when this one knows. */
export type IdConflict = { since: number; others: TerminalEntry[] };

/** What the registry needs of Redis (redis-window.ts). */
export type RegistryStore = {
  readonly reachable: boolean;
  /** Renews `entry` for `ttlMs` and answers every live entry. */
  announce(entry: string, ttlMs: number): Promise<string[]>;
  withdraw(entry: string): Promise<void>;
};

const entrySchema = z.object({
  id: z.string().max(100),
  instance: z.string().max(100),
  host: z.string().max(255),
  pid: z.number().int(),
  startedAt: z.number(),
});

/** An entry as another terminal (of any version) wrote it, or null when it is not one. */
export function parseEntry(text: string): TerminalEntry | null {
  try {
    const r = entrySchema.safeParse(JSON.parse(text));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** What the terminal registry is built from (agent/delivery/shared-rate.ts). */
export type TerminalRegistryDeps = {
  store: RegistryStore;
  self: TerminalEntry;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  opts: { everyMs: number; ttlMs: number; changed?: () => void };
};

export class TerminalRegistry {
  private readonly entry: string;
  private current: IdConflict | null = null;
  private loggedKey = '';
  private readonly stopped = new AbortController();
  private announcing: Promise<void> | null = null;

  private readonly store: RegistryStore;
  private readonly self: TerminalEntry;
  private readonly clock: Clock;
  private readonly sleep: Sleep;
  private readonly log: Logger;
  private readonly opts: { everyMs: number; ttlMs: number; changed?: () => void };

  constructor(d: TerminalRegistryDeps) {
    const { self } = d;
    this.store = d.store;
    this.self = self;
    this.clock = d.clock;
    this.sleep = d.sleep;
    this.log = d.log;
    this.opts = d.opts;
    // Fixed member text: each renewal rescores the same entry.
    this.entry = JSON.stringify(self);
  }

  /** Announces now (if Redis is reachable) and then every `everyMs` until stopped. */
  start(): void {
    void (async () => {
      while (!this.stopped.signal.aborted) {
        await this.announceNow();
        await this.sleep(this.opts.everyMs, this.stopped.signal);
      }
    })();
  }

  conflict(): IdConflict | null {
    return this.current;
  }

  /**
   * One renewal, and what it tells of the others; a failure leaves the last finding (the window's link reports Redis's
   * state).
   */
  announceNow(): Promise<void> {
    if (this.stopped.signal.aborted || !this.store.reachable) return Promise.resolve();
    this.announcing ??= this.store
      .announce(this.entry, this.opts.ttlMs)
      .then((live) => this.found(live.map(parseEntry).filter((e): e is TerminalEntry => e !== null)))
      .catch(() => {})
      .finally(() => {
        this.announcing = null;
      });
    return this.announcing;
  }

  /** Takes this terminal out of the registry (best effort: its entry expires anyway). */
  async stop(): Promise<void> {
    this.stopped.abort();
    await this.announcing;
    if (!this.store.reachable) return;
    await this.store.withdraw(this.entry).catch(() => {});
  }

  private found(live: TerminalEntry[]): void {
    const others = live
      .filter((e) => e.id === this.self.id && e.instance !== this.self.instance)
      .sort((a, b) => a.startedAt - b.startedAt);
    const key = others.map((e) => e.instance).join(',');
    const before = this.current;
    if (others.length === 0) {
      this.current = null;
      if (before)
        this.log.info('terminal id conflict over: no other live terminal uses this id', { terminalId: this.self.id });
      this.loggedKey = '';
    } else {
      this.current = { since: before?.since ?? this.clock.now(), others };
      if (key !== this.loggedKey) {
        this.loggedKey = key;
        const where = others.map((e) => `host ${e.host} (instance ${e.instance}, pid ${e.pid})`).join(', ');
        this.log.warn(
          `terminal id conflict: ${this.self.id} is also used by ${where}; this one runs on host ${this.self.host} (instance ${this.self.instance}). ` +
            'Give each terminal its own id: delete terminal-id in the copied data directory, or set a distinct terminalId',
          { terminalId: this.self.id, hosts: others.map((e) => e.host), instances: others.map((e) => e.instance) },
        );
      }
    }
    if (
      (before === null) !== (this.current === null) ||
      (before && this.current && key !== before.others.map((e) => e.instance).join(','))
    )
      this.opts.changed?.();
  }
}
