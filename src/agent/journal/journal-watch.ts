import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/database.js';
import { verifyJournal, type JournalVerification, type VerifyOptions } from '../../store/journal/journal-verify.js';
import { Schedule } from '../host/schedule.js';

/** The last verification of the evidence journal, kept in settings for status. */
import type { JournalVerifyRecord } from '../../store/settings/setting-keys.js';
export type { JournalVerifyRecord };

/** After the integrity check (15 s) has read the file, before retention (60 s). */
export const JOURNAL_FIRST_AFTER_MS = 30_000;

export type JournalWatchDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Keeps the record for status (the agent's write, which never throws). */
  write(record: JournalVerifyRecord): void;
  noteError(message: string): void;
  changed(): void;
  firstAfterMs: number;
  everyMs: number;
  /** Where the chain's head is mirrored outside the data directory (null: none). */
  mirrorDir?: string | null;
  /** Tests may pass their own. */
  verify?: (db: Db, o: VerifyOptions) => Promise<JournalVerification>;
};

/**
 * Verifies the evidence journal's chains shortly after the start and then on a schedule
 * (config `journal.verifyEveryMs`), in chunks with the event loop free between them. A broken
 * chain is said in the log and status; punches go on being taken and journalled.
 */
export class JournalWatch {
  private readonly schedule: Schedule<JournalVerifyRecord | null>;
  private readonly abort = new AbortController();

  constructor(private readonly d: JournalWatchDeps) {
    this.schedule = new Schedule({ firstAfterMs: d.firstAfterMs, everyMs: d.everyMs, run: () => this.verifyOnce() });
  }

  start(): void {
    this.schedule.start();
  }

  /** Ends a verification under way at its next chunk; resolves once it has, so the database can close. */
  async stop(): Promise<void> {
    this.schedule.stop();
    this.abort.abort();
    await this.schedule.current;
  }

  /** A verification now, or the one under way; null when the agent is stopping. */
  verifyNow(): Promise<JournalVerifyRecord | null> {
    if (this.schedule.stopped) return Promise.resolve(null);
    return this.schedule.now();
  }

  private async verifyOnce(): Promise<JournalVerifyRecord | null> {
    const at = this.d.clock.now();
    let v: JournalVerification;
    try {
      v = await (this.d.verify ?? verifyJournal)(this.d.db, {
        signal: this.abort.signal,
        mirrorDir: this.d.mirrorDir ?? null,
      });
    } catch (e) {
      if (this.schedule.stopped) return null;
      this.d.log.warn('the evidence journal could not be verified; the next run tries again', {
        error: (e as Error).message,
      });
      return null;
    }
    // Stopped meanwhile: the database may be closing; nothing is recorded.
    if (this.schedule.stopped) return null;
    const record: JournalVerifyRecord = {
      at,
      ok: v.ok,
      marks: v.marks,
      facts: v.facts,
      problem: v.firstProblem,
      ms: v.ms,
    };
    this.d.write(record);
    if (!v.ok) {
      const where =
        v.firstProblem?.nsr !== undefined
          ? { nsr: v.firstProblem.nsr }
          : v.firstProblem?.seq !== undefined
            ? { seq: v.firstProblem.seq }
            : {};
      this.d.log.warn(
        'the evidence journal does not verify: punches are still taken and journalled; keep a copy of the data directory for support',
        { problem: v.firstProblem?.message, ...where },
      );
      this.d.noteError(`the evidence journal does not verify: ${v.firstProblem?.message ?? ''}`);
    } else {
      this.d.log.info('evidence journal verified', { marks: v.marks, facts: v.facts, ms: v.ms });
    }
    this.d.changed();
    return record;
  }
}
