/** The terminal's status as the agent reads it (status.ts `readStatus`), before the contract's check on its way out. */
import type { PunchState } from '../../domain/punch/punch.js';
import type { ReaderStatus } from '../../input/hid-reader.js';
import type { NotAllowed, RosterHealth } from '../../store/roster/roster.js';
import type { Skipped } from '../../sync/roster/roster-rows.js';
import type { SiteFilterCheck } from '../../sync/roster/site-filter-check.js';
import { type RosterGaps } from '../../store/roster/roster-gaps.js';
import type { SettingsView } from '../settings/stored-settings.js';
import type { RateSharing } from '../../sync/window/shared-window-link.js';
import type { FleetStatus } from './fleet-status.js';
import { type StorageStatus } from './storage-status.js';
import type { CameraRecord } from '../../store/settings/camera-record.js';
import {
  type AuthRefusedRecord,
  type IntegrityRecord,
  type JournalVerifyRecord,
  type LastError,
  type RosterSyncRecord,
  type ServiceClockRecord,
  type SetupProblemRecord,
  type SiteRecord,
} from '../../store/settings/setting-keys.js';
import { type ArchiveSummary } from '../../store/upkeep/journal-archive-summary.js';
import { type JournalGuardRecord, type JournalRestoreRecord } from '../../store/settings/journal-guard-keys.js';
import type { AbsentRoute } from '../../domain/rate/absent-routes.js';
import type { ServiceStateRecord } from '../../domain/rate/service-state.js';
import {
  type Deleted,
  type FileFigures,
  type RetentionPassRecord,
  type RetentionPolicy,
} from '../../store/upkeep/retention.js';

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
