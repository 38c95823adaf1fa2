/**
 * Checkpoints of the write-ahead log off the event loop, for one run of roster work that writes
 * much and was promised nobody durably (a sync's staged pages, a pass freeing retired rosters). A
 * checkpoint inside a commit on the loop copies the log into the file and fsyncs it: 40–100 ms on a
 * busy disk, more on an SD card. While a worker takes them, those commits take none
 * (relaxedCommits' `elsewhere`); a worker that fails hands them back to SQLite.
 */

/** What store/upkeep/checkpoint-worker.ts's Checkpointer offers (one request at a time). */
export type WalCheckpoints = { checkpoint(): Promise<void>; close(): Promise<void> };

export type RosterOptions = {
  /**
   * Opens a checkpointer (store/upkeep/checkpoint-worker.ts) for a sync's staging or a freeing of
   * retired rosters: their commits then take no checkpoint on the event loop.
   * None, or one that fails: SQLite checkpoints inside them, every STAGING_CHECKPOINT_PAGES.
   */
  checkpoints?: () => WalCheckpoints;
};

export class OffLoopCheckpoints {
  private ckpt: WalCheckpoints | null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(open: (() => WalCheckpoints) | undefined) {
    try {
      this.ckpt = open?.() ?? null;
    } catch {
      this.ckpt = null;
    }
  }

  /** A worker takes the checkpoints: the work's commits take none. */
  get active(): boolean {
    return this.ckpt !== null;
  }

  private async once(): Promise<void> {
    const c = this.ckpt;
    if (!c) return;
    try {
      await c.checkpoint();
    } catch {
      this.ckpt = null;
      void c.close().catch(() => {});
    }
  }

  /** One checkpoint, not awaited (the next page is fetched meanwhile); asked during one, one more after it. */
  soon(): void {
    if (!this.ckpt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.once();
      } while (this.again && this.ckpt);
    })().finally(() => {
      this.running = null;
    });
  }

  /** One checkpoint, awaited (between two steps of a pass: the loop runs meanwhile). */
  async now(): Promise<void> {
    await this.running;
    await this.once();
  }

  async close(): Promise<void> {
    await this.running;
    const c = this.ckpt;
    this.ckpt = null;
    await c?.close().catch(() => {});
  }
}

/**
 * The off-loop checkpoints a roster opened and has not seen closed: a close is not awaited where the
 * work ends (a swap answers at once), so the agent's stop waits here. A worker still starting when
 * the database closes would open it again and leave its log files behind.
 */
export class CheckpointWorkers {
  private readonly closing = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly open: (() => WalCheckpoints) | undefined) {}

  /** None once stopped: what runs after that takes SQLite's own checkpoints. */
  start(): OffLoopCheckpoints {
    return new OffLoopCheckpoints(this.stopped ? undefined : this.open);
  }

  /** Closes `c` (not awaited here; `stop` awaits it). */
  end(c: OffLoopCheckpoints | null): Promise<void> {
    if (!c) return Promise.resolve();
    const closed = c.close().finally(() => this.closing.delete(closed));
    this.closing.add(closed);
    return closed;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.closing]);
  }
}
