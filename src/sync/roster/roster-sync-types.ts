/**
 * What a roster sync returns (its outcomes), the options it is set with, its progress, and what it
 * is built from. Apart from the sync itself (roster-sync.ts) so the agent can name a result or an
 * option without the class that runs the sync.
 */
import type { SiteRecord } from '../../api/roster-records.js';
import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Roster } from '../../store/roster/roster.js';
import type { RouteGate } from '../delivery/route-gate.js';
import type { RateBudget } from '../window/rate-budget.js';
import type { RosterApi } from './roster-api.js';
import type { RosterChanges } from './roster-changes.js';
import type { Skipped } from './roster-rows.js';
import type { SiteFilterCheck } from './site-filter-check.js';

export type RosterSyncProgress = { pagesDone: number; pagesTotal: number | null };

type Common = { requests: number; finishedAt: number };
type Fetched = Common & {
  skipped: Skipped;
  siteFilter: SiteFilterCheck | null;
  site: SiteRecord | null;
  siteError: string | null;
};

/**
 * - applied: the new roster is in use;
 * - incomplete: the pages did not add up (fewer than the total, a total that moved, a repeated
 *   page): the roster in use stays, except that a terminal with none takes what came (`partial`);
 * - shrink_held: complete, but less than half the roster in use: kept aside until a later sync
 *   agrees or a manager confirms;
 * - failed / cancelled: nothing changed.
 */
export type RosterSyncResult =
  /** `changed`: applied by changes (that many employees), not by a full sync. */
  | (Fetched & { ok: true; outcome: 'applied'; employees: number; siteId: string | null; changed?: number })
  | (Fetched & { ok: false; outcome: 'incomplete'; error: string; partial: boolean })
  | (Fetched & { ok: false; outcome: 'shrink_held'; error: string; staged: number; inUse: number; heldSince: number })
  /** `reachable`: the service answered (true), could not be reached (false), or nobody knows (null). */
  | (Common & { ok: false; outcome: 'failed' | 'cancelled'; error: string; reachable: boolean | null });

export type RosterSyncOptions = {
  siteId: string | null;
  pageSize: number;
  windowMs: number;
  authRetryMs: number;
  shrinkRecheckMs: number;
  /**
   * The site the roster in use was synced for (null: all employees; undefined: not recorded). A
   * roster of another site is no yardstick: moving a terminal to a smaller site is not a shrink.
   */
  inUseSite: () => string | null | undefined;
  /** Refreshes by changes where the service filters on `_updated` (roster-changes.ts); none: always full. */
  changes?: RosterChanges;
  /** Read routes the service lacks: without GET /sites the roster syncs without the site's name and zone. */
  routes?: RouteGate;
};

/** What the roster sync is built from (agent/delivery/build-delivery.ts). */
export type RosterSyncDeps = {
  api: RosterApi;
  roster: Roster;
  budget: RateBudget;
  clock: Clock;
  punchesDue: () => boolean;
  opts: RosterSyncOptions;
  log: Logger;
  onProgress?: (p: RosterSyncProgress) => void;
};
