import { slotsInUse, type WindowRule } from '../../domain/rate/sliding-window.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateSlots } from '../../store/settings/rate-slots.js';
import type { Identities } from '../../store/roster/identities.js';
import type { Roster } from '../../store/roster/roster.js';
import type { UnresolvedPunches } from '../../store/punches/unresolved.js';
import { rosterGaps } from '../../store/roster/roster-gaps.js';
import { readSetting } from '../../store/settings/settings.js';
import { configWarnings } from '../../config.js';
import { VERSION } from '../../version.js';
import type { Db } from '../../store/database.js';
import type { SettingsView } from '../settings/stored-settings.js';
import { storageOf } from './storage-status.js';
import type { AgentStatus, JournalStatus, RetentionStatus } from './agent-status.js';
import { settingKeys, type RosterSyncRecord } from '../../store/settings/setting-keys.js';
import { journalState } from '../../store/journal/journal-read.js';
import { archiveSummary } from '../../store/upkeep/journal-archive-summary.js';
import { journalGuardKeys } from '../../store/settings/journal-guard-keys.js';
import { serviceKeys } from '../../store/settings/service-records.js';
import {
  DEFAULT_RETENTION,
  deletedEver,
  fileFigures,
  lastDeliveryAt,
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

export type { AgentStatus, JournalStatus, RetentionStatus } from './agent-status.js';

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
