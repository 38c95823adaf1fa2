import type { PunchState } from '../../domain/punch.js';
import { slotsInUse, type WindowRule } from '../../domain/sliding-window.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateSlots } from '../../store/settings/rate-slots.js';
import type { ReaderStatus } from '../../input/hid-reader.js';
import type { Identities } from '../../store/roster/identities.js';
import type { NotAllowed, Roster, RosterHealth } from '../../store/roster/roster.js';
import type { SiteFilterCheck, Skipped } from '../../sync/roster-sync.js';
import type { UnresolvedPunches } from '../../store/punches/unresolved.js';
import { rosterGaps, type RosterGaps } from '../../store/roster/roster-gaps.js';
import { readSetting } from '../../store/settings/settings.js';
import { configWarnings } from '../../config.js';
import { VERSION } from '../../version.js';
import type { Db } from '../../store/database.js';
import type { SettingsView } from '../settings/stored-settings.js';
import type { RateSharing } from '../../sync/shared-window-link.js';
import type { FleetStatus } from './fleet-status.js';
import { storageOf, type StorageStatus } from './storage-status.js';
import type { CameraRecord } from '../../store/settings/camera-record.js';
import {
  settingKeys,
  type AuthRefusedRecord,
  type IntegrityRecord,
  type JournalVerifyRecord,
  type LastError,
  type RosterSyncRecord,
  type ServiceClockRecord,
  type SetupProblemRecord,
  type SiteRecord,
} from '../../store/settings/setting-keys.js';
import { journalState } from '../../store/journal/journal-read.js';
import { archiveSummary, type ArchiveSummary } from '../../store/upkeep/journal-archive-summary.js';
import {
  journalGuardKeys,
  type JournalGuardRecord,
  type JournalRestoreRecord,
} from '../../store/settings/journal-guard-keys.js';
import { serviceKeys } from '../../store/settings/service-records.js';
import type { AbsentRoute } from '../../domain/absent-routes.js';
import type { ServiceStateRecord } from '../../domain/service-state.js';
import {
  DEFAULT_RETENTION,
  deletedEver,
  fileFigures,
  lastDeliveryAt,
  type Deleted,
  type FileFigures,
  type RetentionPassRecord,
  type RetentionPolicy,
} from '../../store/upkeep/retention.js';

/** The records status shows are declared with their settings keys (store/settings/setting-keys.ts). */
export type {
  AuthRefusedRecord,
  ClockSkewRecord,
  LastContact,
  LastError,
  RosterSyncRecord,
  SetupProblemRecord,
  SiteRecord,
} from '../../store/settings/setting-keys.js';

/**
 * Whether the terminal has a complete employee list: one sync applied, and either the last sync
 * worked or the list is younger than its refresh interval. Without one, an unknown code may just
 * be a list we do not have: the punch is kept, not refused.
 */
export function rosterComplete(rec: RosterSyncRecord | null, now: number, refreshMs: number): boolean {
  if (!rec || rec.lastOkAt === null) return false;
  return rec.ok || now - rec.lastOkAt <= refreshMs;
}

export type AgentStatus = {
  version: string;
  /**
   * This terminal's name in logs, status and metrics (config `terminalId`, else a random id kept in its data
   * directory).
   */
  terminalId: string;
  now: number;
  /**
   * true: the service answers (`service.state` online); false: it does not, or only with server errors; null: no
   * request yet.
   */
  online: boolean | null;
  /** When `online` last changed. */
  lastContactAt: number | null;
  /** When the service last answered a request (to within 10 s); null: never. */
  lastAnsweredAt: number | null;
  queue: Record<PunchState, number>;
  unsent: number;
  oldestUnsentAgeMs: number | null;
  lastError: LastError | null;
  sendingPaused: { reason: 'retry_after' | 'auth'; until: number } | null;
  authRefused: AuthRefusedRecord | null;
  /** The service answered from another address or not as the API: sending backs off until it answers right. */
  setupProblem: SetupProblemRecord | null;
  /** A configuration that is valid but risky (a budget above the account's). */
  warnings: string[];
  /** Punches with a local minute another punch of the employee has too (DST fall-back). */
  collisions: {
    count: number;
    punches: { id: number; employeeName: string; externalId: string | null; localDate: string; localTime: string }[];
  };
  rateWindow: { used: number; limit: number; windowMs: number };
  /**
   * Whether the window is the account's in Redis, this terminal's share while Redis is away, or local only; set by a
   * running agent.
   */
  rate?: RateSharing;
  roster: {
    size: number;
    lastSync: RosterSyncRecord | null;
    progress: { pagesDone: number; pagesTotal: number | null } | null;
    health: RosterHealth & { evidence?: RosterGaps };
    enrolledBadges: number;
    complete: boolean;
    skipped: Skipped | null;
    heldShrink: { employees: number; inUse: number; since: number; recheckAt: number | null } | null;
    siteFilter: SiteFilterCheck | null;
    notAllowed: NotAllowed;
    nextSyncAt: number | null;
    refreshBy: 'changes' | 'full' | null;
  };
  /** Punches of credentials not yet matched (accept-and-resolve). */
  unresolved: { count: number; oldestAt: number | null; lastCheckedAt: number | null };
  site: SiteRecord | null;
  /** Configured HID readers: connected?, last scan, garbage dropped, disconnects. */
  readers: ReaderStatus[];
  clockSkewMs: number | null;
  /** The last integrity check of the database (null: none yet); `damaged` is an alert. */
  integrity: IntegrityRecord | null;
  retention: RetentionStatus;
  /**
   * The evidence journal: its id, the next NSR and the last verification of its chains (null: a database before the
   * journal).
   */
  journal: JournalStatus | null;
  agentRunning: boolean;
  /** The token/site/budget in force and where they come from; never the token. */
  settings: SettingsView;
  /** This terminal's host, its instance in the fleet's window, another live terminal under its id (fleet-status.ts). */
  fleet?: FleetStatus;
  /** Whether the service answers: online, errors (it answers with server errors), offline; null before any request. */
  service: ServiceStateRecord | null;
  /**
   * Read routes the service lacks (404, 405, 501): asked again at `nextAt`, once; what the terminal does without them.
   */
  absentRoutes: AbsentRoute[];
  /**
   * What the terminal makes of the service's `Date` (store/settings/setting-keys.ts ServiceClockRecord); null: no
   * answer yet.
   */
  serviceClock?: ServiceClockRecord | null;
  /** When a punch was last delivered (still in the database); null: none. */
  lastDeliveryAt: number | null;
  /** Free space for the data directory and punches refused for want of it (storage-status.ts). */
  storage: StorageStatus;
  /**
   * Issue 31: the screen's camera with photo.mode on-punch; null: photos off (the running agent and stored-status.ts
   * fill it).
   */
  camera?: CameraRecord | null;
};

/**
 * What the terminal keeps and what it let go. `queue.sent` counts the delivered punches still here;
 * `deliveredEver` adds those retention deleted, so the figure never drops as rows age out.
 */
export type RetentionStatus = RetentionPolicy & {
  deliveredEver: number;
  /** Rows retention deleted since it first ran. */
  deletedEver: Deleted;
  lastPass: RetentionPassRecord | null;
  /** The database file (from its header): its size, the free pages in it, and whether it can give them back. */
  file: Omit<FileFigures, 'pageSize'>;
};

export type JournalStatus = {
  journalId: string;
  nextNsr: number;
  lastVerify: JournalVerifyRecord | null;
  /** The last restore of the data directory recognised at a start (the NSR gap it left), or null. */
  lastRestore?: JournalRestoreRecord | null;
  /**
   * Where the NSR reservation is mirrored outside the data directory (null: nowhere), and why it could not be written.
   */
  guard?: JournalGuardRecord | null;
  /**
   * The journal's monthly archives beside the database (store/upkeep/journal-archive-summary.ts); null: none can be
   * kept (in memory).
   */
  archives?: ArchiveSummary | null;
};

export type StatusSources = {
  db: Db;
  outbox: Outbox;
  roster: Roster;
  rateSlots: RateSlots;
  identities: Identities;
  unresolved: UnresolvedPunches;
  /** The request budget in force (config, or the admin screen's). */
  rule: WindowRule;
  settings: SettingsView;
  now: number;
  terminalId: string;
  /** `roster.refreshMs`: how long a list stays complete after its sync when later syncs fail. */
  rosterRefreshMs: number;
  /** The retention in force (config `retention`; absent: its defaults). */
  retention?: RetentionPolicy;
  /** afd.signingKey is set: an archive sealed unsigned is a problem (store/upkeep/journal-archive-summary.ts). */
  signingKeySet?: boolean;
};

/**
 * Status from the database alone: what `timeclock status` shows whether or not an agent runs.
 * Every read is a counter, an index seek or a stored summary: the same cost after years of punches.
 */
export function readStatus(src: StatusSources): AgentStatus {
  const { db, outbox, now } = src;
  const rosterSummary = src.roster.summary();
  const queue = outbox.counts();
  const oldest = outbox.oldestUnsentAt();
  const contact = readSetting(db, settingKeys.lastContact);
  const skew = readSetting(db, settingKeys.clockSkew);
  const sync = readSetting(db, settingKeys.rosterSync);
  return {
    version: VERSION,
    terminalId: src.terminalId,
    now,
    online: contact ? contact.ok : null,
    lastContactAt: contact?.at ?? null,
    lastAnsweredAt: readSetting(db, settingKeys.lastAnswered)?.at ?? null,
    queue,
    unsent: queue.pending + queue.sending + queue.in_doubt,
    oldestUnsentAgeMs: oldest === null ? null : Math.max(0, now - oldest),
    lastError: readSetting(db, settingKeys.lastError),
    sendingPaused: null,
    authRefused: readSetting(db, settingKeys.authRefused),
    setupProblem: readSetting(db, settingKeys.setupProblem),
    warnings: configWarnings(src.rule),
    collisions: collisionsOf(outbox),
    rateWindow: {
      used: slotsInUse(src.rateSlots.live(now, src.rule.windowMs), now, src.rule.windowMs),
      limit: src.rule.limit,
      windowMs: src.rule.windowMs,
    },
    roster: {
      size: rosterSummary.size,
      lastSync: sync,
      progress: readSetting(db, settingKeys.rosterProgress),
      health: {
        ...rosterSummary.health,
        employees: rosterSummary.health.employees.slice(0, 20),
        evidence: rosterGaps(db),
      },
      enrolledBadges: src.identities.enrollmentCount(),
      complete: rosterComplete(sync, now, src.rosterRefreshMs),
      skipped: sync?.skipped ?? null,
      heldShrink: sync?.heldShrink ?? null,
      siteFilter: sync?.siteFilter ?? null,
      notAllowed: src.roster.notAllowed(20, rosterSummary),
      nextSyncAt: sync?.nextAt ?? null,
      refreshBy: readSetting(db, settingKeys.rosterChanges)?.mode ?? null,
    },
    unresolved: src.unresolved.summary(),
    site: readSetting(db, settingKeys.site),
    readers: readSetting(db, settingKeys.readers),
    clockSkewMs: skew?.ms ?? null,
    integrity: readSetting(db, settingKeys.integrity),
    retention: retentionOf(db, src.retention ?? DEFAULT_RETENTION, queue.sent),
    journal: journalOf(db, src.signingKeySet ?? false),
    agentRunning: false,
    settings: src.settings,
    service: readSetting(db, serviceKeys.serviceState),
    absentRoutes: readSetting(db, serviceKeys.absentRoutes)?.routes ?? [],
    serviceClock: readSetting(db, settingKeys.serviceClock),
    lastDeliveryAt: lastDeliveryAt(db),
    storage: storageOf(db.name),
  };
}

function collisionsOf(outbox: Outbox): AgentStatus['collisions'] {
  const c = outbox.collisions(20);
  return {
    count: c.count,
    punches: c.punches.map((p) => ({
      id: p.id,
      employeeName: p.employee_name,
      externalId: p.employee_external_id,
      localDate: p.local_date,
      localTime: p.local_time,
    })),
  };
}

function journalOf(db: Db, signingKeySet: boolean): JournalStatus | null {
  const state = journalState(db);
  return (
    state && {
      ...state,
      lastVerify: readSetting(db, settingKeys.journalVerify),
      lastRestore: readSetting(db, journalGuardKeys.restore),
      guard: readSetting(db, journalGuardKeys.guard),
      archives: archiveSummary(db, { signingKeySet }),
    }
  );
}

function retentionOf(db: Db, policy: RetentionPolicy, sentHere: number): RetentionStatus {
  const deleted = deletedEver(db);
  const f = fileFigures(db);
  return {
    deliveredDays: policy.deliveredDays,
    auditDays: policy.auditDays,
    deliveryLogDays: policy.deliveryLogDays,
    deliveredEver: sentHere + deleted.punches,
    deletedEver: deleted,
    lastPass: readSetting(db, settingKeys.retentionPass),
    file: { bytes: f.bytes, freeBytes: f.freeBytes, autoVacuum: f.autoVacuum },
  };
}
