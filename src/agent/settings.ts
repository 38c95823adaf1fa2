/**
 * The settings the admin screen can change while the terminal runs — the API token, the site and
 * the request budget — over the configuration they start from. What was changed is kept in the
 * `settings` table (the token itself only in a TokenStore, never in the database), applied by
 * buildAgent at the next start, and cleared by `timeclock settings reset`.
 *
 * The token never leaves this module in any answer, status, log line, audit entry or error.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ApiOutcome } from '../api/client.js';
import { describeOutcome } from '../api/classify.js';
import { objectIdPattern } from '../api/shapes.js';
import type { SiteRecord } from '../api/roster-records.js';
import type { Clock } from '../domain/clock.js';
import { rateLimitPause } from '../domain/retry-policy.js';
import type { WindowRule } from '../domain/sliding-window.js';
import type { Logger } from '../log.js';
import type { AuditLog } from '../store/audit-log.js';
import type { Db } from '../store/database.js';
import { removePrivateFile, TOKEN_ENC_FILE_NAME, TOKEN_FILE_NAME } from '../store/private-file.js';
import { readSetting, writeSetting } from '../store/settings.js';
import { Priority, type RateBudget } from '../sync/rate-budget.js';
import type { AdminResult } from './identity-admin.js';
import { S } from './status.js';
import type { TokenStore } from './token-store.js';

/** Bounds of the request budget (as in src/contract.ts `setRateBudget`). */
export const RATE_LIMIT_RANGE = { min: 1, max: 10_000 } as const;
export const RATE_WINDOW_RANGE = { min: 1_000, max: 3_600_000 } as const;
const MAX_TOKEN_LENGTH = 512;
/** How long a check with the service may wait for a slot of the budget before the setting is kept unchecked. */
const CHECK_WAIT_MS = 10_000;

/** A site chosen on the admin screen. `demo`: chosen while running the demo (applies only to the demo). */
export type SiteOverride = { siteId: string; setAt: number; demo: boolean };
export type RateOverride = { limit: number; windowMs: number; setAt: number; demo: boolean };
/** That a token was saved from the admin screen, when and where: never the token. */
export type TokenSavedRecord = { setAt: number; source: 'keyring' | 'file'; warning: string | null };

/** As src/contract.ts `statusSchema.settings`. */
export type SettingsView = {
  siteId: string | null;
  rateLimit: WindowRule;
  token: { source: 'config' | 'keyring' | 'file'; setAt: number | null; warning: string | null };
};

/** Overrides that apply in this mode: the demo's never reach a real configuration, nor the reverse. */
export function storedOverrides(db: Db, demo: boolean): { site: SiteOverride | null; rate: RateOverride | null; token: TokenSavedRecord | null } {
  const site = readSetting<SiteOverride>(db, S.siteOverride);
  const rate = readSetting<RateOverride>(db, S.rateOverride);
  return {
    site: site && site.demo === demo && objectIdPattern.test(site.siteId) ? site : null,
    rate: rate && rate.demo === demo && validRate(rate.limit, rate.windowMs) === null ? rate : null,
    token: demo ? null : readSetting<TokenSavedRecord>(db, S.tokenSaved),
  };
}

/** The settings in force from the database and the configuration alone (`timeclock status` / `settings show`). */
export function storedSettingsView(db: Db, config: { siteId?: string | undefined; rateLimit: WindowRule }, demo: boolean): SettingsView {
  const o = storedOverrides(db, demo);
  return {
    siteId: o.site?.siteId ?? config.siteId ?? null,
    rateLimit: o.rate ? { limit: o.rate.limit, windowMs: o.rate.windowMs } : { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs },
    token: o.token ? { source: o.token.source, setAt: o.token.setAt, warning: o.token.warning } : { source: 'config', setAt: null, warning: null },
  };
}

/**
 * Forgets every setting saved from the admin screen (token files of both stores included), so the
 * configuration rules again at the next start. The caller holds the data directory's lock.
 */
export function resetSavedSettings(db: Db, dataDir: string, audit: AuditLog, now: number): string[] {
  const cleared: string[] = [];
  if (readSetting(db, S.siteOverride)) cleared.push('site');
  if (readSetting(db, S.rateOverride)) cleared.push('request budget');
  const files = [TOKEN_FILE_NAME, TOKEN_ENC_FILE_NAME].map((f) => path.join(dataDir, f));
  if (readSetting(db, S.tokenSaved) || files.some((f) => fs.existsSync(f))) cleared.push('API token');
  // Files first: a token file left behind would still be used; a setting left behind is harmless.
  for (const f of files) removePrivateFile(f);
  db.transaction(() => {
    for (const k of [S.siteOverride, S.rateOverride, S.tokenSaved]) db.prepare('DELETE FROM settings WHERE key = ?').run(k);
    audit.record(now, 'settings_reset', null, cleared.length ? `cleared: ${cleared.join(', ')}` : 'nothing was saved');
  })();
  return cleared;
}

/** Null when the budget is within bounds, else what is wrong with it. */
export function validRate(limit: unknown, windowMs: unknown): string | null {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < RATE_LIMIT_RANGE.min || limit > RATE_LIMIT_RANGE.max) {
    return `the limit must be a whole number of requests from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max}`;
  }
  if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs < RATE_WINDOW_RANGE.min || windowMs > RATE_WINDOW_RANGE.max) {
    return `the window must be a whole number of milliseconds from ${RATE_WINDOW_RANGE.min} (1 s) to ${RATE_WINDOW_RANGE.max} (1 h)`;
  }
  return null;
}

/** What is wrong with a token as typed, or null. Never quotes it. */
function tokenProblem(token: string): string | null {
  if (token.length === 0) return 'the token is empty';
  if (token.length > MAX_TOKEN_LENGTH) return `the token is longer than ${MAX_TOKEN_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(token)) return 'the token must not contain spaces, line breaks or control characters';
  return null;
}

/** A window in seconds, as text ("60", "1.5"). */
const seconds = (ms: number): string => String(ms / 1000);

/** "60 per 60 s": a budget as people read it. */
export const perWindow = (r: WindowRule): string => `${r.limit} per ${r.windowMs % 1000 === 0 ? `${r.windowMs / 1000} s` : `${r.windowMs} ms`}`;

/** The calls of the API the settings need. */
export type SettingsApi = {
  setToken(token: string): void;
  checkToken(token: string, siteId: string | null): Promise<ApiOutcome<unknown>>;
  getSite(siteId: string): Promise<ApiOutcome<SiteRecord>>;
};

export type SettingsDeps = {
  db: Db;
  audit: AuditLog;
  api: SettingsApi;
  budget: RateBudget;
  tokens: TokenStore;
  clock: Clock;
  log: Logger;
  /** The embedded demo: its token is fixed, and nothing set here reaches a real configuration. */
  demo: boolean;
  /** Stops waiting for the service when the agent stops. */
  stopSignal: AbortSignal;
  /** The runtime parts that follow a change (uploader, roster sync): wired by buildAgent. */
  applyRule(rule: WindowRule): void;
  applySite(siteId: string): void;
  tokenChanged(): void;
  /** Fetches the (new) site's roster; the agent records the outcome. */
  syncRoster(): void;
  /** Something status shows has changed. */
  changed(): void;
};

export type SettingsStart = {
  siteId: string | null;
  rule: WindowRule;
  token: SettingsView['token'];
};

/**
 * The token the agent starts with: one saved from the admin screen wins over the configured one
 * (that is how a revoked token is replaced). In the demo the store is not even read. A saved token
 * that cannot be used (a file others can read, a secret store that cannot decrypt it) is not used:
 * the terminal starts on the configured token and the admin screen says why.
 */
export function startingToken(tokens: TokenStore, configToken: string, demo: boolean, db: Db, log: Logger): { token: string; view: SettingsView['token'] } {
  if (demo) return { token: configToken, view: { source: 'config', setAt: null, warning: null } };
  let saved: string | null = null;
  try {
    saved = tokens.load();
  } catch (e) {
    const problem = `the saved API token is not used: ${(e as Error).message}`;
    log.error(problem);
    return { token: configToken, view: { source: 'config', setAt: null, warning: problem } };
  }
  if (saved === null) return { token: configToken, view: { source: 'config', setAt: null, warning: null } };
  const meta = readSetting<TokenSavedRecord>(db, S.tokenSaved);
  return { token: saved, view: { source: tokens.source, setAt: meta?.setAt ?? null, warning: tokens.warning } };
}

/** The admin screen's settings calls. */
export class SettingsAdmin {
  private siteId: string | null;
  private rule: WindowRule;
  private token: SettingsView['token'];
  private busy = false;

  constructor(
    private readonly d: SettingsDeps,
    start: SettingsStart,
  ) {
    this.siteId = start.siteId;
    this.rule = { ...start.rule };
    this.token = { ...start.token };
  }

  view(): SettingsView {
    return { siteId: this.siteId, rateLimit: { ...this.rule }, token: { ...this.token } };
  }

  get currentRule(): WindowRule {
    return { ...this.rule };
  }

  /** One change at a time: two managers' clicks must not interleave a check and a save. */
  private async exclusive(fn: () => Promise<AdminResult>): Promise<AdminResult> {
    if (this.busy) return { ok: false, message: 'another settings change is under way; try again in a moment', code: 'settings_busy' };
    this.busy = true;
    try {
      return await fn();
    } finally {
      this.busy = false;
    }
  }

  setApiToken(raw: string): Promise<AdminResult> {
    return this.exclusive(async (): Promise<AdminResult> => {
      const invalid = { code: 'token_invalid', params: { max: String(MAX_TOKEN_LENGTH) } } as const;
      if (typeof raw !== 'string') return { ok: false, message: 'the token must be text', ...invalid };
      const token = raw.trim();
      const bad = tokenProblem(token);
      if (bad) return { ok: false, message: `${bad}; nothing was changed`, ...invalid };
      if (this.d.demo) {
        return {
          ok: false,
          message: 'demo mode: the demo always uses its own token, so nothing was saved. Configure the real API (api.baseUrl) and set the token again there.',
          code: 'token_demo',
        };
      }
      const scrub = (text: string) => text.split(token).join('[token]');
      const check = await this.withSlot('token-check', () => this.d.api.checkToken(token, this.siteId), true);
      if (check?.kind === 'auth' || check?.kind === 'forbidden') {
        const reason = scrub(check.reason);
        return { ok: false, message: `the service refused this token (${reason}); it was not saved and the current token stays in use`, code: 'token_refused', params: { reason } };
      }
      const verified = check !== null && (check.kind === 'ok' || check.kind === 'refused');
      const now = this.d.clock.now();
      const meta: TokenSavedRecord = { setAt: now, source: this.d.tokens.source, warning: this.d.tokens.warning };
      try {
        // The store's write inside the transaction: if it fails, the record and the audit line roll back.
        this.d.db.transaction(() => {
          writeSetting(this.d.db, S.tokenSaved, meta);
          this.d.audit.record(now, 'api_token_set', null, `from the admin screen; kept in ${this.d.tokens.source === 'keyring' ? 'the system secret store' : 'a file only the kiosk user can read'}${verified ? '; accepted by the service' : '; not checked (service unreachable)'}`);
          this.d.tokens.save(token);
        })();
      } catch (e) {
        const why = scrub((e as Error).message);
        this.d.log.error('the new API token could not be saved', { error: why });
        return { ok: false, message: `the token could not be saved (${why}); nothing was changed`, code: 'token_save_failed', params: { error: why } };
      }
      this.d.api.setToken(token);
      this.token = { source: meta.source, setAt: now, warning: meta.warning };
      try {
        writeSetting(this.d.db, S.authRefused, null);
      } catch {
        /* status bookkeeping only */
      }
      this.d.tokenChanged();
      this.d.log.info('API token replaced from the admin screen', { store: meta.source, checked: verified });
      this.d.syncRoster();
      this.d.changed();
      const where = meta.source === 'keyring' ? 'in the system secret store' : 'in a file only the kiosk user can read';
      const unchecked = verified ? null : check === null ? 'no request slot free in time' : scrub(describeOutcome(check));
      const how = unchecked === null ? 'the service accepted it; sending resumes' : `the service could not be reached to check it (${unchecked}); it is used from now on`;
      return {
        ok: true,
        message: `API token saved ${where}; ${how}${meta.warning ? `. Note: ${meta.warning}` : ''}`,
        code: unchecked === null ? 'token_saved' : 'token_saved_unchecked',
        // Where it is kept, not the token; the screen shows the store's warning from status.
        params: { store: meta.source, ...(unchecked === null ? {} : { reason: unchecked }) },
      };
    });
  }

  setSite(raw: string): Promise<AdminResult> {
    return this.exclusive(async (): Promise<AdminResult> => {
      if (typeof raw !== 'string') return { ok: false, message: 'the site id must be text', code: 'site_invalid' };
      const siteId = raw.trim();
      if (!objectIdPattern.test(siteId)) {
        return { ok: false, message: 'a site id is 24 hexadecimal characters (0-9, a-f), as the service shows it; nothing was changed', code: 'site_invalid' };
      }
      const params = { siteId };
      if (siteId === this.siteId) return { ok: true, message: `the terminal already uses site ${siteId}`, code: 'site_same', params };
      if (this.d.budget.pause()?.reason === 'auth') {
        return {
          ok: false,
          message: 'the service refuses the API token, so the site cannot be checked: set a working token first; nothing was changed',
          code: 'site_needs_token',
          params,
        };
      }
      const res = await this.withSlot('site-check', () => this.d.api.getSite(siteId), false);
      let site: SiteRecord | null = null;
      let unchecked: string | null = null;
      if (res === null) {
        unchecked = 'no request slot free in time';
      } else if (res.kind === 'ok') {
        site = res.value;
      } else if (res.kind === 'refused' && res.status === 404) {
        return { ok: false, message: `the service has no site ${siteId}; nothing was changed`, code: 'site_unknown', params };
      } else if (res.kind === 'refused' || res.kind === 'forbidden') {
        return { ok: false, message: `the service refused site ${siteId} (${res.reason}); nothing was changed`, code: 'site_refused', params: { ...params, reason: res.reason } };
      } else if (res.kind === 'auth') {
        return {
          ok: false,
          message: `the service refused the API token (${res.reason}), so the site cannot be checked: set a working token first; nothing was changed`,
          code: 'site_needs_token',
          params: { ...params, reason: res.reason },
        };
      } else {
        unchecked = describeOutcome(res);
      }
      const now = this.d.clock.now();
      const before = this.siteId;
      try {
        this.d.db.transaction(() => {
          writeSetting(this.d.db, S.siteOverride, { siteId, setAt: now, demo: this.d.demo } satisfies SiteOverride);
          this.d.audit.record(now, 'site_set', null, `${before ?? 'no site'} -> ${siteId}${site ? ` (${site.name ?? 'no name'})` : ' (not checked: service unreachable)'}`);
        })();
      } catch (e) {
        const error = (e as Error).message;
        return { ok: false, message: `the site could not be saved (${error}); nothing was changed`, code: 'site_save_failed', params: { ...params, error } };
      }
      this.siteId = siteId;
      this.d.applySite(siteId);
      this.d.log.info('site changed from the admin screen', { from: before, to: siteId, checked: unchecked === null });
      this.d.syncRoster();
      this.d.changed();
      const name = site?.name ? `${site.name} (${siteId})` : siteId;
      return unchecked
        ? {
            ok: true,
            message: `site set to ${name}, not checked: the service could not be reached (${unchecked}); its roster is fetched when it can be, the current roster stays in use until then`,
            code: 'site_set_unchecked',
            params: { ...params, reason: unchecked },
          }
        : {
            ok: true,
            message: `site set to ${name}; its roster is being fetched, the current roster stays in use until the new one is complete`,
            code: 'site_set',
            params: { ...params, name: site?.name ?? siteId },
          };
    });
  }

  setRateBudget(limit: number, windowMs: number): Promise<AdminResult> {
    return this.exclusive(async (): Promise<AdminResult> => {
      const bad = validRate(limit, windowMs);
      if (bad) return { ok: false, message: `${bad}; nothing was changed`, code: 'budget_invalid' };
      const rule = { limit, windowMs };
      const before = this.rule;
      const now = this.d.clock.now();
      try {
        this.d.db.transaction(() => {
          writeSetting(this.d.db, S.rateOverride, { ...rule, setAt: now, demo: this.d.demo } satisfies RateOverride);
          this.d.audit.record(now, 'rate_budget_set', null, `${perWindow(before)} -> ${perWindow(rule)}`);
        })();
      } catch (e) {
        const error = (e as Error).message;
        return { ok: false, message: `the request budget could not be saved (${error}); nothing was changed`, code: 'budget_save_failed', params: { error } };
      }
      this.rule = rule;
      this.d.applyRule(rule);
      this.d.log.info('request budget changed from the admin screen', { limit, windowMs });
      this.d.changed();
      return {
        ok: true,
        message: `request budget set to ${perWindow(rule)} (was ${perWindow(before)}); requests already made still count`,
        code: 'budget_set',
        params: { limit: String(rule.limit), window: seconds(rule.windowMs), previousLimit: String(before.limit), previousWindow: seconds(before.windowMs) },
      };
    });
  }

  /**
   * One request on a slot of the shared budget, for a check; null when no slot came within
   * CHECK_WAIT_MS (or the agent stopped). `duringAuthPause`: the check of a new token may go while
   * sending is paused for the refused one.
   */
  private async withSlot<T>(purpose: string, fn: () => Promise<ApiOutcome<T>>, duringAuthPause: boolean): Promise<ApiOutcome<T> | null> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), CHECK_WAIT_MS);
    const onStop = () => ctl.abort();
    this.d.stopSignal.addEventListener('abort', onStop, { once: true });
    try {
      const ticket = await this.d.budget.acquire(Priority.punch, purpose, { signal: ctl.signal, duringAuthPause });
      if (!ticket) return null;
      let res: ApiOutcome<T> | undefined;
      try {
        res = await fn();
        return res;
      } finally {
        this.d.budget.release(ticket);
        if (res?.kind === 'rate_limited') {
          const at = this.d.clock.now();
          this.d.budget.pauseUntil(at + rateLimitPause(res.retryAfterHeader, at, this.rule.windowMs, res.serverDate), 'retry_after');
        }
      }
    } finally {
      clearTimeout(timer);
      this.d.stopSignal.removeEventListener('abort', onStop);
    }
  }
}
