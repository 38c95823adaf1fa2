import type { Clock, Monotonic } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Checkpointer } from '../../store/upkeep/checkpoint-worker.js';
import {
  DAY_MS,
  type Deleted,
  type RetentionPassRecord,
  type RetentionPolicy,
  type RetentionStore,
} from '../../store/upkeep/retention.js';
import type { ArchivePassResult } from './journal-archiver.js';
import { Schedule } from '../host/schedule.js';

export type { RetentionPassRecord } from '../../store/upkeep/retention.js';

/** After the start-up work and the integrity check (15 s). */
export const RETENTION_FIRST_AFTER_MS = 60_000;
export const RETENTION_EVERY_MS = 24 * 3_600_000;

/**
 * Each batch is one transaction on the event loop's thread: sized so one takes about TARGET_MS
 * (halved after one that took more, grown by half after one that took less than half of it), so
 * the loop never waits much longer than that, on a fast disk or a slow SD card alike. The caps
 * keep one grown batch from landing on cold pages at many times its usual cost.
 */
const TARGET_MS = 15;
const PUNCHES = { first: 50, min: 10, max: 500 };
/** Audit lines are a row and an index entry each: about a quarter of a punch's cost. */
const AUDIT_PER_PUNCH = 4;
const PAGES = { first: 128, min: 16, max: 1_024 };

export type RetentionWatchDeps = {
  store: RetentionStore;
  policy: RetentionPolicy;
  clock: Clock;
  mono: Monotonic;
  log: Logger;
  /** One per pass (store/upkeep/checkpoint-worker.ts); null: SQLite checkpoints inside commits, on the loop. */
  checkpointer: (() => Checkpointer) | null;
  /** Keeps the record for status (the agent's write, which never throws). */
  write(record: RetentionPassRecord): void;
  changed(): void;
  firstAfterMs: number;
  everyMs: number;
  /** The evidence journal's archiving (agent/journal/journal-archiver.ts), run in the pass's steps; absent: none. */
  archive?: ((step: { pause: () => Promise<void>; stopped: () => boolean }) => Promise<ArchivePassResult>) | null;
};

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function resized(n: number, ms: number, bounds: { min: number; max: number }): number {
  if (ms > TARGET_MS) return Math.max(bounds.min, Math.floor(n / 2));
  if (ms < TARGET_MS / 2) return Math.min(bounds.max, Math.ceil(n * 1.5));
  return n;
}

/**
 * Deletes what the retention policy lets go (store/upkeep/retention.ts) shortly after the agent starts
 * and then daily, in small transactions with the event loop free between them, then gives the
 * freed pages back (files created with auto_vacuum incremental; others reuse them for new rows).
 */
export class RetentionWatch {
  private readonly schedule: Schedule<RetentionPassRecord>;

  constructor(private readonly d: RetentionWatchDeps) {
    this.schedule = new Schedule({ firstAfterMs: d.firstAfterMs, everyMs: d.everyMs, run: () => this.pass() });
  }

  private get stopped(): boolean {
    return this.schedule.stopped;
  }

  get policy(): RetentionPolicy {
    return this.d.policy;
  }

  start(): void {
    this.schedule.start();
  }

  /** Ends a pass under way at its next batch; resolves once it has, so the database can close. */
  async stop(): Promise<void> {
    this.schedule.stop();
    await this.schedule.current;
  }

  /** A pass now, or the one under way; the schedule goes on from its end. */
  runNow(): Promise<RetentionPassRecord> {
    return this.schedule.now();
  }

  private async pass(): Promise<RetentionPassRecord> {
    const { store, policy, mono } = this.d;
    const at = this.d.clock.now();
    const t0 = mono();
    const deleted: Deleted = { punches: 0, journal: 0, audit: 0 };
    let pageSize = 0;
    let freedPages = 0;
    let moved = 0;
    let longest = 0;
    let outcome: RetentionPassRecord['outcome'] = 'stopped';
    let error: string | null = null;
    /** One slice on the loop: runs `fn`, then lets the loop go (until the log is checkpointed). */
    const slice = async <T>(fn: () => T): Promise<[T, number]> => {
      const b0 = mono();
      const r = fn();
      const ms = mono() - b0;
      longest = Math.max(longest, ms);
      await settle();
      return [r, ms];
    };
    let ckpt: Checkpointer | null = null;
    let tuned: ReturnType<RetentionStore['beginPass']> | null = null;
    const settle = async () => {
      if (!ckpt) return yieldToLoop();
      try {
        await ckpt.checkpoint();
      } catch (e) {
        this.d.log.warn('retention: checkpoints go back to SQLite', { error: (e as Error).message });
        ckpt = null;
        tuned?.checkpointHere();
      }
    };
    try {
      pageSize = store.file().pageSize;
      try {
        ckpt = this.d.checkpointer?.() ?? null;
      } catch (e) {
        this.d.log.warn('retention: no checkpoint worker; SQLite checkpoints inside commits', {
          error: (e as Error).message,
        });
      }
      tuned = store.beginPass(ckpt !== null);
      // A checkpoint first: the worker is up (its start-up competes for the CPU) and the log starts small.
      await settle();
      let n = PUNCHES.first;
      for (let more = true; more && !this.stopped;) {
        const [r, ms] = await slice(() => store.pruneDelivered(at - policy.deliveredDays * DAY_MS, n));
        deleted.punches += r.punches;
        deleted.journal += r.journal;
        more = r.more;
        n = resized(n, ms, PUNCHES);
      }
      // The delivery log of punches delivered a while ago (the punches stay): batches the size of the punches'.
      n = PUNCHES.first;
      for (let more = true; more && !this.stopped;) {
        const [r, ms] = await slice(() => store.pruneDeliveryLog(at - policy.deliveryLogDays * DAY_MS, n));
        deleted.journal += r.journal;
        more = r.more;
        n = resized(n, ms, PUNCHES);
      }
      // Then those whose log is gone into their compact form (migration 19): batches the size of the punches'.
      n = PUNCHES.first;
      for (let more = true; more && !this.stopped;) {
        const [r, ms] = await slice(() => store.moveDelivered(n));
        moved += r.moved;
        more = r.more;
        n = resized(n, ms, PUNCHES);
      }
      n = PUNCHES.first * AUDIT_PER_PUNCH;
      for (let more = true; more && !this.stopped;) {
        const [r, ms] = await slice(() => store.pruneAudit(at - policy.auditDays * DAY_MS, n));
        deleted.audit += r.audit;
        more = r.more;
        n = resized(n, ms, { min: PUNCHES.min * AUDIT_PER_PUNCH, max: PUNCHES.max * AUDIT_PER_PUNCH });
      }
      // The journal's old months into archives, in steps of the same size, then its rows' pages freed below.
      if (this.d.archive && !this.stopped) {
        const a = await this.d.archive({ pause: settle, stopped: () => this.stopped });
        longest = Math.max(longest, a.longestStepMs);
        if (a.archives.length + a.removed.length + a.deleted > 0) {
          this.d.log.info('journal archived', {
            archives: a.archives.join(',') || null,
            marks: a.marks,
            facts: a.facts,
            deletedRows: a.deleted,
            removedArchives: a.removed.join(',') || null,
            longestStepMs: Math.round(a.longestStepMs),
          });
        }
      }
      // Also what a roster swap's staging table left free: the freelist is the file's, not a table's.
      if (store.file().autoVacuum === 'incremental') {
        for (let pages = PAGES.first; !this.stopped && store.freePages() > 0;) {
          const [freed, ms] = await slice(() => store.incrementalVacuum(pages));
          freedPages += freed;
          if (freed === 0) break;
          pages = resized(pages, ms, PAGES);
        }
      }
      if (!this.stopped) outcome = 'done';
    } catch (e) {
      outcome = 'failed';
      error = (e as Error).message;
    } finally {
      (tuned as ReturnType<RetentionStore['beginPass']> | null)?.end();
      await (ckpt as Checkpointer | null)?.close();
    }
    const record: RetentionPassRecord = {
      at,
      ms: Math.round(mono() - t0),
      outcome,
      deleted,
      freedBytes: freedPages * pageSize,
      longestBatchMs: Math.round(longest * 10) / 10,
      error,
    };
    this.d.write(record);
    if (outcome === 'failed') this.d.log.warn('retention pass failed; the next one tries again', { error, ...deleted });
    else if (deleted.punches + deleted.journal + deleted.audit + freedPages + moved > 0)
      this.d.log.info('retention pass', { ...deleted, moved, freedBytes: record.freedBytes, ms: record.ms, outcome });
    this.d.changed();
    return record;
  }
}
