import type { WritableDb } from '../database.js';

/**
 * While a worker takes the write-ahead log's checkpoints (store/upkeep/checkpoint-worker.ts), no
 * commit on the agent's connections takes one: SQLite's own checkpoint runs inside whichever commit
 * finds the log over 1,000 pages, on the event loop, with its fsyncs. A roster sync's pages grow the
 * log faster than anything else, and a punch or a rate slot committed meanwhile paid for it: 40-93 ms
 * of the loop in `roster-stalls` (issue 28 item 9). Held while any worker lives; at the last release
 * each connection gets back the setting it had at the first hold.
 */
export class AutoCheckpointHold {
  private holders = 0;
  private readonly saved = new Map<WritableDb, number>();

  constructor(private readonly dbs: readonly WritableDb[]) {}

  /** A worker checkpoints from now on; the function returned says it no longer does (once; later calls do nothing). */
  hold(): () => void {
    if (this.holders++ === 0)
      for (const db of this.dbs) {
        if (!db.open) continue;
        this.saved.set(db, db.pragma('wal_autocheckpoint', { simple: true }) as number);
        db.pragma('wal_autocheckpoint = 0');
      }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders > 0) return;
      for (const [db, pages] of this.saved) if (db.open) db.pragma(`wal_autocheckpoint = ${pages}`);
      this.saved.clear();
    };
  }

  /** Whether a worker holds the checkpoints now (read by its test). */
  get held(): boolean {
    return this.holders > 0;
  }
}
