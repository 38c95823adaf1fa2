/**
 * What the agent records for status as things happen (the service's answers, the clock's error,
 * contact, readers, roster progress), kept in settings so `timeclock status` in another process
 * reads the same. Bookkeeping never throws: a full disk must not take capture down with it.
 */
import type { Clock } from '../../domain/time/clock.js';
import type { ReaderStatus } from '../../domain/punch/reader-status.js';
import type { Logger } from '../../log.js';
import type { WritableDb } from '../../store/database.js';
import { settingKeys, type RosterProgress, type SettingKey } from '../../store/settings/setting-keys.js';
import { readSetting, writeSetting } from '../../store/settings/settings.js';
import type { UploaderEvent } from '../../sync/delivery/uploader-types.js';
import type { ServiceStateRecord } from '../../domain/rate/service-state.js';
import { serviceKeys } from '../../store/settings/service-records.js';

export type StatusRecorderParts = {
  db: WritableDb;
  clock: Clock;
  log: Logger;
  /** Something status shows changed (the agent's coalesced `status` event). */
  changed: () => void;
};

/** How stale "the service last answered at" may be: one settings write per this, not one per answer. */
const ANSWERED_EVERY_MS = 10_000;

/**
 * Built right after the databases open and handed to every part that reports (open-stores.ts, build-agent.ts):
 * the uploader, roster sync, time source, capture, roster keeper, audit runner, liveness, watches.
 */
export class StatusRecorder {
  private consecutiveFailures = 0;
  /** A set-up problem is on record (kept in memory so each answer need not read it back). */
  private setupProblem: boolean;
  private lastContactOk: boolean | null = null;
  private answeredWrittenAt = -Infinity;

  constructor(private readonly p: StatusRecorderParts) {
    this.setupProblem = readSetting(p.db, settingKeys.setupProblem) !== null;
  }

  /** Delivery bookkeeping, called by the uploader. */
  onUploaderEvent(e: UploaderEvent): void {
    this.p.changed();
    const now = this.p.clock.now();
    switch (e.type) {
      case 'server_date':
        // The clock's error is the time source's (every answer anchors it); whether the service answers is the service
        // watch's.
        this.consecutiveFailures = 0;
        return;
      case 'sent':
        if (readSetting(this.p.db, settingKeys.authRefused)) this.safeWrite(settingKeys.authRefused, null);
        return;
      case 'rejected':
        this.noteError(`punch ${e.punchId} rejected: ${e.reason}`);
        return;
      case 'auth_refused':
        this.safeWrite(settingKeys.authRefused, { at: now, reason: e.reason });
        this.noteError(`API token refused: ${e.reason}`);
        return;
      case 'error':
        this.noteError(e.message);
        return;
      case 'failed':
        this.consecutiveFailures = e.failures;
        this.noteError(e.error);
        return;
      case 'held':
        this.noteError(`punch ${e.punchId} held: ${e.reason}`);
        return;
      case 'setup':
        this.setupProblem = true;
        this.safeWrite(settingKeys.setupProblem, { at: now, reason: e.reason, location: e.location });
        return;
      case 'answered':
        // The API answered again: whatever was wrong with the set-up is over.
        if (this.setupProblem) {
          this.setupProblem = false;
          this.safeWrite(settingKeys.setupProblem, null);
        }
        return;
    }
  }

  /**
   * The system clock's error against the time in force (told on a change only, agent/time/time-source.ts);
   * said plainly (log and last error) when it is past the tolerance. An NTP-synchronised clock is
   * not told to fix NTP: the service's clock, within its bound, is what differs.
   */
  noteClockError(skewMs: number | null, toleranceMs: number, ntp: 'yes' | 'no' | 'unknown' = 'unknown'): void {
    if (skewMs === null) return;
    const now = this.p.clock.now();
    this.safeWrite(settingKeys.clockSkew, { at: now, ms: Math.round(skewMs) });
    if (Math.abs(skewMs) > toleranceMs) {
      const advice = ntp === 'yes' ? "this clock is NTP-synchronised: check the service's clock" : 'fix NTP';
      const message = `the system clock is ${Math.round(skewMs / -1000)} s off the service's (${skewMs < 0 ? 'fast' : 'slow'}): punches are recorded at the service's time; ${advice}`;
      this.p.log.warn(message, { skewMs: Math.round(skewMs) });
      this.noteError(message);
    } else {
      this.p.log.info('the system clock agrees with the time in force', { skewMs: Math.round(skewMs) });
    }
    this.p.changed();
  }

  /** Whether the service answers now (false before any answer). */
  isOnline(): boolean {
    return this.lastContactOk === true;
  }

  /** "Last answer" for the connection tab: every HTTP answer counts, written at most every 10 s. */
  answered(now: number): void {
    if (now - this.answeredWrittenAt < ANSWERED_EVERY_MS) return;
    this.answeredWrittenAt = now;
    this.safeWrite(settingKeys.lastAnswered, { at: now });
  }

  /**
   * Whether the service answers changed (agent/delivery/service-watch.ts): `online` is true only when it answers
   * without server errors.
   */
  serviceState(r: ServiceStateRecord): void {
    this.lastContactOk = r.state === 'online';
    this.safeWrite(serviceKeys.serviceState, r);
    this.safeWrite(settingKeys.lastContact, { at: r.since, ok: r.state === 'online' });
    this.p.changed();
  }

  /** Records the last error for status; never throws. */
  noteError(message: string): void {
    this.safeWrite(settingKeys.lastError, { at: this.p.clock.now(), message });
  }

  /** Bookkeeping must never take capture down with it (a full disk fails here too). */
  safeWrite<T>(key: SettingKey<T>, value: T): void {
    try {
      writeSetting(this.p.db, key, value);
    } catch (e) {
      this.p.log.warn('could not record status', { key: key.name, error: (e as Error).message });
    }
  }

  /** Reader state, kept where `timeclock status` in another process can read it. */
  noteReaders(states: ReaderStatus[]): void {
    this.safeWrite(settingKeys.readers, states);
    this.p.changed();
  }

  /** Status changed outside the usual events (a settings change, a background check's result). */
  statusChanged(): void {
    this.p.changed();
  }

  noteRosterProgress(p: RosterProgress | null): void {
    this.safeWrite(settingKeys.rosterProgress, p);
    this.p.changed();
  }

  /** Why sending cannot go on after `failuresLimit` failures in a row (a set-up problem, no answer), or null. */
  blockedBy(failuresLimit: number): string | null {
    const setup = readSetting(this.p.db, settingKeys.setupProblem);
    if (setup && this.consecutiveFailures >= failuresLimit) return `a set-up problem: ${setup.reason}`;
    if (this.consecutiveFailures >= failuresLimit) {
      const last = readSetting(this.p.db, settingKeys.lastError);
      return `the service is unreachable (${last?.message ?? 'no answer'})`;
    }
    return null;
  }
}
