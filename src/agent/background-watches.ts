/**
 * The agent's background checks, built together: the database's integrity, retention passes and
 * the evidence journal's verification. They record through the status recorder, built before them.
 */
import type { Config } from '../config.js';
import type { Monotonic } from '../domain/time/clock.js';
import type { Checkpointer } from '../store/upkeep/checkpoint-worker.js';
import type { BookkeepingDb, DurableDb } from '../store/database.js';
import { checkIntegrityInWorker } from '../store/upkeep/integrity-check.js';
import { RetentionStore } from '../store/upkeep/retention.js';
import { settingKeys, type SettingKey } from '../store/settings/setting-keys.js';
import { INTEGRITY_EVERY_MS, INTEGRITY_FIRST_AFTER_MS, IntegrityWatch } from './journal/integrity-watch.js';
import { JOURNAL_FIRST_AFTER_MS, JournalWatch } from './journal/journal-watch.js';
import { nsrMirrorDir } from './journal/open-journal.js';
import { journalArchiving } from './journal/journal-archiving.js';
import { RETENTION_EVERY_MS, RETENTION_FIRST_AFTER_MS, RetentionWatch } from './journal/retention-watch.js';
import type { BuildOptions, Runtime } from './host/runtime.js';

/** What the watches record through (the status recorder's bookkeeping, which never throws). */
export type WatchSink = {
  safeWrite<T>(key: SettingKey<T>, value: T): void;
  noteError(message: string): void;
  statusChanged(): void;
};

export type Watches = { integrity: IntegrityWatch; retention: RetentionWatch; journal: JournalWatch };

export function buildWatches(
  c: {
    config: Config;
    rt: Runtime;
    opts: BuildOptions;
    db: DurableDb;
    bookkeeping: BookkeepingDb;
    mono: Monotonic;
    /** A checkpoint worker holding every connection's own checkpoints (agent/open-stores.ts). */
    checkpoints: () => Checkpointer;
  },
  sink: WatchSink,
): Watches {
  const { config, rt, opts, db, bookkeeping, mono, checkpoints } = c;
  const integrity = new IntegrityWatch({
    dataDir: config.dataDir,
    clock: rt.clock,
    mono,
    log: rt.log,
    check: opts.integrity?.check ?? checkIntegrityInWorker,
    write: (record) => sink.safeWrite(settingKeys.integrity, record),
    noteError: (message) => sink.noteError(message),
    changed: () => sink.statusChanged(),
    firstAfterMs: opts.integrity?.firstAfterMs ?? INTEGRITY_FIRST_AFTER_MS,
    everyMs: opts.integrity?.everyMs ?? INTEGRITY_EVERY_MS,
  });
  // On the bookkeeping connection: a deletion a power cut undoes is done again by the next pass.
  const retention = new RetentionWatch({
    store: new RetentionStore(bookkeeping),
    policy: config.retention,
    clock: rt.clock,
    mono,
    log: rt.log,
    checkpointer: checkpoints,
    write: (record) => sink.safeWrite(settingKeys.retentionPass, record),
    changed: () => sink.statusChanged(),
    firstAfterMs: opts.retention?.firstAfterMs ?? RETENTION_FIRST_AFTER_MS,
    everyMs: opts.retention?.everyMs ?? RETENTION_EVERY_MS,
    archive: journalArchiving({ db: bookkeeping, config, clock: rt.clock, mono, log: rt.log }),
  });
  const journal = new JournalWatch({
    db,
    clock: rt.clock,
    log: rt.log,
    write: (record) => sink.safeWrite(settingKeys.journalVerify, record),
    noteError: (message) => sink.noteError(message),
    changed: () => sink.statusChanged(),
    firstAfterMs: opts.journal?.firstAfterMs ?? JOURNAL_FIRST_AFTER_MS,
    everyMs: config.journal.verifyEveryMs,
    mirrorDir: nsrMirrorDir(config),
  });
  return { integrity, retention, journal };
}
