import type { Credential } from '../../domain/people/credential.js';
import type { PunchRow } from '../../store/punches/outbox.js';
import type { UnresolvedPunch } from '../../store/punches/unresolved.js';
import type { AuditReport } from '../../sync/reads/audit-compare.js';
import type { RosterSyncResult } from '../../sync/roster/roster-sync-types.js';
import type { AuditState, PunchReceiptView } from '../../contract.js';
import type { AfdAdmin } from '../exports/afd-admin.js';
import { startParts, stopParts, type StartOptions } from './agent-lifecycle.js';
import type { AgentParts, Health } from './agent-parts.js';
import type { AuditRange, AuditRunOptions } from '../delivery/audit-runner.js';
import { ClockWatch } from '../time/clock-watch.js';
import type { HeldDecision } from '../delivery/held-punches.js';
import type { AdminResult, EnrollResult, IdentityAdmin } from '../identity/identity-admin.js';
import type { IntegrityRecord } from '../journal/integrity-watch.js';
import type { JournalVerifyRecord } from '../journal/journal-watch.js';
import { pinResetRequests } from '../capture/forgot-pin.js';
import type { PinResetRequest } from '../../contract.js';
import { QueueAdmin } from '../delivery/queue-admin.js';
import { flushQueue, type FlushOptions, type FlushOutcome } from '../delivery/queue-flush.js';
import type { PunchAnswer } from '../receipts/receipts.js';
import type { PresenceKeeper } from '../presence/presence-keeper.js';
import type { RequestCount } from '../status/request-counts.js';
import type { CaptureCount } from '../status/capture-counts.js';
import { liveStatus } from './live-status.js';
import { PunchDesk } from './punch-desk.js';
import type { AgentStatus } from '../status/status.js';
import type { AgentEvents } from './status-events.js';
import type { PhotoDesk } from '../photos/photo-desk.js';

export type { AgentParts, Health } from './agent-parts.js';
export type { AgentEvents } from './status-events.js';
export type { FlushOutcome } from '../delivery/queue-flush.js';

/**
 * The one facade of the terminal: the CLI, the Electron IPC handlers and the web bridge all call
 * this and nothing below it. `punch` answers only after the punch is committed to disk. Each job
 * behind it has its own file (events, status bookkeeping, clock watch, the punch path in punch-desk.ts…).
 */
export class Agent {
  private stopping = false;
  private readonly stopCtl: AbortController;
  private readonly clockWatch: ClockWatch;
  /** The punch path: PIN step and challenge, enrollment by scan, the answer every punch gets (punch-desk.ts). */
  private readonly desk: PunchDesk;
  private readonly queue: QueueAdmin;

  /**
   * `stopCtl`: aborted by `stop()`; the parts built with its signal (the roster keeper) stop with it.
   * The status recorder and the event hub come built (`p.recorder`, `p.events`): the parts report to them.
   */
  constructor(
    private readonly p: AgentParts,
    stopCtl = new AbortController(),
  ) {
    this.stopCtl = stopCtl;
    p.events.statusFrom(() => this.status());
    p.scans.connect((code, source) => void this.scanned(code, source));
    const changed = (): void => p.events.statusSoon();
    this.clockWatch = new ClockWatch({ ...p, noteError: (m) => p.recorder.noteError(m), changed });
    this.desk = new PunchDesk(p, () => this.stopping);
    this.queue = new QueueAdmin({ ...p, changed });
  }

  on<K extends keyof AgentEvents>(event: K, fn: (e: AgentEvents[K]) => void): () => void {
    return this.p.events.on(event, fn);
  }

  /** Recovers what a previous run left mid-send, starts delivery and the roster schedule (agent-lifecycle.ts). */
  start(opts: StartOptions = {}): Promise<void> {
    return startParts(this.p, this.clockWatch, () => this.p.recorder.noteRosterProgress(null), opts);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.p.events.stop();
    this.stopCtl.abort();
    await stopParts(this.p, this.clockWatch);
  }

  /**
   * Compares the wall clock with the monotonic one now (clock-watch.ts; it also runs every second): the step in ms, or
   * null.
   */
  checkClock(): number | null {
    return this.clockWatch.check();
  }

  // ---- capture -------------------------------------------------------------------------------

  /** Answers only after the punch is committed; an armed enrollment takes a badge scan instead (punch-desk.ts). */
  punch(credential: Credential, opts: { pin?: string; offerPinChallenge?: boolean } = {}): Promise<PunchAnswer> {
    return this.desk.punch(credential, opts);
  }

  /** The PIN for the scan that got `pinChallenge` (single use, within PIN_CHALLENGE_MS), or the next person's ID. */
  answerPin(challenge: string, pin: string): Promise<PunchAnswer> {
    return this.desk.answerPin(challenge, pin);
  }

  /** "Esqueci meu PIN" on the PIN step of `target` (forgot-pin.ts): the punch held for the manager. */
  forgotPin(target: { credential: Credential } | { challenge: string }): Promise<PunchAnswer> {
    return this.desk.forgotPin(target);
  }

  /** Workers who forgot their PIN and have no new one yet (admin screen). */
  listPinResets(): PinResetRequest[] {
    return pinResetRequests(this.p);
  }

  /** A badge from a reader (`source`: 'hid:<name>', 'wedge', …); null when another source took the same scan. */
  scanned(code: string, source: string): Promise<PunchAnswer | null> {
    return this.desk.scanned(code, source);
  }

  /** Issue 31: punch photos (the screen's frames, the camera's state, the manager's view); null when not built. */
  get photos(): PhotoDesk | null {
    return this.p.photos ?? null;
  }

  /** A punch's receipt by its NSR (admin screen); null when the journal has no such mark. */
  receipt(nsr: number): PunchReceiptView | null {
    return this.p.receipts.byNsr(nsr);
  }

  /** A punch's PDF receipt and its signature, base64 (admin screen): the copy kept since the punch, else made now. */
  async receiptPdf(nsr: number): Promise<{ fileName: string; pdf: string; p7s: string | null } | null> {
    const receipt = this.p.receipts.byNsr(nsr);
    const files = this.p.receipts.files;
    if (!receipt || !files) return null;
    const b = await files.bytesOf(receipt);
    return {
      fileName: `comprovante-${receipt.nsr}.pdf`,
      pdf: b.pdf.toString('base64'),
      p7s: b.p7s ? b.p7s.toString('base64') : null,
    };
  }

  /** The journal's marks dated from..to against the service's records, at the lowest priority (audit-runner.ts). */
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

  /** Who is on site and the roll call, for the admin screen and the CLI (agent/presence/presence-keeper.ts). */
  get presence(): PresenceKeeper {
    return this.p.presence;
  }

  /** AFD export from the admin screen (agent/exports/afd-admin.ts). */
  get afd(): AfdAdmin {
    return this.p.afd;
  }

  /**
   * The admin screen's "scan the badge to enroll": the next badge scan within `timeoutMs` is linked to the employee.
   */
  enrollNextScan(employeeQuery: string, timeoutMs = 30_000): Promise<EnrollResult> {
    return this.desk.enrollArm.arm(employeeQuery, timeoutMs);
  }

  // ---- status bookkeeping (the parts report to p.recorder themselves) ---------------------------

  /** Records the last error for status; never throws (the process guard of the CLI and the Electron shell). */
  noteError(message: string): void {
    this.p.recorder.noteError(message);
  }

  // ---- roster ----------------------------------------------------------------------------------

  /** A sync now (admin screen, CLI); the schedule goes on from its outcome. */
  async syncRoster(): Promise<RosterSyncResult> {
    const res = await this.p.keeper.sync();
    this.p.recorder.noteRosterProgress(null);
    return res;
  }

  /** Settles once the employers the last roster names were read (sync/roster/employer-sync.ts), or could not be. */
  employersRead(): Promise<void> {
    return this.p.keeper.employersSettled();
  }

  /** Applies a roster sync held because it would shrink the roster by more than half. */
  confirmRosterShrink(): AdminResult {
    return this.p.keeper.confirmShrink();
  }

  /** Punches kept for codes no roster knew, oldest first. */
  listUnresolved(limit = 200): UnresolvedPunch[] {
    return this.p.unresolved.list(limit);
  }

  // ---- the queue (admin screen; queue-admin.ts) -------------------------------------------------

  retryRejected(punchId: number): boolean {
    return this.queue.retryRejected(punchId);
  }

  listRejected(): PunchRow[] {
    return this.queue.listRejected();
  }

  /** Every rejected punch back in the queue; how many. */
  retryAllRejected(): number {
    return this.queue.retryAllRejected();
  }

  /** Held punches, oldest first. */
  listHeld(limit = 100): PunchRow[] {
    return this.queue.listHeld(limit);
  }

  /** A person's decision on a held punch, written to the audit log. */
  decideHeld(punchId: number, decision: HeldDecision, by: string, reason = ''): boolean {
    return this.queue.decideHeld(punchId, decision, by, reason);
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

  /** Punches captured since start, by outcome (registered, repeat, a kept punch's note, a refusal's reason). */
  captureCounts(): CaptureCount[] {
    return this.desk.captures.list();
  }

  /** The stored status with the parts' live state (live-status.ts). */
  status(): AgentStatus {
    const s = liveStatus(this.p, !this.stopping);
    s.storage = { ...s.storage, refused: this.desk.captures.storageRefusals() };
    s.camera = this.p.photos?.cameraStatus() ?? null;
    return s;
  }

  /**
   * Sends what is due and resolves when nothing is left to send, or when sending cannot go on
   * (token refused, service unreachable), or after `maxWaitMs` (queue-flush.ts).
   */
  flush(opts: FlushOptions = {}): Promise<FlushOutcome> {
    return flushQueue({ ...this.p, blockedBy: (limit) => this.p.recorder.blockedBy(limit) }, opts);
  }
}
