import type { Clock, Sleep } from '../domain/clock.js';
import { checkCode, type Credential } from '../domain/credential.js';
import { chooseTimeZone, localDateTime } from '../domain/local-time.js';
import type { ClockFlag, PunchResult } from '../domain/punch.js';
import type { WindowRule } from '../domain/sliding-window.js';
import type { Logger } from '../log.js';
import { isDiskFull, type Db } from '../store/database.js';
import type { Outbox, PunchRow } from '../store/outbox.js';
import type { RateSlots } from '../store/rate-slots.js';
import type { Roster, RosterEmployee } from '../store/roster.js';
import { readSetting, writeSetting } from '../store/settings.js';
import type { RateBudget } from '../sync/rate-budget.js';
import type { RosterSync, RosterSyncResult } from '../sync/roster-sync.js';
import type { Uploader, UploaderEvent } from '../sync/uploader.js';
import { readStatus, S, type AgentStatus, type RosterSyncRecord, type SiteRecord } from './status.js';

export type AgentEvents = {
  punch: PunchResult;
  status: AgentStatus;
};
type Listener<K extends keyof AgentEvents> = (e: AgentEvents[K]) => void;

export type AgentParts = {
  db: Db;
  outbox: Outbox;
  roster: Roster;
  rateSlots: RateSlots;
  budget: RateBudget;
  uploader: Uploader;
  rosterSync: RosterSync;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  rule: WindowRule;
  /** Zone used when neither the employee nor the site has one. */
  fallbackTimeZone: string;
  clockSkewThresholdMs: number;
  rosterRefreshMs: number;
  onClose: () => Promise<void> | void;
};

export type FlushOutcome = {
  done: boolean;
  /** Why sending cannot go on now, when it stopped short. */
  blockedBy: string | null;
  queue: AgentStatus['queue'];
};

/**
 * The one facade of the terminal: the CLI, the Electron IPC handlers and the web bridge all call
 * this and nothing below it. `punch` answers only after the punch is committed to disk.
 */
export class Agent {
  private readonly listeners: { [K in keyof AgentEvents]: Set<Listener<K>> } = { punch: new Set(), status: new Set() };
  private stopping = false;
  private rosterTimer: NodeJS.Timeout | null = null;
  private readonly stopCtl = new AbortController();
  private clockSkewMs: number | null;
  private lastCaptureAt: number;
  private consecutiveFailures = 0;
  private lastContactOk: boolean | null = null;

  constructor(private readonly p: AgentParts) {
    this.clockSkewMs = readSetting<{ ms: number }>(p.db, S.clockSkew)?.ms ?? null;
    this.lastCaptureAt = p.outbox.latestCaptureAt() ?? 0;
  }

  on<K extends keyof AgentEvents>(event: K, fn: Listener<K>): () => void {
    (this.listeners[event] as Set<Listener<K>>).add(fn);
    return () => (this.listeners[event] as Set<Listener<K>>).delete(fn);
  }

  private emit<K extends keyof AgentEvents>(event: K, value: AgentEvents[K]): void {
    for (const fn of this.listeners[event] as Set<Listener<K>>) {
      try {
        fn(value);
      } catch (e) {
        this.p.log.error('event listener failed', { event, error: (e as Error).message });
      }
    }
  }

  /** Recovers what a previous run left mid-send, starts delivery and the roster schedule. */
  async start(opts: { roster?: boolean; awaitRosterIfEmpty?: boolean } = {}): Promise<void> {
    const recovered = this.p.outbox.recoverInterrupted(this.p.clock.now());
    if (recovered > 0) this.p.log.warn('punches interrupted mid-send by the last stop will be checked on the server first', { count: recovered });
    this.p.uploader.start();
    if (opts.roster === false) return;
    const first = this.syncRoster();
    if (opts.awaitRosterIfEmpty && this.p.roster.size() === 0) await first;
    this.scheduleRoster();
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopCtl.abort();
    if (this.rosterTimer) clearTimeout(this.rosterTimer);
    await this.p.uploader.stop();
    await this.p.onClose();
  }

  // ---- capture -------------------------------------------------------------------------------

  punch(credential: Credential): PunchResult {
    if (this.stopping) return { ok: false, reason: 'shutting_down', message: 'Terminal is shutting down. Punch NOT registered.' };
    const check = checkCode(credential.value);
    if (!check.ok) return this.answer({ ok: false, reason: 'invalid_code', message: `Not registered: ${check.reason}.` });
    const employee = this.resolve(check.code);
    if (!employee) {
      const what = credential.kind === 'badge' ? 'Badge' : 'ID';
      return this.answer({ ok: false, reason: 'unknown_credential', message: `${what} not recognised. Punch NOT registered.` });
    }
    const now = this.p.clock.now();
    const site = readSetting<SiteRecord>(this.p.db, S.site);
    const zone = chooseTimeZone([employee.timezone, site?.timezone, this.p.fallbackTimeZone]);
    const local = localDateTime(now, zone);
    const flag = this.clockFlag(now);
    let outcome;
    try {
      outcome = this.p.outbox.insert({
        capturedAt: now,
        localDate: local.date,
        localTime: local.time,
        timeZone: zone,
        employeeKey: employee.id,
        employeeExternalId: employee.external_id,
        employeeName: employee.full_name,
        credentialKind: credential.kind,
        clockFlag: flag,
      });
    } catch (e) {
      const why = isDiskFull(e) ? 'the disk is full' : (e as Error).message;
      this.p.log.error('punch could not be saved', { error: (e as Error).message, employee: employee.external_id ?? employee.id });
      this.recordError(`punch could not be saved: ${why}`);
      return this.answer({
        ok: false,
        reason: 'storage_failed',
        message: `NOT registered: the terminal could not save the punch (${why}). Please tell the manager.`,
        employeeExternalId: employee.external_id,
      });
    }
    this.lastCaptureAt = Math.max(this.lastCaptureAt, now);
    if (!outcome.inserted) return this.answer(this.result(outcome.existing, true));
    this.p.uploader.wake();
    return this.answer({
      ok: true,
      punchId: outcome.id,
      employeeName: employee.full_name,
      employeeExternalId: employee.external_id,
      localDate: local.date,
      localTime: local.time,
      repeat: false,
      message: `Registered ${employee.full_name} at ${local.time}.`,
    });
  }

  private result(row: PunchRow, repeat: boolean): PunchResult {
    return {
      ok: true,
      punchId: row.id,
      employeeName: row.employee_name,
      employeeExternalId: row.employee_external_id,
      localDate: row.local_date,
      localTime: row.local_time,
      repeat,
      message: `${row.employee_name}: already registered at ${row.local_time}.`,
    };
  }

  /** For now a code is an employee's external_id; the identity issue widens this. */
  private resolve(code: string): RosterEmployee | null {
    return this.p.roster.findByExternalId(code);
  }

  private clockFlag(now: number): ClockFlag | null {
    if (now < this.lastCaptureAt - 60_000) return 'jumped_back';
    if (this.clockSkewMs !== null && Math.abs(this.clockSkewMs) > this.p.clockSkewThresholdMs) return 'skewed';
    return null;
  }

  private answer(r: PunchResult): PunchResult {
    this.emit('punch', r);
    return r;
  }

  // ---- delivery bookkeeping (called by the uploader) ---------------------------------------------

  onUploaderEvent(e: UploaderEvent): void {
    const now = this.p.clock.now();
    switch (e.type) {
      case 'server_date': {
        this.consecutiveFailures = 0;
        // The Date header truncates to the second: its middle (+500 ms) against the middle of the
        // exchange is an unbiased estimate, good to about ±0.5 s.
        const skew = e.serverDate + 500 - (e.sentAt + e.receivedAt) / 2;
        if (this.clockSkewMs === null || Math.abs(skew - this.clockSkewMs) > 1_500) {
          this.clockSkewMs = skew;
          this.safeWrite(S.clockSkew, { at: now, ms: Math.round(skew) });
        }
        this.contact(true, now);
        return;
      }
      case 'sent':
        this.contact(true, now);
        if (readSetting(this.p.db, S.authRefused)) this.safeWrite(S.authRefused, null);
        return;
      case 'rejected':
        this.recordError(`punch ${e.punchId} rejected: ${e.reason}`);
        return;
      case 'auth_refused':
        this.safeWrite(S.authRefused, { at: now, reason: e.reason });
        this.recordError(`API token refused: ${e.reason}`);
        return;
      case 'error':
        this.recordError(e.message);
        return;
      case 'failed':
        this.consecutiveFailures = e.failures;
        this.contact(e.reachable, now);
        this.recordError(e.error);
        return;
    }
  }

  private contact(ok: boolean, now: number): void {
    if (this.lastContactOk === ok) return;
    this.lastContactOk = ok;
    this.safeWrite(S.lastContact, { at: now, ok });
    this.emit('status', this.status());
  }

  private recordError(message: string): void {
    this.safeWrite(S.lastError, { at: this.p.clock.now(), message });
  }

  /** Bookkeeping must never take capture down with it (a full disk fails here too). */
  private safeWrite(key: string, value: unknown): void {
    try {
      writeSetting(this.p.db, key, value);
    } catch (e) {
      this.p.log.warn('could not record status', { key, error: (e as Error).message });
    }
  }

  // ---- roster ----------------------------------------------------------------------------------

  async syncRoster(): Promise<RosterSyncResult> {
    const res = await this.p.rosterSync.sync(this.stopCtl.signal);
    const prev = readSetting<RosterSyncRecord>(this.p.db, S.rosterSync);
    if (res.ok) {
      this.safeWrite(S.rosterSync, { at: res.finishedAt, ok: true, employees: res.employees, error: null, lastOkAt: res.finishedAt });
      if (res.site) this.safeWrite(S.site, { id: res.site._id, name: res.site.name, timezone: res.site.timezone ?? null });
    } else if (res.error !== 'cancelled') {
      this.safeWrite(S.rosterSync, { at: res.finishedAt, ok: false, employees: prev?.employees ?? null, error: res.error, lastOkAt: prev?.lastOkAt ?? null });
    }
    if (!this.stopping) this.emit('status', this.status());
    return res;
  }

  private scheduleRoster(): void {
    if (this.stopping) return;
    this.rosterTimer = setTimeout(() => {
      void this.syncRoster().finally(() => this.scheduleRoster());
    }, this.p.rosterRefreshMs);
    this.rosterTimer.unref();
  }

  // ---- admin -----------------------------------------------------------------------------------

  retryRejected(punchId: number): boolean {
    const ok = this.p.outbox.retryRejected(punchId, this.p.clock.now());
    if (ok) this.p.uploader.wake();
    return ok;
  }

  listRejected(): PunchRow[] {
    return this.p.outbox.listRejected();
  }

  status(): AgentStatus {
    const s = readStatus({ db: this.p.db, outbox: this.p.outbox, roster: this.p.roster, rateSlots: this.p.rateSlots, rule: this.p.rule, now: this.p.clock.now() });
    s.sendingPaused = this.p.budget.pause();
    s.roster.progress = this.p.rosterSync.progress;
    s.agentRunning = !this.stopping;
    return s;
  }

  /**
   * Sends what is due and resolves when nothing is left to send, or when sending cannot go on
   * (token refused, service unreachable), or after `maxWaitMs`.
   */
  async flush(opts: { maxWaitMs?: number; unreachableAfterFailures?: number } = {}): Promise<FlushOutcome> {
    const deadline = this.p.clock.now() + (opts.maxWaitMs ?? 10 * 60_000);
    const failuresLimit = opts.unreachableAfterFailures ?? 3;
    this.p.uploader.wake();
    for (;;) {
      const queue = this.p.outbox.counts();
      if (queue.pending + queue.sending + queue.in_doubt === 0) return { done: true, blockedBy: null, queue };
      const pause = this.p.budget.pause();
      if (pause?.reason === 'auth') return { done: false, blockedBy: 'the service refused the API token', queue };
      if (this.consecutiveFailures >= failuresLimit) {
        const last = readSetting<{ message: string }>(this.p.db, S.lastError);
        return { done: false, blockedBy: `the service is unreachable (${last?.message ?? 'no answer'})`, queue };
      }
      if (this.p.clock.now() >= deadline) return { done: false, blockedBy: 'time limit reached', queue };
      await this.p.sleep(50);
    }
  }
}
