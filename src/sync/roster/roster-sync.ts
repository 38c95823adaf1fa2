import type { ApiOutcome } from '../../api/client.js';
import { describeOutcome } from '../../api/classify.js';
import type { SiteRecord } from '../../api/roster-records.js';
import { rateLimitPause } from '../../domain/rate/retry-policy.js';
import { absentReason } from '../delivery/route-gate.js';
import { Priority } from '../window/rate-budget.js';
import { stageAllPages } from './roster-pages.js';
import type { RosterSyncDeps, RosterSyncOptions, RosterSyncProgress, RosterSyncResult } from './roster-sync-types.js';
import { checkSiteFilter, type SiteFilterCheck } from './site-filter-check.js';

/**
 * Fetches every page of this site's active employees into a staging table (one page in memory at
 * a time) and swaps it in as the cached roster in one transaction. Paging follows what the server
 * answered, never what was asked; each record is read on its own. Runs at roster priority and
 * stands aside while punches are due, so a backlog always drains first.
 */
export class RosterSync {
  /** The sync under way (or waiting for the one before it), and for which site generation. */
  private current: { gen: number; ctl: AbortController; promise: Promise<RosterSyncResult> } | null = null;
  /** Bumped by every site change: a sync of an older generation commits nothing. */
  private gen = 0;
  private readonly opts: RosterSyncOptions;
  /** A shrinking roster held aside, since when, and whether the staging table still holds it. */
  private heldShrink: { since: number; gen: number; staged: boolean } | null = null;
  /** A manager confirmed the shrink when it could not be applied at once: the next complete sync applies it. */
  private acceptShrink = false;
  progress: RosterSyncProgress | null = null;

  constructor(private readonly d: RosterSyncDeps) {
    this.opts = { ...d.opts };
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
    this.heldShrink = null;
    this.acceptShrink = false;
    this.current?.ctl.abort();
  }

  /** The budget's window changed: used for a 429 without a usable Retry-After. */
  setWindowMs(ms: number): void {
    this.opts.windowMs = ms;
  }

  /**
   * A manager confirms a held shrink: the staged roster goes in now; or, when a sync is under way
   * or has since rewritten the staging table, the next complete sync is applied whatever its size.
   * Returns the size of the roster applied, 'later', or null when nothing was held.
   */
  confirmShrink(): number | 'later' | null {
    if (!this.heldShrink || this.heldShrink.gen !== this.gen) return null;
    if (this.current || !this.heldShrink.staged) {
      this.acceptShrink = true;
      return 'later';
    }
    this.heldShrink = null;
    const n = this.d.roster.commitStaging();
    this.d.log.info("smaller roster applied on a manager's confirmation", { employees: n });
    return n;
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
    const before = cur
      ? cur.promise.then(
          () => undefined,
          () => undefined,
        )
      : Promise.resolve();
    const gen = this.gen;
    const entry: { gen: number; ctl: AbortController; promise: Promise<RosterSyncResult> } = {
      gen,
      ctl,
      promise: Promise.resolve(null as never),
    };
    entry.promise = before
      .then(() => this.run(gen, ctl.signal))
      // Whatever escapes (a storage error, a bug) is this sync's failure, never the process's.
      .catch((e: unknown) => this.failed(`roster sync stopped: ${(e as Error).message}`, 0))
      .finally(() => {
        // Whatever the outcome, the staging's checkpoint worker is not kept for a next sync.
        this.d.roster.endStaging();
        signal?.removeEventListener('abort', onAbort);
        if (this.current === entry) {
          this.current = null;
          this.progress = null;
        }
      });
    this.current = entry;
    return entry.promise;
  }

  private async call<T>(
    purpose: string,
    fn: () => Promise<ApiOutcome<T>>,
    signal?: AbortSignal,
  ): Promise<ApiOutcome<T> | null> {
    if (signal?.aborted) return null;
    const ticket = await this.d.budget.acquire(Priority.roster, purpose, { signal, standAside: this.d.punchesDue });
    if (!ticket) return null;
    try {
      return await fn();
    } finally {
      this.d.budget.release(ticket);
    }
  }

  private failed(
    error: string,
    requests: number,
    outcome: 'failed' | 'cancelled' = 'failed',
    reachable: boolean | null = null,
  ): RosterSyncResult {
    if (outcome === 'failed') this.d.log.warn('roster sync failed; the previous roster stays in use', { error });
    return { ok: false, outcome, error, requests, finishedAt: this.d.clock.now(), reachable };
  }

  /** A request that did not come back with an answer to use: pauses what the service asked for. */
  private failure(res: ApiOutcome<unknown> | null, requests: number): RosterSyncResult {
    const now = this.d.clock.now();
    if (!res) return this.failed('cancelled', requests, 'cancelled');
    if (res.kind === 'rate_limited')
      this.d.budget.pauseUntil(
        now + rateLimitPause(res.retryAfterHeader, now, this.opts.windowMs, res.serverDate),
        'retry_after',
      );
    if (res.kind === 'auth') this.d.budget.pauseUntil(now + this.opts.authRetryMs, 'auth');
    return this.failed(describeOutcome(res), requests, 'failed', res.kind !== 'not_sent' && res.kind !== 'unknown');
  }

  private async run(gen: number, signal: AbortSignal): Promise<RosterSyncResult> {
    const { siteId, pageSize } = this.opts;
    let requests = 0;
    let site: SiteRecord | null = null;
    let siteError: string | null = null;
    const sitesAbsent = siteId ? (this.opts.routes?.held('GET /sites') ?? null) : null;
    if (sitesAbsent) siteError = absentReason(sitesAbsent);
    else if (siteId) {
      requests++;
      const res = await this.call('site', () => this.d.api.getSite(siteId), signal);
      if (res) this.opts.routes?.noteAnswer('GET /sites', siteId, res);
      // The site's name and zone are a comfort; its employees do not depend on them.
      if (!res || res.kind === 'auth') return this.failure(res, requests);
      if (res.kind === 'ok') site = res.value;
      else siteError = describeOutcome(res);
    }

    const changes = await this.byChanges(gen, site, siteError, requests, signal);
    if (changes) return changes;
    requests += this.lastChangeRequests;

    this.d.roster.beginStaging();
    if (this.heldShrink) this.heldShrink.staged = false;
    const read = await stageAllPages({
      fetch: (page) => this.call('roster', () => this.d.api.getEmployeesPage(page, pageSize, siteId), signal),
      stage: (rows) => this.d.roster.stagePage(rows),
      progress: (p) => this.setProgress(gen, p),
    });
    requests += read.requests;
    if (!read.ok) return this.failure(read.res, requests);
    const { skipped, lastTotal, pages, startedAt, problem } = read;
    // The site changed while this one was fetched: its roster is not the one wanted any more.
    if (gen !== this.gen) return this.failed('cancelled', requests, 'cancelled');

    let siteFilter: SiteFilterCheck | null = null;
    if (siteId && !problem) {
      const check = await checkSiteFilter(this.d.api, lastTotal, (fn) => this.call('roster', fn, signal));
      siteFilter = check.result;
      requests += check.requests;
    }
    if (skipped.count > 0)
      this.d.log.warn('roster records skipped: the terminal cannot use them', {
        count: skipped.count,
        first: skipped.examples.slice(0, 3),
      });
    const fetched = { requests, skipped, siteFilter, site, siteError };
    const staged = this.d.roster.stagedSize();
    const inUse = this.d.roster.size();
    this.setProgress(gen, { pagesDone: pages, pagesTotal: pages });

    if (problem) {
      // Something beats nothing: a terminal with no roster at all takes what arrived.
      const partial = inUse === 0 && staged > 0;
      if (partial) this.d.roster.commitStaging();
      this.d.log.warn('roster sync incomplete; it will be tried again', { problem, staged, inUse, partial });
      return { ...fetched, ok: false, outcome: 'incomplete', error: problem, partial, finishedAt: this.d.clock.now() };
    }
    // Asked before anything is applied, so that the result follows the swap at once.
    const probe = this.opts.changes
      ? await this.opts.changes.probe(siteId, lastTotal, (fn) => this.call('roster', fn, signal))
      : { honoured: false, requests: 0 };
    requests += probe.requests;
    fetched.requests = requests;
    if (gen !== this.gen) return this.failed('cancelled', requests, 'cancelled');
    const now = this.d.clock.now();
    const inUseSite = this.opts.inUseSite();
    const sameSite = inUseSite === undefined || inUseSite === siteId;
    if (inUse > 0 && staged * 2 < inUse && sameSite && !this.acceptShrink) {
      const held = this.heldShrink && this.heldShrink.gen === gen ? this.heldShrink : null;
      // A second sync, a while after the first, that agrees: the roster really shrank.
      if (!held || now - held.since < this.opts.shrinkRecheckMs) {
        this.heldShrink = { since: held?.since ?? now, gen, staged: true };
        const error = `the new roster has ${staged} employees, less than half of the ${inUse} in use: held until a later sync agrees or a manager confirms`;
        this.d.log.warn('roster sync held: it would shrink the roster by more than half', { staged, inUse });
        return {
          ...fetched,
          ok: false,
          outcome: 'shrink_held',
          error,
          staged,
          inUse,
          heldSince: this.heldShrink.since,
          finishedAt: now,
        };
      }
    }
    this.heldShrink = null;
    this.acceptShrink = false;
    const employees = this.d.roster.commitStaging();
    this.opts.changes?.fullApplied(siteId, startedAt, skipped.count, probe.honoured);
    this.d.log.info('roster synced', { employees, listed: read.listed, requests, skipped: skipped.count });
    return { ...fetched, ok: true, outcome: 'applied', employees, siteId, finishedAt: this.d.clock.now() };
  }

  private lastChangeRequests = 0;

  /**
   * A refresh by changes (roster-changes.ts): its result when it applied or failed, null when a
   * full sync is needed (the requests it made then in `lastChangeRequests`).
   */
  private async byChanges(
    gen: number,
    site: SiteRecord | null,
    siteError: string | null,
    before: number,
    signal: AbortSignal,
  ): Promise<RosterSyncResult | null> {
    this.lastChangeRequests = 0;
    if (!this.opts.changes || this.heldShrink || this.acceptShrink) return null;
    const r = await this.opts.changes.refresh(this.opts.siteId, (fn) => this.call('roster', fn, signal));
    const requests = before + r.requests;
    if (r.kind === 'failed') return this.failure(r.res, requests);
    if (r.kind === 'full') {
      this.lastChangeRequests = r.requests;
      if (r.requests > 0) this.d.log.info('roster: a full sync', { why: r.why });
      return null;
    }
    if (gen !== this.gen) return this.failed('cancelled', requests, 'cancelled');
    this.d.log.info('roster refreshed by its changes', { changed: r.changed, employees: r.employees, requests });
    const fetched = { requests, skipped: r.skipped, siteFilter: null, site, siteError };
    return {
      ...fetched,
      ok: true,
      outcome: 'applied',
      employees: r.employees,
      siteId: this.opts.siteId,
      changed: r.changed,
      finishedAt: this.d.clock.now(),
    };
  }

  /** The pages read so far, told only for the sync of the site wanted now. */
  private setProgress(gen: number, p: RosterSyncProgress): void {
    if (gen !== this.gen) return; // a cancelled sync of the old site
    this.progress = p;
    this.d.onProgress?.(p);
  }
}
