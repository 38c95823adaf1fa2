import { randomBytes } from 'node:crypto';
import { clockStep, type Clock, type Monotonic, type Sleep } from '../domain/clock.js';
import { checkCode, type Credential } from '../domain/credential.js';
import { enrollmentCodes, type PunchResult } from '../domain/punch.js';
import type { Logger } from '../log.js';
import type { Db } from '../store/database.js';
import type { AuditLog } from '../store/audit-log.js';
import type { Identities } from '../store/identities.js';
import type { UnresolvedPunches } from '../store/unresolved.js';
import type { Outbox, PunchRow } from '../store/outbox.js';
import type { RateSlots } from '../store/rate-slots.js';
import type { Roster, RosterEmployee } from '../store/roster.js';
import { readSetting, writeSetting } from '../store/settings.js';
import type { RateBudget } from '../sync/rate-budget.js';
import type { RosterSync, RosterSyncResult } from '../sync/roster-sync.js';
import type { UnresolvedPunch } from '../store/unresolved.js';
import type { RosterKeeper } from './roster-keeper.js';
import { decideHeldPunch, type HeldDecision } from './held-punches.js';
import type { Uploader, UploaderEvent } from '../sync/uploader.js';
import type { HidReader } from '../input/hid-reader.js';
import type { Capture } from './capture.js';
import { employeeNotFound, type AdminResult, type EnrollResult, type IdentityAdmin } from './identity-admin.js';
import type { SettingsAdmin } from './settings.js';
import { readStatus, S, type AgentStatus, type SetupProblemRecord } from './status.js';
import type { RequestCount, RequestCounts } from './request-counts.js';
import type { IntegrityRecord, IntegrityWatch } from './integrity-watch.js';
import type { RetentionWatch } from './retention-watch.js';
import type { JournalVerifyRecord, JournalWatch } from './journal-watch.js';
import type { PunchAnswer, Receipts } from './receipts.js';
import type { AfdAdmin } from './afd-admin.js';
import type { AuditRange, AuditRunner, AuditRunOptions } from './audit-runner.js';
import type { AuditReport } from '../sync/audit-compare.js';
import type { AuditState } from '../contract.js';
import type { PunchReceiptView } from '../contract.js';


/** A scan arriving again by another source within this long is the same scan. */
const SAME_SCAN_MS = 1_500;

export type AgentEvents = {
  punch: PunchAnswer;
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
  /** Runs and plans roster syncs, and applies what a new roster means for punches already taken. */
  keeper: RosterKeeper;
  capture: Capture;
  identities: Identities;
  unresolved: UnresolvedPunches;
  audit: AuditLog;
  admin: IdentityAdmin;
  readers: HidReader[];
  clock: Clock;
  /** Monotonic ms: with `clock`, tells a step of the wall clock from time passing. */
  mono: Monotonic;
  /** The longest retry back-off: at start, a retry scheduled further ahead is due now. */
  maxRetryAheadMs: number;
  sleep: Sleep;
  log: Logger;
  /** The admin screen's token/site/budget settings (its rule is the budget's). */
  settings: SettingsAdmin;
  rosterRefreshMs: number;
  /** This terminal's name in logs, status and metrics. */
  terminalId: string;
  /** Requests to the service by kind and status, for metrics. */
  requests: RequestCounts;
  /** Null while a punch could be saved, else why not (store/health-probe.ts). */
  storageProblem: () => string | null;
  /** The database's integrity check, off the event loop, after the start and then daily. */
  integrity: IntegrityWatch;
  /** Deletes what the retention policy lets go, in small batches, after the start and then daily. */
  retention: RetentionWatch;
  /** Verifies the evidence journal's chains, in chunks, after the start and then on its schedule. */
  journal: JournalWatch;
  /** The worker's receipt of a punch, from the evidence journal (result screen, admin lookup). */
  receipts: Receipts;
  /** The admin screen's AFD export: drives, the export, one-time downloads (agent/afd-admin.ts). */
  afd: AfdAdmin;
  /** The journal compared with the service's records (agent/audit-runner.ts). */
  auditor: AuditRunner;
  onClose: () => Promise<void> | void;
};

/** /healthz: whether punches can be captured now. */
export type Health = { ok: true } | { ok: false; reason: string };

export type FlushOutcome = {
  done: boolean;
  /** Why sending cannot go on now, when it stopped short. */
  blockedBy: string | null;
  queue: AgentStatus['queue'];
};

/** How often the wall clock is compared with the monotonic one. */
const CLOCK_CHECK_MS = 1_000;

/** How long a badge scan's PIN may take. */
const PIN_CHALLENGE_MS = 60_000;
/** How long `status` listeners wait to hear about a burst of changes in one event. */
const STATUS_COALESCE_MS = 150;

/**
 * The one facade of the terminal: the CLI, the Electron IPC handlers and the web bridge all call
 * this and nothing below it. `punch` answers only after the punch is committed to disk.
 */
export class Agent {
  private readonly listeners: { [K in keyof AgentEvents]: Set<Listener<K>> } = { punch: new Set(), status: new Set() };
  private stopping = false;
  private readonly stopCtl: AbortController;
  private readonly recentScans = new Map<string, { at: number; source: string }>();
  private enrollArm: { employee: RosterEmployee; until: number; resolve: (r: EnrollResult) => void } | null = null;
  private consecutiveFailures = 0;
  private clockSeen: { wall: number; mono: number } | null = null;
  private clockTimer: NodeJS.Timeout | null = null;
  /** A set-up problem is on record (kept in memory so each answer need not read it back). */
  private setupProblem: boolean;
  private lastContactOk: boolean | null = null;
  private statusTimer: NodeJS.Timeout | null = null;
  /** The badge scan waiting for its PIN (one at a time: a terminal has one person in front of it). */
  private pinChallenge: { id: string; credential: Credential; until: number } | null = null;

  /** `stopCtl`: aborted by `stop()`; the parts built with its signal (the roster keeper) stop with it. */
  constructor(
    private readonly p: AgentParts,
    stopCtl = new AbortController(),
  ) {
    this.stopCtl = stopCtl;
    this.setupProblem = readSetting(p.db, S.setupProblem) !== null;
  }

  on<K extends keyof AgentEvents>(event: K, fn: Listener<K>): () => void {
    (this.listeners[event] as Set<Listener<K>>).add(fn);
    return () => (this.listeners[event] as Set<Listener<K>>).delete(fn);
  }

  /**
   * The queue, the readers or the roster changed: one `status` event for a burst of changes, a
   * moment later, so a screen's waiting count follows each punch and each delivery without a
   * status query per change.
   */
  private statusSoon(): void {
    if (this.stopping || this.statusTimer || this.listeners.status.size === 0) return;
    this.statusTimer = setTimeout(() => {
      this.statusTimer = null;
      if (this.stopping) return;
      try {
        this.emit('status', this.status());
      } catch (e) {
        this.p.log.warn('status for listeners failed', { error: (e as Error).message });
      }
    }, STATUS_COALESCE_MS);
    this.statusTimer.unref();
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
    // A clock stepped back while no agent ran left retries hours ahead: those are due now.
    const clamped = this.p.outbox.clampDeadlines(this.p.clock.now(), this.p.maxRetryAheadMs);
    if (clamped > 0) this.p.log.warn('retries scheduled beyond the longest back-off (the clock was stepped back while stopped) are due now', { count: clamped });
    this.clockSeen = { wall: this.p.clock.now(), mono: this.p.mono() };
    this.clockTimer = setInterval(() => this.checkClock(), CLOCK_CHECK_MS);
    this.clockTimer.unref();
    this.p.uploader.start();
    for (const r of this.p.readers) r.start();
    // Taking punches from here on: the check of the whole file comes after, in the background.
    this.p.integrity.start();
    this.p.journal.start();
    this.p.retention.start();
    if (opts.roster === false) return;
    const first = this.p.keeper.start().finally(() => this.noteRosterProgress(null));
    if (opts.awaitRosterIfEmpty && this.p.roster.size() === 0) await first;
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopCtl.abort();
    if (this.statusTimer) clearTimeout(this.statusTimer);
    if (this.clockTimer) clearInterval(this.clockTimer);
    this.p.keeper.stop();
    this.p.integrity.stop();
    // Ends at its next batch: nothing of it runs once the database is closed.
    await this.p.retention.stop();
    await this.p.journal.stop();
    await Promise.all(this.p.readers.map((r) => r.stop()));
    await this.p.uploader.stop();
    await this.p.onClose();
  }

  /**
   * Compares the wall clock with the monotonic one since the last look. A step (NTP correcting a
   * wrong clock, a person setting it) moves every stored deadline with it — retries, rate slots,
   * pauses — so a step back does not stop sending for its length nor a step forward burst; it is
   * logged once and wakes the uploader. Runs every second; returns the step in ms, or null.
   */
  checkClock(): number | null {
    const cur = { wall: this.p.clock.now(), mono: this.p.mono() };
    const prev = this.clockSeen;
    this.clockSeen = cur;
    if (!prev) return null;
    const step = clockStep(prev, cur);
    if (step === null) return null;
    this.p.log.warn('the wall clock stepped; retries and the rate window move with it', { stepMs: Math.round(step) });
    this.noteError(`the system clock stepped by ${Math.round(step / 1000)} s; deadlines adjusted`);
    try {
      this.p.outbox.shiftDeadlines(step);
    } catch (e) {
      this.noteError(`could not move retry times after a clock step: ${(e as Error).message}`);
    }
    this.p.budget.clockStepped(step);
    this.p.uploader.clockStepped(step);
    this.statusSoon();
    return step;
  }

  // ---- capture -------------------------------------------------------------------------------

  /**
   * Takes a scanned or typed credential (and the PIN when one is required) and answers only
   * after the punch is committed. A badge scan while enrollment is armed enrolls it instead.
   */
  async punch(credential: Credential, opts: { pin?: string; offerPinChallenge?: boolean } = {}): Promise<PunchAnswer> {
    if (this.stopping) return this.answer({ ok: false, reason: 'shutting_down', message: 'Terminal is shutting down. Punch NOT registered.' });
    const arm = this.enrollArm;
    if (arm && credential.kind === 'badge' && this.p.clock.now() <= arm.until) {
      this.enrollArm = null;
      const check = checkCode(credential.value);
      const r: EnrollResult = check.ok ? this.p.admin.enrollFor(check.code, arm.employee, 'scan') : { ok: false, message: check.reason, code: 'badge_invalid' };
      arm.resolve(r);
      return this.answer({
        ok: false,
        reason: 'enrollment',
        message: r.ok ? r.message : `Badge NOT enrolled: ${r.message}`,
        enrollment: { ok: r.ok, code: enrollmentCodes.find((c) => c === r.code) ?? 'badge_invalid', ...(r.params ? { params: r.params } : {}) },
      });
    }
    const r = await this.p.capture.punch(credential, opts.pin === undefined ? {} : { pin: opts.pin });
    return this.answer(opts.offerPinChallenge ? this.withPinChallenge(r, credential) : r);
  }

  /**
   * A badge that needs a PIN: the result carries a one-time challenge, so the screen can ask for
   * the PIN of a scan it only saw as an event (an HID reader's), without knowing the code.
   */
  private withPinChallenge(r: PunchResult, credential: Credential): PunchResult {
    if (r.ok || r.reason !== 'pin_required') return r;
    const id = randomBytes(16).toString('hex');
    this.pinChallenge = { id, credential, until: this.p.clock.now() + PIN_CHALLENGE_MS };
    return { ...r, pinChallenge: id };
  }

  /** The PIN for the scan that got `pinChallenge`; single use, and only within PIN_CHALLENGE_MS of the scan. */
  async answerPin(challenge: string, pin: string): Promise<PunchAnswer> {
    const c = this.pinChallenge;
    if (!c || c.id !== challenge || this.p.clock.now() > c.until) {
      return this.answer({ ok: false, reason: 'pin_expired', message: 'Too late for that PIN: scan your badge again. Punch NOT registered.' });
    }
    this.pinChallenge = null;
    return this.punch(c.credential, { pin });
  }

  /**
   * A badge from a reader (`source`: 'hid:<name>', 'wedge', …). Null when it is the same scan
   * already taken by another source.
   */
  async scanned(code: string, source: string): Promise<PunchAnswer | null> {
    if (this.sameScanOtherWay(code, source)) return null;
    return this.punch({ kind: 'badge', value: code }, { offerPinChallenge: true });
  }

  /**
   * A keyboard-class reader read through hidraw also types into the window: the same scan then
   * arrives twice, by two sources, within moments. The second is not a punch (and not even an
   * "already registered": the person scanned once).
   */
  private sameScanOtherWay(code: string, source: string): boolean {
    const now = this.p.clock.now();
    const prev = this.recentScans.get(code);
    if (this.recentScans.size > 256) for (const [k, v] of this.recentScans) if (now - v.at > SAME_SCAN_MS) this.recentScans.delete(k);
    if (prev && prev.source !== source && now - prev.at < SAME_SCAN_MS) return true;
    this.recentScans.set(code, { at: now, source });
    return false;
  }

  private answer(r: PunchResult): PunchAnswer {
    const a = this.p.receipts.attach(r);
    this.emit('punch', a);
    this.statusSoon();
    return a;
  }

  /** A punch's receipt by its NSR (admin screen); null when the journal has no such mark. */
  receipt(nsr: number): PunchReceiptView | null {
    return this.p.receipts.byNsr(nsr);
  }

  /**
   * The journal's marks dated from..to against the service's records (sync/audit-compare.ts), at
   * the lowest priority; one at a time (a second call joins the first). The summary is kept.
   */
  auditCompare(range: AuditRange, opts: AuditRunOptions = {}): Promise<AuditReport> {
    return this.p.auditor.run(range, opts);
  }

  /** The comparison under way and the last one's summary (admin screen). */
  auditCompareState(): AuditState {
    return this.p.auditor.state();
  }

  // ---- identity administration (admin screen) ----------------------------------------------------

  get admin(): IdentityAdmin {
    return this.p.admin;
  }

  /** AFD export from the admin screen (agent/afd-admin.ts). */
  get afd(): AfdAdmin {
    return this.p.afd;
  }

  /**
   * The admin screen's "scan the badge to enroll": the next badge scan within `timeoutMs` is
   * linked to the employee instead of punching.
   */
  enrollNextScan(employeeQuery: string, timeoutMs = 30_000): Promise<EnrollResult> {
    const employee = this.p.admin.findEmployee(employeeQuery);
    if (!employee) return Promise.resolve(employeeNotFound(employeeQuery));
    this.enrollArm?.resolve({ ok: false, message: 'replaced by a newer enrollment request', code: 'enroll_replaced' });
    return new Promise((resolve) => {
      const arm = { employee, until: this.p.clock.now() + timeoutMs, resolve };
      this.enrollArm = arm;
      setTimeout(() => {
        if (this.enrollArm === arm) {
          this.enrollArm = null;
          resolve({ ok: false, message: 'no badge was scanned in time', code: 'enroll_timeout', params: { employee: employee.full_name } });
        }
      }, timeoutMs).unref();
    });
  }

  // ---- delivery bookkeeping (called by the uploader) ---------------------------------------------

  onUploaderEvent(e: UploaderEvent): void {
    this.statusSoon();
    const now = this.p.clock.now();
    switch (e.type) {
      case 'server_date':
        // The clock's error is the time source's (every answer anchors it); here: the service answered.
        this.consecutiveFailures = 0;
        this.contact(true, now);
        return;
      case 'sent':
        this.contact(true, now);
        if (readSetting(this.p.db, S.authRefused)) this.safeWrite(S.authRefused, null);
        return;
      case 'rejected':
        this.noteError(`punch ${e.punchId} rejected: ${e.reason}`);
        return;
      case 'auth_refused':
        this.safeWrite(S.authRefused, { at: now, reason: e.reason });
        this.noteError(`API token refused: ${e.reason}`);
        return;
      case 'error':
        this.noteError(e.message);
        return;
      case 'failed':
        this.consecutiveFailures = e.failures;
        this.contact(e.reachable, now);
        this.noteError(e.error);
        return;
      case 'held':
        this.noteError(`punch ${e.punchId} held: ${e.reason}`);
        return;
      case 'setup':
        this.setupProblem = true;
        this.safeWrite(S.setupProblem, { at: now, reason: e.reason, location: e.location } satisfies SetupProblemRecord);
        return;
      case 'answered':
        // The API answered again: whatever was wrong with the set-up is over.
        if (this.setupProblem) {
          this.setupProblem = false;
          this.safeWrite(S.setupProblem, null);
        }
        return;
    }
  }

  /**
   * The service's clock anchored the terminal's again: its error is recorded for status (read by
   * `timeclock status` too), and said plainly when it is past the tolerance.
   */
  noteClockError(skewMs: number | null, toleranceMs: number): void {
    if (skewMs === null) return;
    const now = this.p.clock.now();
    this.safeWrite(S.clockSkew, { at: now, ms: Math.round(skewMs) });
    if (Math.abs(skewMs) > toleranceMs) {
      const message = `the system clock is ${Math.round(skewMs / -1000)} s off the service's (${skewMs < 0 ? 'fast' : 'slow'}): punches are recorded at the service's time; fix NTP`;
      this.p.log.warn(message, { skewMs: Math.round(skewMs) });
      this.noteError(message);
    }
    this.statusSoon();
  }

  /** A roster sync reached the service or not: the screen can say "online" before the first punch is sent. */
  noteContact(at: number, ok: boolean): void {
    this.contact(ok, at);
  }

  /** Whether the service answered the last request (false before any answer): a mark's on-line flag. */
  isOnline(): boolean {
    return this.lastContactOk === true;
  }

  private contact(ok: boolean, now: number): void {
    if (this.lastContactOk === ok) return;
    this.lastContactOk = ok;
    this.safeWrite(S.lastContact, { at: now, ok });
    this.statusSoon();
  }

  /** Records the last error for status; never throws. */
  noteError(message: string): void {
    this.safeWrite(S.lastError, { at: this.p.clock.now(), message });
  }

  /** Bookkeeping must never take capture down with it (a full disk fails here too). For the agent's own parts. */
  safeWrite(key: string, value: unknown): void {
    try {
      writeSetting(this.p.db, key, value);
    } catch (e) {
      this.p.log.warn('could not record status', { key, error: (e as Error).message });
    }
  }

  /** Reader state, kept where `timeclock status` in another process can read it. */
  noteReaders(): void {
    this.safeWrite(S.readers, this.p.readers.map((r) => r.status()));
    this.statusSoon();
  }

  /** Roster sync progress, kept where `timeclock status` in another process can read it. */
  noteRosterProgress(p: { pagesDone: number; pagesTotal: number | null } | null): void {
    this.safeWrite(S.rosterProgress, p);
    this.statusSoon();
  }

  // ---- roster ----------------------------------------------------------------------------------

  /** A sync now (admin screen, CLI); the schedule goes on from its outcome. */
  async syncRoster(): Promise<RosterSyncResult> {
    const res = await this.p.keeper.sync();
    this.noteRosterProgress(null);
    return res;
  }

  /** Applies a roster sync held because it would shrink the roster by more than half. */
  confirmRosterShrink(): AdminResult {
    return this.p.keeper.confirmShrink();
  }

  /** Punches kept for codes no roster knew, oldest first. */
  listUnresolved(limit = 200): UnresolvedPunch[] {
    return this.p.unresolved.list(limit);
  }

  // ---- admin -----------------------------------------------------------------------------------

  retryRejected(punchId: number): boolean {
    const ok = this.p.outbox.retryRejected(punchId, this.p.clock.now());
    if (ok) {
      this.p.uploader.wake();
      this.statusSoon();
    }
    return ok;
  }

  listRejected(): PunchRow[] {
    return this.p.outbox.listRejected();
  }

  /** Every rejected punch back in the queue (after the roster or the configuration was fixed); how many. */
  retryAllRejected(): number {
    const n = this.p.outbox.retryAllRejected(this.p.clock.now());
    if (n > 0) {
      this.p.uploader.wake();
      this.statusSoon();
    }
    return n;
  }

  /** Held punches (not allowed, refused with 403, or unverifiable), oldest first. */
  listHeld(limit = 100): PunchRow[] {
    return this.p.outbox.listHeld(limit);
  }

  /**
   * A person's decision on a held punch, written to the audit log: send it again (the service may
   * then hold it twice), or take it as delivered (nothing more is sent).
   */
  decideHeld(punchId: number, decision: HeldDecision, by: string, reason = ''): boolean {
    const ok = decideHeldPunch(this.p.outbox, this.p.audit, punchId, decision, by, this.p.clock.now(), reason);
    if (ok) {
      if (decision === 'resend') this.p.uploader.wake();
      this.statusSoon();
    }
    return ok;
  }

  // ---- settings (admin screen) -------------------------------------------------------------------

  /** Replaces the API token (checked with the service when it can be); the token never comes back in the answer. */
  setApiToken(token: string): Promise<AdminResult> {
    return this.p.settings.setApiToken(token);
  }

  /** Points the terminal at another site; its roster is fetched, the current one stays until then. */
  setSite(siteId: string): Promise<AdminResult> {
    return this.p.settings.setSite(siteId);
  }

  /** The account's request budget, in force at once. */
  setRateBudget(limit: number, windowMs: number): Promise<AdminResult> {
    return this.p.settings.setRateBudget(limit, windowMs);
  }

  /** Status changed outside the usual events (a settings change). */
  statusChanged(): void {
    this.statusSoon();
  }

  /** Can punches be captured now? Stopping first: the database is closed once stopped. */
  health(): Health {
    if (this.stopping) return { ok: false, reason: 'agent stopping' };
    const problem = this.p.storageProblem();
    return problem === null ? { ok: true } : { ok: false, reason: problem };
  }

  /** Checks the database's integrity now (off the event loop); the result is in status too. */
  checkIntegrity(): Promise<IntegrityRecord> {
    return this.p.integrity.checkNow();
  }

  /** Verifies the evidence journal now (in chunks, beside capture); null when stopping. The result is in status too. */
  verifyJournal(): Promise<JournalVerifyRecord | null> {
    return this.p.journal.verifyNow();
  }

  requestCounts(): RequestCount[] {
    return this.p.requests.list();
  }

  status(): AgentStatus {
    const s = readStatus({
      ...this.p,
      rule: this.p.settings.currentRule,
      settings: this.p.settings.view(),
      now: this.p.clock.now(),
      rosterRefreshMs: this.p.rosterRefreshMs,
      retention: this.p.retention.policy,
    });
    s.sendingPaused = this.p.budget.pause();
    // The limit in force: below the configured one while it adapts to 429s (sync/adaptive-limit.ts).
    s.rateWindow.limit = this.p.budget.limit;
    s.rate = this.p.budget.sharing();
    s.roster.progress = this.p.rosterSync.progress;
    s.agentRunning = !this.stopping;
    if (this.p.readers.length > 0) s.readers = this.p.readers.map((r) => r.status());
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
      const setup = readSetting<SetupProblemRecord>(this.p.db, S.setupProblem);
      if (setup && this.consecutiveFailures >= failuresLimit) return { done: false, blockedBy: `a set-up problem: ${setup.reason}`, queue };
      if (this.consecutiveFailures >= failuresLimit) {
        const last = readSetting<{ message: string }>(this.p.db, S.lastError);
        return { done: false, blockedBy: `the service is unreachable (${last?.message ?? 'no answer'})`, queue };
      }
      if (this.p.clock.now() >= deadline) return { done: false, blockedBy: 'time limit reached', queue };
      await this.p.sleep(50);
    }
  }
}
