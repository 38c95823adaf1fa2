/**
 * Every settings key the agent keeps between runs, each declared once with the schema of its value
 * and the value read when it is absent. Reading parses (a value an earlier version stored that does
 * not fit reads as absent, as unparsable JSON always did); writing validates.
 *
 * Records a higher layer decides with (the roster's filter memo) are declared once, in domain, and
 * used here and there alike.
 *
 * Objects are loose: a field this version does not know is kept, never stripped (status shows what
 * was stored, as before). Keys private to one store module (the roster's summary, the health probe)
 * are declared in that module with `settingKey`.
 */
import type { ReaderStatus } from '../../domain/punch/reader-status.js';
import { z } from 'zod';
import type { Anchor } from '../../domain/time/anchored-time.js';
import type { ChangesMemo } from '../../domain/people/roster-changes-memo.js';
import type { JournalProblem } from '../journal/journal-verify.js';

export type SettingKey<T> = { readonly name: string; readonly schema: z.ZodType<T>; readonly fallback: T };

export function settingKey<T>(name: string, schema: z.ZodType<T>, fallback: T): SettingKey<T> {
  return { name, schema, fallback };
}

/** A record that may be absent (or cleared by writing null): reads as null then. */
export function recordKey<T>(name: string, schema: z.ZodType<T>): SettingKey<T | null> {
  return settingKey<T | null>(name, schema.nullable(), null);
}

const num = z.number();
const nullableNumber = z.number().nullable();
const nullableString = z.string().nullable();

export type LastError = { at: number; message: string };
export type LastContact = { at: number; ok: boolean };
export type SiteRecord = { id: string; name: string; timezone: string | null };
export type ClockSkewRecord = { at: number; ms: number };
export type AuthRefusedRecord = { at: number; reason: string };
export type SetupProblemRecord = { at: number; reason: string; location: string | null };
export type RosterProgress = { pagesDone: number; pagesTotal: number | null };
/**
 * What the terminal makes of the service's `Date` (agent/time/time-source.ts): ok (it anchors the
 * time), off (this machine is NTP-synchronised and the service is off by more than `boundMs`: the
 * local time is kept), unconfirmed (a far `Date` waits for a second answer), no_date (answers carry
 * no usable `Date`: punches go at this terminal's clock). `offsetMs`: the service's clock minus
 * this machine's at the last answer with a `Date`; `jumpMs`: an unconfirmed one's distance from
 * the time in force; `header`: what a no_date answer's `Date` said (null: none).
 */
export type ServiceClockRecord = {
  at: number;
  state: 'ok' | 'off' | 'unconfirmed' | 'no_date';
  offsetMs: number | null;
  jumpMs: number | null;
  ntp: 'yes' | 'no' | 'unknown';
  boundMs: number;
  header?: string | null;
};

/** As sync/roster/roster-rows.ts `Skipped` and sync/roster/site-filter-check.ts `SiteFilterCheck`. */
export type StoredSkipped = {
  count: number;
  examples: { position: number; id: string | null; reason: 'no_ids' | 'not_an_object' }[];
};
export type StoredSiteFilterCheck = 'verified' | 'suspect' | 'unknown' | 'one_site';
export type HeldShrink = { employees: number; inUse: number; since: number; recheckAt: number | null };

/** The last roster sync as status shows it. Members after lastOkAt are absent in records of older versions. */
export type RosterSyncRecord = {
  at: number;
  ok: boolean;
  employees: number | null;
  error: string | null;
  lastOkAt: number | null;
  outcome?: 'applied' | 'incomplete' | 'shrink_held' | 'failed';
  skipped?: StoredSkipped | null;
  siteFilter?: StoredSiteFilterCheck | null;
  heldShrink?: HeldShrink | null;
  nextAt?: number | null;
  /** The site the roster in use was synced for (null: all employees). */
  siteId?: string | null;
};

/** The readers' status as input/hid-reader.ts reports it (one declaration, in domain). */
export type StoredReaderStatus = ReaderStatus;

/** A site chosen on the admin screen. `demo`: chosen while running the demo (applies only to the demo). */
export type SiteOverride = { siteId: string; setAt: number; demo: boolean };
export type RateOverride = { limit: number; windowMs: number; setAt: number; demo: boolean };
/** That a token was saved from the admin screen, when and where: never the token. */
export type TokenSavedRecord = { setAt: number; source: 'keyring' | 'file'; warning: string | null };

export type IntegrityRecord = { at: number; ms: number; result: 'ok' | 'damaged' | 'unchecked'; problems: string[] };
export type JournalVerifyRecord = {
  at: number;
  ok: boolean;
  marks: number;
  facts: number;
  problem: JournalProblem | null;
  ms: number;
};

export type Deleted = { punches: number; journal: number; audit: number };
/**
 * One retention pass, kept in settings for status (by the agent's RetentionWatch, and by
 * `timeclock data compact`). `outcome`: done; stopped (the agent stopped mid-pass: the next start
 * goes on); failed (`error` says why; the next pass tries again).
 */
export type RetentionPassRecord = {
  at: number;
  ms: number;
  outcome: 'done' | 'stopped' | 'failed';
  deleted: Deleted;
  /** Given back to the file system (incremental vacuum, or the compact's VACUUM). */
  freedBytes: number;
  /** The longest the event loop waited on one batch or vacuum chunk (the compact: the whole of it). */
  longestBatchMs: number;
  error: string | null;
};

const skippedSchema: z.ZodType<StoredSkipped> = z.looseObject({
  count: num,
  examples: z.array(z.looseObject({ position: num, id: nullableString, reason: z.enum(['no_ids', 'not_an_object']) })),
});
const heldShrinkSchema: z.ZodType<HeldShrink> = z.looseObject({
  employees: num,
  inUse: num,
  since: num,
  recheckAt: nullableNumber,
});
const deletedSchema: z.ZodType<Deleted> = z.looseObject({ punches: num, journal: num, audit: num });

const rosterSyncSchema: z.ZodType<RosterSyncRecord> = z.looseObject({
  at: num,
  ok: z.boolean(),
  employees: nullableNumber,
  error: nullableString,
  lastOkAt: nullableNumber,
  outcome: z.enum(['applied', 'incomplete', 'shrink_held', 'failed']).optional(),
  skipped: skippedSchema.nullable().optional(),
  siteFilter: z.enum(['verified', 'suspect', 'unknown', 'one_site']).nullable().optional(),
  heldShrink: heldShrinkSchema.nullable().optional(),
  nextAt: nullableNumber.optional(),
  siteId: nullableString.optional(),
});

const readerSchema: z.ZodType<StoredReaderStatus> = z.looseObject({
  name: z.string(),
  connected: z.boolean(),
  device: nullableString,
  connectedSince: nullableNumber,
  lastScanAt: nullableNumber,
  scans: num,
  errors: num,
  disconnects: num,
  lastDisconnectAt: nullableNumber,
  lastError: nullableString,
});

const journalProblemSchema: z.ZodType<JournalProblem> = z.looseObject({
  nsr: num.optional(),
  seq: num.optional(),
  message: z.string(),
});

/**
 * The keys of the agent's status, the admin screen's overrides and the background checks (read by `timeclock status`
 * from another process too).
 */
export const settingKeys = {
  lastError: recordKey<LastError>('last_error', z.looseObject({ at: num, message: z.string() })),
  lastContact: recordKey<LastContact>('last_contact', z.looseObject({ at: num, ok: z.boolean() })),
  /** When the service last answered anything (kept to within ANSWERED_EVERY_MS). */
  lastAnswered: recordKey<{ at: number }>('last_answered', z.looseObject({ at: num })),
  rosterSync: recordKey('roster_sync', rosterSyncSchema),
  site: recordKey<SiteRecord>('site', z.looseObject({ id: z.string(), name: z.string(), timezone: nullableString })),
  clockSkew: recordKey<ClockSkewRecord>('clock_skew', z.looseObject({ at: num, ms: num })),
  authRefused: recordKey<AuthRefusedRecord>('auth_refused', z.looseObject({ at: num, reason: z.string() })),
  rosterProgress: recordKey<RosterProgress>(
    'roster_progress',
    z.looseObject({ pagesDone: num, pagesTotal: nullableNumber }),
  ),
  /** What the terminal knows of the service's filter on `_updated` (sync/roster/roster-changes.ts). */
  rosterChanges: recordKey<ChangesMemo>(
    'roster_changes',
    z.looseObject({
      siteId: nullableString,
      mode: z.enum(['changes', 'full']),
      since: num,
      fullAt: num,
      unusable: num,
    }),
  ),
  readers: settingKey<StoredReaderStatus[]>('readers', z.array(readerSchema), []),
  /** The last answer that was not the API's (a redirect, an HTML page); cleared by the next answer of the API. */
  setupProblem: recordKey<SetupProblemRecord>(
    'setup_problem',
    z.looseObject({ at: num, reason: z.string(), location: nullableString }),
  ),
  /** Settings changed on the admin screen (agent/settings/settings.ts); the token itself is never in the database. */
  siteOverride: recordKey<SiteOverride>(
    'settings_site',
    z.looseObject({ siteId: z.string(), setAt: num, demo: z.boolean() }),
  ),
  rateOverride: recordKey<RateOverride>(
    'settings_rate_limit',
    z.looseObject({ limit: num, windowMs: num, setAt: num, demo: z.boolean() }),
  ),
  tokenSaved: recordKey<TokenSavedRecord>(
    'settings_token',
    z.looseObject({ setAt: num, source: z.enum(['keyring', 'file']), warning: nullableString }),
  ),
  /** The last background integrity check (agent/journal/integrity-watch.ts). */
  integrity: recordKey<IntegrityRecord>(
    'integrity_check',
    z.looseObject({ at: num, ms: num, result: z.enum(['ok', 'damaged', 'unchecked']), problems: z.array(z.string()) }),
  ),
  /** Rows retention deleted since it first ran (store/upkeep/retention.ts); a missing count is 0. */
  retentionDeleted: recordKey<Partial<Deleted>>(
    'retention_deleted',
    z.looseObject({ punches: num.optional(), journal: num.optional(), audit: num.optional() }),
  ),
  /** The last retention pass (agent/journal/retention-watch.ts, `timeclock data compact`). */
  retentionPass: recordKey<RetentionPassRecord>(
    'retention_last_pass',
    z.looseObject({
      at: num,
      ms: num,
      outcome: z.enum(['done', 'stopped', 'failed']),
      deleted: deletedSchema,
      freedBytes: num,
      longestBatchMs: num,
      error: nullableString,
    }),
  ),
  /** The last verification of the evidence journal (agent/journal/journal-watch.ts). */
  journalVerify: recordKey<JournalVerifyRecord>(
    'journal_verify',
    z.looseObject({
      at: num,
      ok: z.boolean(),
      marks: num,
      facts: num,
      problem: journalProblemSchema.nullable(),
      ms: num,
    }),
  ),
  /** This boot's anchor of the service's clock (agent/time/time-source.ts). */
  timeAnchor: recordKey<Anchor>('time_anchor', z.looseObject({ bootId: z.string(), serverMs: num, mono: num })),
  /** What the terminal makes of the service's clock (agent/time/time-source.ts). */
  serviceClock: recordKey<ServiceClockRecord>(
    'service_clock',
    z.looseObject({
      at: num,
      state: z.enum(['ok', 'off', 'unconfirmed', 'no_date']),
      offsetMs: nullableNumber,
      jumpMs: nullableNumber,
      ntp: z.enum(['yes', 'no', 'unknown']),
      boundMs: num,
      header: nullableString.optional(),
    }),
  ),
} as const;
