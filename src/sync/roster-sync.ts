import type { ApiOutcome } from '../api/client.js';
import type { EmployeePage, Site } from '../api/shapes.js';
import type { Clock } from '../domain/clock.js';
import { rateLimitPause } from '../domain/retry-policy.js';
import type { Logger } from '../log.js';
import { toRosterEmployee, type Roster } from '../store/roster.js';
import { Priority, type RateBudget } from './rate-budget.js';

export type RosterApi = {
  getEmployeesPage(page: number, maxResults: number, siteId: string | null): Promise<ApiOutcome<EmployeePage>>;
  getSite(siteId: string): Promise<ApiOutcome<Site>>;
};

export type RosterSyncProgress = { pagesDone: number; pagesTotal: number | null };

export type RosterSyncResult =
  | { ok: true; employees: number; requests: number; site: Site | null; finishedAt: number }
  | { ok: false; error: string; requests: number; finishedAt: number };

export type RosterSyncOptions = { siteId: string | null; pageSize: number; windowMs: number; authRetryMs: number };

/**
 * Fetches every page of this site's active employees into a staging table (one page in memory at
 * a time) and swaps it in as the cached roster in one transaction. Any failure leaves the previous roster whole. Runs at roster priority and stands
 * aside while punches are due, so a backlog always drains first.
 */
export class RosterSync {
  /** The sync under way (or waiting for the one before it), and for which site generation. */
  private current: { gen: number; ctl: AbortController; promise: Promise<RosterSyncResult> } | null = null;
  /** Bumped by every site change: a sync of an older generation commits nothing. */
  private gen = 0;
  private readonly opts: RosterSyncOptions;
  progress: RosterSyncProgress | null = null;

  constructor(
    private readonly api: RosterApi,
    private readonly roster: Roster,
    private readonly budget: RateBudget,
    private readonly clock: Clock,
    private readonly punchesDue: () => boolean,
    opts: RosterSyncOptions,
    private readonly log: Logger,
    private readonly onProgress: (p: RosterSyncProgress) => void = () => {},
  ) {
    this.opts = { ...opts };
  }

  get siteId(): string | null {
    return this.opts.siteId;
  }

  /**
   * Another site: a sync under way for the old one is cancelled (it commits nothing) and the next
   * `sync()` fetches the new site's roster. The roster in use stays until that one is complete.
   */
  setSiteId(siteId: string | null): void {
    if (siteId === this.opts.siteId) return;
    this.opts.siteId = siteId;
    this.gen++;
    this.current?.ctl.abort();
  }

  /** The budget's window changed: used for a 429 without a usable Retry-After. */
  setWindowMs(ms: number): void {
    this.opts.windowMs = ms;
  }

  /**
   * Joins a sync already under way for the same site instead of starting a second one; after a
   * site change, starts one for the new site once the cancelled one has let go of the staging table.
   */
  sync(signal?: AbortSignal): Promise<RosterSyncResult> {
    const cur = this.current;
    if (cur && cur.gen === this.gen) return cur.promise;
    const ctl = new AbortController();
    const onAbort = () => ctl.abort();
    if (signal?.aborted) ctl.abort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const before = cur ? cur.promise.then(() => undefined, () => undefined) : Promise.resolve();
    const gen = this.gen;
    const entry: { gen: number; ctl: AbortController; promise: Promise<RosterSyncResult> } = { gen, ctl, promise: Promise.resolve(null as never) };
    entry.promise = before
      .then(() => this.run(gen, ctl.signal))
      .finally(() => {
        signal?.removeEventListener('abort', onAbort);
        if (this.current === entry) {
          this.current = null;
          this.progress = null;
        }
      });
    this.current = entry;
    return entry.promise;
  }

  private async call<T>(purpose: string, fn: () => Promise<ApiOutcome<T>>, signal?: AbortSignal): Promise<ApiOutcome<T> | null> {
    const ticket = await this.budget.acquire(Priority.roster, purpose, { signal, standAside: this.punchesDue });
    if (!ticket) return null;
    try {
      return await fn();
    } finally {
      this.budget.release(ticket);
    }
  }

  private failure(res: ApiOutcome<unknown> | null, requests: number): RosterSyncResult {
    const now = this.clock.now();
    let error: string;
    if (!res) error = 'cancelled';
    else if (res.kind === 'rate_limited') {
      this.budget.pauseUntil(now + rateLimitPause(res.retryAfterHeader, now, this.opts.windowMs), 'retry_after');
      error = '429 rate limited';
    } else if (res.kind === 'auth') {
      this.budget.pauseUntil(now + this.opts.authRetryMs, 'auth');
      error = res.reason;
    } else if (res.kind === 'refused') error = res.reason;
    else if (res.kind === 'ok') error = 'unexpected';
    else error = res.error;
    this.log.warn('roster sync failed; the previous roster stays in use', { error });
    return { ok: false, error, requests, finishedAt: now };
  }

  private async run(gen: number, signal: AbortSignal): Promise<RosterSyncResult> {
    const { siteId, pageSize } = this.opts;
    let requests = 0;
    let site: Site | null = null;
    if (siteId) {
      requests++;
      const res = await this.call('site', () => this.api.getSite(siteId), signal);
      if (!res || res.kind !== 'ok') return this.failure(res, requests);
      site = res.value;
    }
    this.roster.beginStaging();
    let fetched = 0;
    let total: number | null = null;
    for (let page = 1; total === null || (page - 1) * pageSize < total; page++) {
      this.setProgress(gen, { pagesDone: page - 1, pagesTotal: total === null ? null : Math.ceil(total / pageSize) });
      requests++;
      const res = await this.call('roster', () => this.api.getEmployeesPage(page, pageSize, siteId), signal);
      if (!res || res.kind !== 'ok') return this.failure(res, requests);
      total = res.value._meta.total;
      this.roster.stagePage(res.value._items.map(toRosterEmployee));
      fetched += res.value._items.length;
      if (res.value._items.length === 0) break; // the server ran out before its own total: stop, do not loop
    }
    // The site changed while this one was fetched: its roster is not the one wanted any more.
    if (gen !== this.gen) return this.failure(null, requests);
    this.setProgress(gen, { pagesDone: Math.ceil((total ?? 0) / pageSize), pagesTotal: Math.ceil((total ?? 0) / pageSize) });
    const employees = this.roster.commitStaging();
    const finishedAt = this.clock.now();
    this.log.info('roster synced', { employees, fetched, requests });
    return { ok: true, employees, requests, site, finishedAt };
  }

  private setProgress(gen: number, p: RosterSyncProgress): void {
    if (gen !== this.gen) return; // a cancelled sync of the old site
    this.progress = p;
    this.onProgress(p);
  }
}
