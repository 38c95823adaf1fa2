/** The roster as the status reports it: its size, the last sync and the one running, its health, what comes next. */
import { z } from 'zod';
import { count, epochMs } from './common.js';

/** What a roster sync came to (src/sync/roster/roster-sync-types.ts `RosterSyncResult`). */
export const rosterSyncOutcomeSchema = z.enum(['applied', 'incomplete', 'shrink_held', 'failed', 'cancelled']);

/** Why a roster record was skipped: nothing identifies it, or it is not a record at all. */
export const skipReasonSchema = z.enum(['no_ids', 'not_an_object']);

export const rosterStatusSchema = z.object({
  size: count,
  lastSync: z
    .object({
      at: epochMs,
      ok: z.boolean(),
      employees: count.nullable(),
      error: z.string().nullable(),
      lastOkAt: epochMs.nullable(),
      /** Absent in records of older versions. */
      outcome: rosterSyncOutcomeSchema.optional(),
    })
    .nullable(),
  progress: z.object({ pagesDone: count, pagesTotal: count.nullable() }).nullable(),
  health: z.object({
    missingWorkSchedule: count,
    missingEmployer: count,
    /** Employees whose time zone the terminal cannot use (the site's, else the terminal's, is used). */
    badTimeZone: count,
    employees: z.array(
      z.object({
        id: z.string(),
        externalId: z.string().nullable(),
        name: z.string(),
        missing: z.array(z.enum(['work_schedule', 'employer', 'timezone'])),
      }),
    ),
    /**
     * Issue 26, before they punch: workers without a CPF (their marks carry twelve zeros) and
     * workers whose employer the service does not know or that was not read yet (receipts and AFD
     * fall back to the configured employer). Absent from older agents.
     */
    evidence: z
      .object({
        noCpf: z.object({
          count,
          employees: z.array(z.object({ id: z.string(), externalId: z.string().nullable(), name: z.string() })),
        }),
        noEmployer: z.object({
          count,
          employees: z.array(
            z.object({
              id: z.string(),
              externalId: z.string().nullable(),
              name: z.string(),
              reason: z.enum(['unknown', 'unread']),
            }),
          ),
        }),
      })
      .optional(),
  }),
  enrolledBadges: count,
  /**
   * False: no complete employee list (never synced, or the last sync failed and the list is older than its refresh
   * interval).
   */
  complete: z.boolean(),
  /**
   * Records of the last sync the terminal could not use (no _id and no external_id…), counted and the first listed.
   */
  skipped: z
    .object({
      count,
      examples: z.array(z.object({ position: count, id: z.string().nullable(), reason: skipReasonSchema })),
    })
    .nullable(),
  /** A sync that would shrink the roster by more than half, held until a second sync agrees or a manager confirms. */
  heldShrink: z.object({ employees: count, inUse: count, since: epochMs, recheckAt: epochMs.nullable() }).nullable(),
  /**
   * With a site configured: verified (the service's site total is below the account's), suspect (the same
   * total with and without the filter on an account of several sites: the service may ignore it), unknown (no totals
   * to compare), one_site (the same totals on an account with one site: nothing to filter, as expected).
   */
  siteFilter: z.enum(['verified', 'suspect', 'unknown', 'one_site']).nullable(),
  /**
   * Employees whose contract does not allow API records (allow_external_api_record false): their punches are held.
   */
  notAllowed: z.object({
    count,
    employees: z.array(
      z.object({ id: z.string(), externalId: z.string().nullable(), name: z.string(), heldPunches: count }),
    ),
  }),
  /**
   * When the next roster sync is due (back-off after a failure, refresh after a success); null when none is planned.
   */
  nextSyncAt: epochMs.nullable(),
  /**
   * How refreshes go: by changes (the service filters on `_updated`), full syncs, or not known before a first full
   * sync.
   */
  refreshBy: z.enum(['changes', 'full']).nullable(),
});
