import type { Clock, Random } from '../../domain/time/clock.js';
import { Backoff, type BackoffOptions } from '../../domain/rate/retry-policy.js';
import type { Logger } from '../../log.js';
import type { Db } from '../../store/database.js';
import type { Outbox } from '../../store/punches/outbox.js';
import { settingKeys, type SettingKey } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import type { RosterSync } from '../../sync/roster/roster-sync.js';
import type { RosterSyncResult } from '../../sync/roster/roster-sync-types.js';
import type { Capture } from '../capture/capture.js';
import type { AdminResult } from '../identity/identity-admin.js';
import { rosterComplete, type RosterSyncRecord } from '../status/status.js';

export type RosterKeeperDeps = {
  db: Db;
  rosterSync: RosterSync;
  outbox: Outbox;
  capture: Capture;
  clock: Clock;
  random: Random;
  log: Logger;
  refreshMs: number;
  retry: BackoffOptions;
  shrinkRecheckMs: number;
  stopSignal: AbortSignal;
  /** Bookkeeping writes that never throw (the agent's). */
  write<T>(key: SettingKey<T>, value: T): void;
  noteError(message: string): void;
  /** Something status shows changed. */
  changed(): void;
  /** Held punches were released: wake the uploader. */
  released(): void;
  /** A roster was applied: read the employers it names (sync/roster/employer-sync.ts); never awaited by a sync. */
  employers?: () => Promise<unknown>;
};

/**
 * Keeps the roster current: runs syncs, records each outcome for status (read by `timeclock
 * status` in another process too), plans the next one (the refresh interval after a success, a
 * growing back-off after a failure, the re-check of a held shrink) and applies what a new roster
 * means for punches already taken (held ones released, unresolved ones matched).
 */
export class RosterKeeper {
  private timer: NodeJS.Timeout | null = null;
  private scheduling = false;
  private readonly backoff: Backoff;
  /** The last sync record, kept in memory: capture asks whether the roster is complete on every unknown code. */
  private record: RosterSyncRecord | null;
  /** The last outcome recorded: callers that joined the same sync must not record it twice (nor back off twice). */
  private recorded: RosterSyncResult | null = null;

  constructor(private readonly d: RosterKeeperDeps) {
    this.backoff = new Backoff(d.retry, d.random);
    this.record = readSetting(d.db, settingKeys.rosterSync);
  }

  /** False while the terminal has no complete employee list (see `rosterComplete`). */
  complete(): boolean {
    return rosterComplete(this.record, this.d.clock.now(), this.d.refreshMs);
  }

  /**
   * Keeps syncing on schedule until `stop()`: the first sync now, unless the last one completed for
   * this site less than the refresh interval ago (then it is due when that interval ends, and this
   * resolves null). A restart costs no roster traffic: at 100,000 employees a full sync is 1,001
   * requests, 16.7 minutes of the account's whole budget.
   */
  start(): Promise<RosterSyncResult | null> {
    this.scheduling = true;
    const dueIn = this.freshFor(this.d.clock.now());
    if (dueIn !== null) {
      this.plan(dueIn);
      if (this.record) this.save({ ...this.record, nextAt: this.d.clock.now() + dueIn });
      this.d.log.info('roster: the last sync is recent, none at start', {
        lastOkAt: this.record?.lastOkAt,
        nextInMs: dueIn,
      });
      return Promise.resolve(null);
    }
    return this.sync();
  }

  /** How long until the roster in use needs refreshing, or null when a sync is due now. */
  private freshFor(now: number): number | null {
    const r = this.record;
    if (!r || !r.ok || r.outcome !== 'applied' || r.lastOkAt === null) return null;
    // Synced for another site (or before the site was recorded): the roster in use is not this one.
    if ((r.siteId ?? null) !== (this.d.rosterSync.siteId ?? null) || r.siteId === undefined) return null;
    const age = now - r.lastOkAt;
    // A sync "in the future" means the clock was stepped back since: trust nothing, sync.
    if (age < 0 || age >= this.d.refreshMs) return null;
    return this.d.refreshMs - age;
  }

  stop(): void {
    this.scheduling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async sync(): Promise<RosterSyncResult> {
    const res = await this.d.rosterSync.sync(this.d.stopSignal);
    if (res === this.recorded) return res;
    this.recorded = res;
    try {
      this.recordOutcome(res);
    } catch (e) {
      this.d.noteError(`recording the roster sync failed: ${(e as Error).message}`);
    }
    this.d.changed();
    return res;
  }

  /** The admin screen's confirmation of a roster that shrank by more than half. */
  confirmShrink(): AdminResult {
    const r = this.d.rosterSync.confirmShrink();
    if (r === null) return { ok: false, code: 'roster_shrink_none' };
    if (r === 'later') {
      void this.sync();
      return { ok: true, code: 'roster_shrink_applied', params: {} };
    }
    const now = this.d.clock.now();
    this.afterApplied(now, r, this.record?.siteFilter ?? null, this.record?.skipped ?? null, this.d.rosterSync.siteId);
    this.plan(this.d.refreshMs);
    this.d.changed();
    return { ok: true, code: 'roster_shrink_applied', params: { employees: String(r) } };
  }

  private recordOutcome(res: RosterSyncResult): void {
    if (res.outcome === 'cancelled') {
      if (!this.d.stopSignal.aborted) this.plan(this.backoff.fail());
      return;
    }
    const prev = this.record;
    if (res.outcome === 'applied') {
      if (res.site) {
        const known = readSetting(this.d.db, settingKeys.site);
        const id = res.site.id ?? this.d.rosterSync.siteId ?? known?.id ?? '';
        // A site read without a name shows its id; a zone the terminal cannot load is not kept.
        this.d.write(settingKeys.site, { id, name: res.site.name ?? id, timezone: res.site.timezone });
        this.d.capture.setSiteTimeZone(res.site.timezone);
      }
      this.backoff.reset();
      // A refresh by changes checks neither the site filter nor the whole listing: the last full sync's findings stand.
      const byChanges = res.changed !== undefined;
      this.afterApplied(
        res.finishedAt,
        res.employees,
        byChanges ? (prev?.siteFilter ?? null) : res.siteFilter,
        byChanges ? (prev?.skipped ?? null) : res.skipped,
        res.siteId,
      );
      this.plan(this.d.refreshMs);
      return;
    }
    let delay: number;
    let heldShrink: RosterSyncRecord['heldShrink'] = null;
    if (res.outcome === 'shrink_held') {
      delay = this.d.shrinkRecheckMs;
      heldShrink = { employees: res.staged, inUse: res.inUse, since: res.heldSince, recheckAt: null };
    } else {
      delay = this.backoff.fail();
      // A failed sync is the terminal's news too: status says why (whether the service answers is the service watch's).
      if (res.outcome === 'failed') this.d.noteError(`roster sync failed: ${res.error}`);
    }
    const nextAt = this.scheduling ? this.d.clock.now() + delay : null;
    if (heldShrink) heldShrink.recheckAt = nextAt;
    this.save({
      at: res.finishedAt,
      ok: false,
      employees: prev?.employees ?? null,
      error: res.error,
      lastOkAt: prev?.lastOkAt ?? null,
      outcome: res.outcome,
      skipped: 'skipped' in res ? res.skipped : (prev?.skipped ?? null),
      siteFilter: 'siteFilter' in res && res.siteFilter !== null ? res.siteFilter : (prev?.siteFilter ?? null),
      heldShrink,
      nextAt,
      ...(prev && 'siteId' in prev ? { siteId: prev.siteId ?? null } : {}),
    });
    if (res.outcome === 'incomplete' && res.partial) this.afterRosterChanged(res.finishedAt);
    this.plan(delay);
  }

  /** A new roster is in use: record it, then what it means for punches already taken. */
  private afterApplied(
    at: number,
    employees: number,
    siteFilter: RosterSyncRecord['siteFilter'],
    skipped: RosterSyncRecord['skipped'],
    siteId: string | null,
  ): void {
    this.save({
      siteId,
      at,
      ok: true,
      employees,
      error: null,
      lastOkAt: at,
      outcome: 'applied',
      skipped,
      siteFilter,
      heldShrink: null,
      nextAt: this.scheduling ? this.d.clock.now() + this.d.refreshMs : null,
    });
    this.afterRosterChanged(at);
  }

  /** The employer reads started after the last roster applied (none: resolved). */
  private employersRun: Promise<unknown> = Promise.resolve();

  /**
   * Settles when the employers the roster names have been read (or could not be): `timeclock roster sync` waits for it.
   */
  employersSettled(): Promise<void> {
    return this.employersRun.then(
      () => undefined,
      () => undefined,
    );
  }

  private afterRosterChanged(now: number): void {
    this.employersRun = this.d.employers?.() ?? Promise.resolve();
    try {
      const p = this.d.outbox.applyApiPermissions(now);
      if (p.held > 0 || p.released > 0) this.d.log.info('punches held or released by allow_external_api_record', p);
      const retried = this.d.outbox.releaseForbidden(now);
      if (p.released > 0 || retried > 0) this.d.released();
    } catch (e) {
      this.d.noteError(`holding or releasing punches failed: ${(e as Error).message}`);
    }
    try {
      this.d.capture.resolvePending();
    } catch (e) {
      this.d.noteError(`matching unresolved punches failed: ${(e as Error).message}`);
    }
  }

  private save(rec: RosterSyncRecord): void {
    this.record = rec;
    this.d.write(settingKeys.rosterSync, rec);
  }

  /** The next sync `ms` from now (replacing whatever was planned), while scheduling. */
  private plan(ms: number): void {
    if (!this.scheduling || this.d.stopSignal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, ms);
    this.timer.unref();
  }
}
