import { z } from 'zod';
import type { Db, WritableDb } from '../database.js';
import { settingKeys, type Deleted, type RetentionPassRecord } from '../settings/setting-keys.js';
import { readSetting, writeSetting } from '../settings/settings.js';
import { DeliveryLog } from './delivery-log.js';
import { PunchMover } from './punch-mover.js';

export type { Deleted, RetentionPassRecord };

export const DAY_MS = 86_400_000;
/** The page cache of the connection while a pass runs (store default: 1 MB on the bookkeeping connection). */
const PASS_CACHE_KIB = 8_000;

/**
 * How long the terminal keeps what it no longer needs (config `retention`). Delivered punches are
 * on the service already: the terminal keeps them for the manager's lists (the admin Punches search
 * and CSV of the current and the previous month: 62 days cover both on any day), their per-attempt
 * delivery log a week for support, then lets them go; what counts as evidence is in the journal (kept
 * and archived on its own terms). The audit log (every PIN attempt) is personal data kept for a bounded time.
 */
const days = (fallback: number) =>
  z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(3_650, 'must be at most 3650 days (10 years)')
    .default(fallback);

export const retentionSchema = z
  .object({
    /** Delivered punches and their journal, counted from delivery (or a person's "delivered"). */
    deliveredDays: days(62),
    /** Audit log lines (PIN attempts, enrollments, settings changes), counted from when they were written. */
    auditDays: days(400),
    /** A delivered punch's delivery log (punch_journal), counted from delivery; its row stays deliveredDays. */
    deliveryLogDays: days(7),
  })
  .strict()
  .prefault({});

export type RetentionPolicy = z.infer<typeof retentionSchema>;
export const DEFAULT_RETENTION: RetentionPolicy = retentionSchema.parse(undefined);

export type AutoVacuum = 'none' | 'full' | 'incremental';
export type FileFigures = { bytes: number; freeBytes: number; pageSize: number; autoVacuum: AutoVacuum };

/**
 * Settings keys: rows deleted by retention since it first ran, and the last pass (agent/journal/retention-watch.ts).
 */
export const RETENTION_KEYS = {
  deletedEver: settingKeys.retentionDeleted,
  lastPass: settingKeys.retentionPass,
} as const;

/**
 * Deletes what the retention policy lets go, in batches the caller sizes, and gives free pages
 * back to the file system. Only punches in state 'sent' go: a rejected punch waits for a person's
 * retry at any age, and pending, sending, in-doubt and held ones are not delivered (unresolved
 * punches are another table, never touched). Age counts from sent_at (delivery or a person's
 * "delivered"), on the caller's clock. The evidence journal (journal_marks, journal_facts) is
 * never touched: a mark and its facts outlive their punch (store/journal/journal-read.ts still finds them).
 */
export class RetentionStore {
  private readonly stmts;
  private readonly deliveryLog: DeliveryLog;
  private readonly mover: PunchMover;

  constructor(private readonly db: WritableDb) {
    this.deliveryLog = new DeliveryLog(db);
    this.mover = new PunchMover(db);
    this.stmts = {
      // Migration 9's partial index: the oldest delivered first, never a pass over the rest.
      oldDelivered: db.prepare(
        `SELECT id FROM punches INDEXED BY punches_sent_at WHERE state = 'sent' AND sent_at < ? ORDER BY sent_at LIMIT ?`,
      ),
      // The state is asked again: only a delivered punch (and its journal) is ever deleted, whatever
      // selected it. The journal by punch_journal_punch, a seek per punch; before the punch, which it references.
      journalOf: db.prepare(
        `DELETE FROM punch_journal WHERE punch_id = @id AND EXISTS (SELECT 1 FROM punches WHERE id = @id AND state = 'sent')`,
      ),
      punch: db.prepare(`DELETE FROM punches WHERE id = @id AND state = 'sent'`),
      // Moved punches (migration 19) by capture time: sent_at is captured_at + sent_after, so a punch sent
      // before the cutoff was captured before it too (a clock stepped back between the two keeps it longer).
      compact: db.prepare(
        `DELETE FROM punches_delivered WHERE id IN (SELECT id FROM punches_delivered INDEXED BY punches_delivered_captured_at
           WHERE captured_at < @cutoff AND captured_at + sent_after < @cutoff ORDER BY captured_at LIMIT @limit)`,
      ),
      audit: db.prepare(
        'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log INDEXED BY audit_log_at WHERE at < ? ORDER BY at LIMIT ?)',
      ),
    };
  }

  /**
   * Up to `limit` delivered punches sent before `cutoff`, with their journal rows, in one
   * transaction; `more`: the batch was full, another may find more.
   */
  pruneDelivered(cutoff: number, limit: number): { punches: number; journal: number; more: boolean } {
    return this.db
      .transaction(() => {
        let punches = 0;
        let journal = 0;
        const ids = this.stmts.oldDelivered.all(cutoff, limit) as { id: number }[];
        for (const { id } of ids) {
          journal += this.stmts.journalOf.run({ id }).changes;
          punches += this.stmts.punch.run({ id }).changes;
        }
        const rest = limit - ids.length;
        const compact = rest > 0 ? this.stmts.compact.run({ cutoff, limit: rest }).changes : 0;
        punches += compact;
        this.addDeleted({ punches, journal, audit: 0 });
        return { punches, journal, more: ids.length === limit || (rest > 0 && compact === rest) };
      })
      .immediate();
  }

  /**
   * The delivery log lines of up to `limit` punches delivered before `cutoff` (store/upkeep/delivery-log.ts), in one
   * transaction; `more` as above. The punches stay.
   */
  pruneDeliveryLog(cutoff: number, limit: number): { journal: number; more: boolean } {
    return this.db
      .transaction(() => {
        const r = this.deliveryLog.prune(cutoff, limit);
        this.addDeleted({ punches: 0, journal: r.lines, audit: 0 });
        return { journal: r.lines, more: r.more };
      })
      .immediate();
  }

  /**
   * Up to `limit` delivered punches whose delivery log is gone move into their compact form
   * (store/upkeep/punch-mover.ts), in one transaction; `more` as above. Nothing is deleted.
   */
  moveDelivered(limit: number): { moved: number; more: boolean } {
    return this.mover.move(limit);
  }

  /** Up to `limit` audit lines written before `cutoff`, in one transaction; `more` as above. */
  pruneAudit(cutoff: number, limit: number): { audit: number; more: boolean } {
    return this.db
      .transaction(() => {
        const audit = this.stmts.audit.run(cutoff, limit).changes;
        this.addDeleted({ punches: 0, journal: 0, audit });
        return { audit, more: audit === limit };
      })
      .immediate();
  }

  /**
   * Gives up to `pages` free pages back to the file system (a file created with auto_vacuum incremental); how many
   * went.
   */
  incrementalVacuum(pages: number): number {
    const before = this.freePages();
    this.db.pragma(`incremental_vacuum(${Math.max(1, Math.floor(pages))})`);
    return before - this.freePages();
  }

  /**
   * For the length of a pass: a bigger page cache (a batch walks five indexes of a large file;
   * the bookkeeping connection's 1 MB cache re-reads them), and SQLite's own checkpoint inside
   * commits off while `workerCheckpoints` (store/upkeep/checkpoint-worker.ts) does it instead.
   * Returns what puts the connection back as it was.
   */
  beginPass(workerCheckpoints: boolean): { end(): void; checkpointHere(): void } {
    const cache = this.db.pragma('cache_size', { simple: true }) as number;
    const auto = this.db.pragma('wal_autocheckpoint', { simple: true }) as number;
    this.db.pragma(`cache_size = ${Math.min(cache, -PASS_CACHE_KIB)}`);
    // Already 0 while the agent's worker holds every connection's (store/upkeep/auto-checkpoint-hold.ts): the hold
    // gives it back, not the pass.
    const lowered = workerCheckpoints && auto > 0;
    if (lowered) this.db.pragma('wal_autocheckpoint = 0');
    const restore = () => {
      if (lowered) this.db.pragma(`wal_autocheckpoint = ${auto}`);
    };
    return {
      checkpointHere: restore,
      end: () => {
        this.db.pragma(`cache_size = ${cache}`);
        restore();
      },
    };
  }

  freePages(): number {
    return this.db.pragma('freelist_count', { simple: true }) as number;
  }

  /** Read from the file's header: costs nothing whatever the file's size. */
  file(): FileFigures {
    return fileFigures(this.db);
  }

  deletedEver(): Deleted {
    return deletedEver(this.db);
  }

  /** Kept in the batch's own transaction, so the figure is exact whatever stops a pass. */
  private addDeleted(d: Deleted): void {
    if (d.punches + d.journal + d.audit === 0) return;
    const t = deletedEver(this.db);
    writeSetting(this.db, RETENTION_KEYS.deletedEver, {
      punches: t.punches + d.punches,
      journal: t.journal + d.journal,
      audit: t.audit + d.audit,
    });
  }
}

export function deletedEver(db: Db): Deleted {
  return { punches: 0, journal: 0, audit: 0, ...readSetting(db, RETENTION_KEYS.deletedEver) };
}

/** When the last punch was delivered (an index seek); null when none is here. Retention prunes only old ones. */
export function lastDeliveryAt(db: Db): number | null {
  const row = db
    .prepare(`SELECT MAX(sent_at) AS t FROM punches INDEXED BY punches_sent_at WHERE state = 'sent'`)
    .get() as { t: number | null };
  return row.t;
}

export function fileFigures(db: Db): FileFigures {
  const size = db.pragma('page_size', { simple: true }) as number;
  const mode = db.pragma('auto_vacuum', { simple: true }) as number;
  return {
    bytes: (db.pragma('page_count', { simple: true }) as number) * size,
    freeBytes: (db.pragma('freelist_count', { simple: true }) as number) * size,
    pageSize: size,
    autoVacuum: mode === 2 ? 'incremental' : mode === 1 ? 'full' : 'none',
  };
}

/**
 * Everything at once, for `timeclock data compact` with no agent running: the policy's deletions,
 * then VACUUM with auto_vacuum incremental, which rewrites the file without its free pages and
 * switches a file of an earlier version (auto_vacuum none) to the mode new files are created in.
 */
export function compactDatabase(
  db: WritableDb,
  policy: RetentionPolicy,
  now: number,
): { deleted: Deleted; before: FileFigures; after: FileFigures } {
  const t0 = performance.now();
  const store = new RetentionStore(db);
  const before = store.file();
  const deleted: Deleted = { punches: 0, journal: 0, audit: 0 };
  for (let more = true; more;) {
    const r = store.pruneDelivered(now - policy.deliveredDays * DAY_MS, 5_000);
    deleted.punches += r.punches;
    deleted.journal += r.journal;
    more = r.more;
  }
  for (let more = true; more;) {
    const r = store.pruneDeliveryLog(now - policy.deliveryLogDays * DAY_MS, 5_000);
    deleted.journal += r.journal;
    more = r.more;
  }
  for (let more = true; more;) more = store.moveDelivered(5_000).more;
  for (let more = true; more;) {
    const r = store.pruneAudit(now - policy.auditDays * DAY_MS, 20_000);
    deleted.audit += r.audit;
    more = r.more;
  }
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  const after = store.file();
  const ms = Math.round(performance.now() - t0);
  const record: RetentionPassRecord = {
    at: now,
    ms,
    outcome: 'done',
    deleted,
    freedBytes: Math.max(0, before.bytes - after.bytes),
    longestBatchMs: ms,
    error: null,
  };
  writeSetting(db, RETENTION_KEYS.lastPass, record);
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { deleted, before, after };
}
