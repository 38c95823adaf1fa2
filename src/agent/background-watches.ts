/**
 * The agent's background checks, built together: the database's integrity, retention passes and
 * the evidence journal's verification. They record through the agent, which exists only once
 * they are built: `sink` is looked up at each call.
 */
import type { Config } from '../config.js';
import type { Monotonic } from '../domain/clock.js';
import { checkpointInWorker } from '../store/checkpoint-worker.js';
import type { BookkeepingDb, DurableDb } from '../store/database.js';
import { checkIntegrityInWorker } from '../store/integrity-check.js';
import { RetentionStore } from '../store/retention.js';
import { settingKeys, type SettingKey } from '../store/setting-keys.js';
import { INTEGRITY_EVERY_MS, INTEGRITY_FIRST_AFTER_MS, IntegrityWatch } from './integrity-watch.js';
import { JOURNAL_FIRST_AFTER_MS, JournalWatch } from './journal-watch.js';
import { nsrMirrorDir } from './open-journal.js';
import { RETENTION_EVERY_MS, RETENTION_FIRST_AFTER_MS, RetentionWatch } from './retention-watch.js';
import type { BuildOptions, Runtime } from './runtime.js';

/** What the watches record through (the agent's bookkeeping, which never throws). */
export type WatchSink = {
  safeWrite<T>(key: SettingKey<T>, value: T): void;
  noteError(message: string): void;
  statusChanged(): void;
};

export type Watches = { integrity: IntegrityWatch; retention: RetentionWatch; journal: JournalWatch };

export function buildWatches(
  c: { config: Config; rt: Runtime; opts: BuildOptions; db: DurableDb; bookkeeping: BookkeepingDb; mono: Monotonic },
  sink: () => WatchSink | null,
): Watches {
  const { config, rt, opts, db, bookkeeping, mono } = c;
  const integrity = new IntegrityWatch({
    dataDir: config.dataDir,
    clock: rt.clock,
    mono,
    log: rt.log,
    check: opts.integrity?.check ?? checkIntegrityInWorker,
    write: (record) => sink()?.safeWrite(settingKeys.integrity, record),
    noteError: (message) => sink()?.noteError(message),
    changed: () => sink()?.statusChanged(),
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
    checkpointer: () => checkpointInWorker(config.dataDir),
    write: (record) => sink()?.safeWrite(settingKeys.retentionPass, record),
    changed: () => sink()?.statusChanged(),
    firstAfterMs: opts.retention?.firstAfterMs ?? RETENTION_FIRST_AFTER_MS,
    everyMs: opts.retention?.everyMs ?? RETENTION_EVERY_MS,
  });
  const journal = new JournalWatch({
    db,
    clock: rt.clock,
    log: rt.log,
    write: (record) => sink()?.safeWrite(settingKeys.journalVerify, record),
    noteError: (message) => sink()?.noteError(message),
    changed: () => sink()?.statusChanged(),
    firstAfterMs: opts.journal?.firstAfterMs ?? JOURNAL_FIRST_AFTER_MS,
    everyMs: config.journal.verifyEveryMs,
    mirrorDir: nsrMirrorDir(config),
  });
  return { integrity, retention, journal };
}
