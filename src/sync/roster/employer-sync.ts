/**
 * Each worker's own employer (issue 26): the payment sources the roster names, read with
 * `GET /payment-sources/{id}` into the employers cache (store/roster/employers.ts). Run after each roster
 * sync, one request at a time, below the roster's own pages (Priority.audit: the punch reserve kept
 * free, sync/window/priority.ts) and standing aside while punches are due, so it never delays a punch. Not
 * at the self-service level: that goes only while the window is nearly empty, and a roster sync
 * leaves it fuller than that for up to a window, so a worker would punch before their employer is
 * known (and be sealed under the configured one). A failed
 * read leaves the cache as it was; a 404 records the employer as missing (its workers fall back to
 * the configured employer, listed in roster health).
 */
import { describeOutcome, type ApiOutcome } from '../../api/classify.js';
import type { EmployerRecord } from '../../api/employer-records.js';
import type { Clock } from '../../domain/time/clock.js';
import { rateLimitPause } from '../../domain/rate/retry-policy.js';
import type { Logger } from '../../log.js';
import type { WritableDb } from '../../store/database.js';
import { EmployerCache, saveEmployer } from '../../store/roster/employers.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';

export type EmployerApi = { getPaymentSource(id: string): Promise<ApiOutcome<EmployerRecord>> };

export type EmployerSyncDeps = {
  api: EmployerApi;
  db: WritableDb;
  budget: RateBudget;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  punchesDue: () => boolean;
  windowMs: () => number;
  /** An employer read this long ago is read again (default a day). */
  refreshMs?: number;
  /** At most this many reads a run (default 200): a site has few employers. */
  maxReads?: number;
};

export type EmployerSyncResult = { read: number; missing: number; failed: number; requests: number };

export class EmployerSync {
  private running: Promise<EmployerSyncResult> | null = null;
  private readonly cache: EmployerCache;

  constructor(private readonly d: EmployerSyncDeps) {
    this.cache = new EmployerCache(d.db);
  }

  /** Joins a run under way. */
  run(signal?: AbortSignal): Promise<EmployerSyncResult> {
    this.running ??= this.once(signal).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async once(signal?: AbortSignal): Promise<EmployerSyncResult> {
    const r: EmployerSyncResult = { read: 0, missing: 0, failed: 0, requests: 0 };
    const now = this.d.clock.now();
    const ids = this.cache.due(now - (this.d.refreshMs ?? 24 * 3_600_000), this.d.maxReads ?? 200);
    for (const id of ids) {
      if (signal?.aborted) break;
      const ticket = await this.d.budget.acquire(Priority.audit, 'employer', { signal, standAside: this.d.punchesDue });
      if (!ticket) break;
      let res: ApiOutcome<EmployerRecord>;
      try {
        res = await this.d.api.getPaymentSource(id);
      } finally {
        this.d.budget.release(ticket);
      }
      r.requests++;
      const at = this.d.clock.now();
      if (res.kind === 'ok') {
        saveEmployer(this.d.db, id, res.value, at);
        r.read++;
      } else if (res.kind === 'refused' && res.status === 404) {
        saveEmployer(this.d.db, id, 'missing', at);
        r.missing++;
        this.d.log.warn('the service has no employer with this id: its workers fall back to the configured employer', {
          paymentSource: id,
        });
      } else {
        r.failed++;
        if (res.kind === 'rate_limited')
          this.d.budget.pauseUntil(
            at + rateLimitPause(res.retryAfterHeader, at, this.d.windowMs(), res.serverDate),
            'retry_after',
          );
        this.d.log.warn('employer not read; tried again after the next roster sync', {
          paymentSource: id,
          error: describeOutcome(res),
        });
        if (res.kind !== 'server_error') break; // auth, offline, 429: the rest would fare no better now
      }
    }
    if (r.requests > 0) this.d.log.info('employers read', { ...r });
    return r;
  }
}
