/**
 * What `timeclock doctor` reads of the terminal's own records, on a read-only connection checked
 * whole by SQLite's quick_check: the last roster sync, the admin PIN, the settings in force.
 * Spending requests to learn again what the agent already learnt would eat the punches' rate window.
 */
import type { Config } from '../../config.js';
import { openDatabase, type ReadOnlyDb } from '../../store/database.js';
import { hasPin } from '../../store/roster/pins.js';
import { rosterSize } from '../../store/roster/roster.js';
import { rosterGaps, type RosterGaps } from '../../store/roster/roster-gaps.js';
import { settingKeys, type RosterSyncRecord } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import { serviceKeys } from '../../store/settings/service-records.js';
import {
  journalGuardKeys,
  type JournalGuardRecord,
  type JournalRestoreRecord,
} from '../../store/settings/journal-guard-keys.js';
import type { AbsentRoute } from '../../domain/rate/absent-routes.js';
import { archiveSummary, type ArchiveSummary } from '../../store/upkeep/journal-archive-summary.js';
import { ADMIN_PIN_ID } from '../identity/identity-admin.js';
import { storedOverrides, storedSettingsView } from '../settings/stored-settings.js';
import { cameraKey, type CameraRecord } from '../../store/settings/camera-record.js';

export type StoredFacts = {
  sync: RosterSyncRecord | null;
  rosterSize: number;
  adminPin: boolean;
  /** The site in force: the admin screen's over the configuration's. */
  siteId: string | null;
  /** Where a token saved on the admin screen is kept, if one was. */
  tokenSavedIn: 'keyring' | 'file' | null;
  /** Read routes the service lacks, as the agent learnt them. */
  absentRoutes?: AbsentRoute[];
  /** The site's zone as the last sync stored it (null: not known). */
  siteZone?: string | null;
  /** The last restore of the data directory the journal recognised, and its mirror outside it. */
  journalRestore?: JournalRestoreRecord | null;
  journalGuard?: JournalGuardRecord | null;
  /**
   * Workers whose punches the evidence cannot fully name (store/roster/roster-gaps.ts), and those without any payment
   * source.
   */
  evidenceGaps?: RosterGaps & { noPaymentSource: { count: number; names: string[] } };
  /** Issue 31: the screen's camera as the agent last heard of it (null: never, or photos off). */
  camera?: CameraRecord | null;
  /** The journal's monthly archives and what is wrong with them (store/upkeep/journal-archive-summary.ts). */
  journalArchives?: ArchiveSummary | null;
};

/** The doctor's read-only look at the database; close it when done. */
export type CheckedDatabase = {
  schemaVersion(): number;
  facts(config: Config, demo: boolean): StoredFacts;
  close(): void;
};

/** Workers the roster gives no payment source (the doctor reads the whole roster; status keeps a count). */
function withoutPaymentSource(db: ReadOnlyDb): { count: number; names: string[] } {
  const rows = db
    .prepare('SELECT full_name FROM roster_employees WHERE payment_source IS NULL ORDER BY full_name')
    .pluck()
    .all() as string[];
  return { count: rows.length, names: rows.slice(0, 10) };
}

/** Reads only: every reader here takes a read-only connection (the doctor's). */
export function readStoredFacts(db: ReadOnlyDb, config: Config, demo: boolean): StoredFacts {
  return {
    sync: readSetting(db, settingKeys.rosterSync),
    rosterSize: rosterSize(db),
    adminPin: hasPin(db, ADMIN_PIN_ID),
    siteId: storedSettingsView(db, config, demo).siteId,
    tokenSavedIn: storedOverrides(db, demo).token?.source ?? null,
    absentRoutes: readSetting(db, serviceKeys.absentRoutes)?.routes ?? [],
    siteZone: readSetting(db, settingKeys.site)?.timezone ?? null,
    journalRestore: readSetting(db, journalGuardKeys.restore),
    journalGuard: readSetting(db, journalGuardKeys.guard),
    evidenceGaps: { ...rosterGaps(db), noPaymentSource: withoutPaymentSource(db) },
    camera: readSetting(db, cameraKey),
    journalArchives: archiveSummary(db, { signingKeySet: Boolean(config.afd.signingKey) }),
  };
}

/**
 * Opens `dataDir`'s database read-only after the explicit full check: quick_check over the whole
 * file, as the agent's background one. Throws StoreError when it cannot be used.
 */
export function openCheckedDatabase(dataDir: string): CheckedDatabase {
  const db = openDatabase(dataDir, { readonly: true, integrityCheck: true });
  return {
    schemaVersion: () => db.pragma('user_version', { simple: true }) as number,
    facts: (config, demo) => readStoredFacts(db, config, demo),
    close: () => db.close(),
  };
}
