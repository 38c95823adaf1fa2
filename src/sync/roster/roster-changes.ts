/**
 * Refreshing the roster by its changes instead of re-reading it whole. The listing's query
 * parameters are "not shown" by the specification, but every record carries `_updated`, and an
 * Eve-style service filters on it (`where={"_updated":{"$gte":…}}`). After a full sync one request
 * asks for employees changed after the year 2999: a service that honours the filter answers none,
 * one that ignores it answers the whole site, and the terminal goes on with full syncs.
 *
 * A filter shows what changed, never who left (only active employees are listed), so each refresh
 * also asks for the site's count: the roster in use plus the changes must add up to it, else the
 * refresh falls back to a full sync. And one full sync a day (`roster.fullEveryMs`) whatever.
 *
 * Conditional requests (ETag / If-None-Match, If-Modified-Since) are not used: under a limit on
 * requests, a 304 costs the same slot as the page it spares, and a listing of many pages would
 * still need one request a page.
 */
import type { ApiOutcome, EmployeePage } from '../../api/client.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import type { RosterApi } from './roster-api.js';
import { usableRows, type Skipped } from './roster-rows.js';
import type { ChangesMemo } from '../../domain/people/roster-changes-memo.js';

/** Kept in settings (store/settings/setting-keys.ts `rosterChanges`); declared once, in domain. */
export type { ChangesMemo };

/** `_updated` is shown to the minute and the Date header to the second: ask from a little earlier. */
export const OVERLAP_MS = 2 * 60_000;
/** A date no employee was changed after. */
const FAR_FUTURE = Date.UTC(2999, 0, 1);

/** Sends a request on a roster slot of the rate budget (null: cancelled). */
export type RosterCall = <T>(fn: () => Promise<ApiOutcome<T>>) => Promise<ApiOutcome<T> | null>;

export type ChangesDeps = {
  api: RosterApi;
  roster: { size(): number; applyChanges(employees: readonly RosterEmployee[]): number };
  memo: { read(): ChangesMemo | null; write(m: ChangesMemo): void };
  pageSize: number;
  fullEveryMs: number;
};

export type ChangesOutcome =
  /** A full sync is needed (no filter, a day since the last, someone left, an answer that does not add up). */
  | { kind: 'full'; requests: number; why: string }
  | { kind: 'applied'; requests: number; changed: number; employees: number; skipped: Skipped }
  /** A request did not come back with an answer to use (null: cancelled). */
  | { kind: 'failed'; requests: number; res: ApiOutcome<unknown> | null };

export class RosterChanges {
  constructor(private readonly d: ChangesDeps) {}

  /** Refreshes by changes when the service allows it; otherwise says a full sync is needed. */
  async refresh(siteId: string | null, call: RosterCall): Promise<ChangesOutcome> {
    const memo = this.d.memo.read();
    if (!memo || memo.mode !== 'changes' || memo.siteId !== siteId)
      return { kind: 'full', requests: 0, why: 'no filter known to work' };
    if (this.d.roster.size() === 0) return { kind: 'full', requests: 0, why: 'no roster yet' };
    let requests = 1;
    const count = await call(() => this.d.api.getEmployeesPage(1, 1, siteId));
    if (!count || count.kind !== 'ok') return { kind: 'failed', requests, res: count };
    const total = count.value.meta.total;
    const startedAt = count.serverDate;
    if (total === null || startedAt === null)
      return { kind: 'full', requests, why: 'the answer has no total or no Date' };
    if (startedAt - memo.fullAt >= this.d.fullEveryMs) return { kind: 'full', requests, why: 'the daily full sync' };

    const skipped: Skipped = { count: 0, examples: [] };
    let changed = 0;
    let listed = 0;
    for (let page = 1; ; page++) {
      requests++;
      const res = await call(() => this.d.api.getEmployeesPage(page, this.d.pageSize, siteId, memo.since - OVERLAP_MS));
      if (!res || res.kind !== 'ok') return { kind: 'failed', requests, res };
      const { items, meta } = res.value;
      // The whole site again: the filter is not (or no longer) honoured.
      if (page === 1 && meta.total !== null && meta.total >= total && total > this.d.pageSize) {
        this.d.memo.write({ ...memo, mode: 'full' });
        return { kind: 'full', requests, why: 'the service answered every employee to a filter on _updated' };
      }
      changed += this.apply(items, listed, skipped);
      listed += items.length;
      if (items.length === 0 || (meta.total !== null && listed >= meta.total)) break;
      if (meta.maxResults !== null ? items.length < meta.maxResults : items.length < this.d.pageSize) break;
      if (page >= Math.ceil(total / Math.max(1, items.length)) + 1) break;
    }
    const employees = this.d.roster.size();
    // Changes never show who left; the count does.
    if (employees + memo.unusable !== total)
      return { kind: 'full', requests, why: `${employees} employees after the changes, the service counts ${total}` };
    this.d.memo.write({ ...memo, since: startedAt });
    return { kind: 'applied', requests, changed, employees, skipped };
  }

  /**
   * Before a complete full sync is applied: whether the service honours the filter, asked with
   * one request unless already known (null: nothing to tell it by). Returns it and the requests made.
   */
  async probe(
    siteId: string | null,
    total: number | null,
    call: RosterCall,
  ): Promise<{ honoured: boolean; requests: number }> {
    const memo = this.d.memo.read();
    if (memo && memo.siteId === siteId && memo.mode === 'changes') return { honoured: true, requests: 0 };
    // Nobody to tell apart: a service that ignores the filter would also answer none.
    if (!total) return { honoured: false, requests: 0 };
    const res = await call(() => this.d.api.getEmployeesPage(1, 1, siteId, FAR_FUTURE));
    return { honoured: res?.kind === 'ok' && res.value.items.length === 0 && res.value.meta.total === 0, requests: 1 };
  }

  /**
   * A full sync that began at `startedAt` (service time; null without a Date header, which leaves
   * nothing to ask changes from) is in use: the next refresh asks for changes since then.
   */
  fullApplied(siteId: string | null, startedAt: number | null, unusable: number, honoured: boolean): void {
    const at = startedAt ?? 0;
    this.d.memo.write({
      siteId,
      mode: honoured && startedAt !== null ? 'changes' : 'full',
      since: at,
      fullAt: at,
      unusable,
    });
  }

  private apply(items: EmployeePage['items'], listedBefore: number, skipped: Skipped): number {
    const usable = usableRows(items, listedBefore, skipped);
    return usable.length > 0 ? this.d.roster.applyChanges(usable) : 0;
  }
}
