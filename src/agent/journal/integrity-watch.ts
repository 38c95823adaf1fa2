import type { Clock, Monotonic } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { IntegrityChecker, IntegrityRun } from '../../store/upkeep/integrity-check.js';
import { Schedule } from '../host/schedule.js';

/**
 * The last integrity check of the database, kept in settings so `timeclock status` shows it
 * without running one. `result`: ok; damaged (`problems`: SQLite's first findings); unchecked
 * (the check could not run: `problems` says why).
 */
import type { IntegrityRecord } from '../../store/settings/setting-keys.js';
export type { IntegrityRecord };

/** The first check this long after the start: the start-up work (a backlog, the roster) reads the disk first. */
export const INTEGRITY_FIRST_AFTER_MS = 15_000;
/** Then once a day: damage that appears while the terminal runs is found within a day. */
export const INTEGRITY_EVERY_MS = 24 * 3_600_000;

export type IntegrityWatchDeps = {
  dataDir: string;
  clock: Clock;
  mono: Monotonic;
  log: Logger;
  check: IntegrityChecker;
  /** Keeps the record for status (the agent's write, which never throws). */
  write(record: IntegrityRecord): void;
  /** A damaged file is also the terminal's last error. */
  noteError(message: string): void;
  changed(): void;
  firstAfterMs: number;
  everyMs: number;
};

/**
 * Runs SQLite's integrity check once per agent start, after punches are being taken, and then on
 * a schedule; never at open (it reads the whole file: seconds on a year of punches). The check
 * runs off the event loop (store/upkeep/integrity-check.ts), so capture never waits for it.
 */
export class IntegrityWatch {
  private run: IntegrityRun | null = null;
  private readonly schedule: Schedule<IntegrityRecord>;

  constructor(private readonly d: IntegrityWatchDeps) {
    this.schedule = new Schedule({ firstAfterMs: d.firstAfterMs, everyMs: d.everyMs, run: () => this.checkOnce() });
  }

  private get stopped(): boolean {
    return this.schedule.stopped;
  }

  start(): void {
    this.schedule.start();
  }

  stop(): void {
    this.schedule.stop();
    this.run?.cancel();
  }

  /** A check now, or the one under way; the schedule goes on from its end. */
  checkNow(): Promise<IntegrityRecord> {
    if (this.stopped)
      return Promise.resolve({
        at: this.d.clock.now(),
        ms: 0,
        result: 'unchecked',
        problems: ['the agent is stopping'],
      });
    return this.schedule.now();
  }

  private async checkOnce(): Promise<IntegrityRecord> {
    const at = this.d.clock.now();
    const t0 = this.d.mono();
    let record: IntegrityRecord;
    try {
      this.run = this.d.check(this.d.dataDir);
      const { problems } = await this.run.result;
      record = { at, ms: Math.round(this.d.mono() - t0), result: problems.length === 0 ? 'ok' : 'damaged', problems };
    } catch (e) {
      record = { at, ms: Math.round(this.d.mono() - t0), result: 'unchecked', problems: [(e as Error).message] };
    } finally {
      this.run = null;
    }
    // Stopped meanwhile: the database may be closed; nothing is recorded.
    if (this.stopped) return record;
    this.d.write(record);
    if (record.result === 'damaged') {
      this.d.log.error(
        'the database failed its integrity check: punches are still taken; copy the file aside for support',
        { problems: record.problems },
      );
      this.d.noteError(`the database failed its integrity check: ${record.problems[0] ?? ''}`);
    } else if (record.result === 'unchecked') {
      this.d.log.warn('the database integrity check could not run', { error: record.problems[0] });
    } else {
      this.d.log.info('database integrity check passed', { ms: record.ms });
    }
    this.d.changed();
    return record;
  }
}
