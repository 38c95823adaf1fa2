/**
 * What the agent is built from (agent/build-agent.ts puts them together), and its health answer.
 */
import type { Clock, Monotonic, Sleep } from '../../domain/time/clock.js';
import type { HidReader } from '../../input/hid-reader.js';
import type { Logger } from '../../log.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { DurableDb } from '../../store/database.js';
import type { Identities } from '../../store/roster/identities.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateSlots } from '../../store/settings/rate-slots.js';
import type { Roster } from '../../store/roster/roster.js';
import type { UnresolvedPunches } from '../../store/punches/unresolved.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { RosterSync } from '../../sync/roster/roster-sync.js';
import type { Uploader } from '../../sync/delivery/uploader.js';
import type { FleetStatus } from '../status/fleet-status.js';
import type { AfdAdmin } from '../exports/afd-admin.js';
import type { AuditRunner } from '../delivery/audit-runner.js';
import type { Capture } from '../capture/capture.js';
import type { IdentityAdmin } from '../identity/identity-admin.js';
import type { IntegrityWatch } from '../journal/integrity-watch.js';
import type { BackgroundJob } from '../delivery/liveness-job.js';
import type { PunchDays } from '../receipts/punch-days.js';
import type { PresenceKeeper } from '../presence/presence-keeper.js';
import type { JournalWatch } from '../journal/journal-watch.js';
import type { Receipts } from '../receipts/receipts.js';
import type { RequestCounts } from '../status/request-counts.js';
import type { RetentionWatch } from '../journal/retention-watch.js';
import type { RosterKeeper } from '../roster/roster-keeper.js';
import type { SettingsAdmin } from '../settings/settings.js';
import type { ScanInlet } from '../capture/build-readers.js';
import type { AgentEventHub } from './status-events.js';
import type { StatusRecorder } from '../status/status-recorder.js';
import type { PhotoDesk } from '../photos/photo-desk.js';

export type AgentParts = {
  /** The durable connection: punches, and the status the agent records. */
  db: DurableDb;
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
  /** Its host, its instance in the fleet's window, another live terminal under its id (fleet-status.ts). */
  fleet: () => FleetStatus;
  /** Requests to the service by kind and status, for metrics. */
  requests: RequestCounts;
  /** Null while a punch could be saved, else why not (store/upkeep/health-probe.ts). */
  storageProblem: () => string | null;
  /** The database's integrity check, off the event loop, after the start and then daily. */
  integrity: IntegrityWatch;
  /** Deletes what the retention policy lets go, in small batches, after the start and then daily. */
  retention: RetentionWatch;
  /** Verifies the evidence journal's chains, in chunks, after the start and then on its schedule. */
  journal: JournalWatch;
  /** The worker's receipt of a punch, from the evidence journal (result screen, admin lookup). */
  receipts: Receipts;
  /** The admin screen's AFD export: drives, the export, one-time downloads (agent/exports/afd-admin.ts). */
  afd: AfdAdmin;
  /** The journal compared with the service's records (agent/delivery/audit-runner.ts). */
  auditor: AuditRunner;
  /** The employee's day beside a punch's answer (agent/receipts/punch-days.ts). */
  days: PunchDays;
  /** Started after capture, stopped before sending stops: prefetching employees' days, the liveness check. */
  jobs: BackgroundJob[];
  onClose: () => Promise<void> | void;
  /** After a step of the wall clock moved the deadlines (clock-watch.ts): the skew is measured again. */
  timeStepped?: (stepMs: number) => void;
  /** How often the clock watch looks (default every second; 0: only by `checkClock()`, tests on injected time). */
  clockCheckEveryMs?: number;
  /** What the parts report for status, built before them and handed to each (status-recorder.ts). */
  recorder: StatusRecorder;
  /** The punch and coalesced status events; the agent tells it how to read its status. */
  events: AgentEventHub;
  /** The readers' scans: the agent connects its scan gate and PIN challenge to it. */
  scans: ScanInlet;
  /** Issue 31: punch photos (photo-desk.ts); absent in rigs built without one. */
  photos?: PhotoDesk;
  /** afd.signingKey is set (status: an archive sealed unsigned is a problem). */
  signingKeySet?: boolean;
  /** Who is on site and the roll call (issue 30; agent/presence/presence-keeper.ts). */
  presence: PresenceKeeper;
};

/** /healthz: whether punches can be captured now. */
export type Health = { ok: true } | { ok: false; reason: string };
