/**
 * The settings the admin screen can change while the terminal runs — the API token, the site and
 * the request budget — over the configuration they start from. What was changed is kept in the
 * `settings` table (the token itself only in a TokenStore, never in the database), applied by
 * buildAgent at the next start, and cleared by `timeclock settings reset`.
 *
 * The token never leaves this module in any answer, status, log line, audit entry or error.
 *
 * This file holds the admin operations; what they keep, and how it is read back at the next start,
 * is agent/settings/stored-settings.ts's; a check with the service on a slot of the budget, settings-check.ts's.
 */
import { describeOutcome } from '../../api/classify.js';
import { objectIdPattern } from '../../api/shapes.js';
import type { SiteRecord } from '../../api/roster-records.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import {
  settingKeys,
  type RateOverride,
  type SiteOverride,
  type TokenSavedRecord,
} from '../../store/settings/setting-keys.js';
import { writeSetting } from '../../store/settings/settings.js';
import type { AdminResult } from '../identity/identity-admin.js';
import { checkOnSlot } from './settings-check.js';
import { perWindow, validRate, type SettingsView } from './stored-settings.js';
import type { SettingsDeps, SettingsStart } from './settings-deps.js';

const MAX_TOKEN_LENGTH = 512;

/** What is wrong with a token as typed, or null. Never quotes it. */
function tokenProblem(token: string): string | null {
  if (token.length === 0) return 'the token is empty';
  if (token.length > MAX_TOKEN_LENGTH) return `the token is longer than ${MAX_TOKEN_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(token))
    return 'the token must not contain spaces, line breaks or control characters';
  return null;
}

/** A window in seconds, as text ("60", "1.5"). */
const seconds = (ms: number): string => String(ms / 1000);

export type { SettingsApi, SettingsDeps, SettingsStart } from './settings-deps.js';

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
    if (this.busy) return { ok: false, code: 'settings_busy' };
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
      if (typeof raw !== 'string') return { ok: false, ...invalid };
      const token = raw.trim();
      const bad = tokenProblem(token);
      if (bad) return { ok: false, ...invalid };
      if (this.d.demo) {
        return {
          ok: false,
          code: 'token_demo',
        };
      }
      const scrub = (text: string) => text.split(token).join('[token]');
      const check = await checkOnSlot(
        this.d,
        () => this.rule.windowMs,
        'token-check',
        () => this.d.api.checkToken(token, this.siteId),
        true,
      );
      if (check?.kind === 'auth' || check?.kind === 'forbidden') {
        const reason = scrub(check.reason);
        return { ok: false, code: 'token_refused', params: { reason } };
      }
      const verified = check !== null && (check.kind === 'ok' || check.kind === 'refused');
      const now = this.d.clock.now();
      const meta: TokenSavedRecord = { setAt: now, source: this.d.tokens.source, warning: this.d.tokens.warning };
      try {
        // The store's write inside the transaction: if it fails, the record and the audit line roll back.
        this.d.db.transaction(() => {
          writeSetting(this.d.db, settingKeys.tokenSaved, meta);
          this.d.audit.record(
            now,
            'api_token_set',
            null,
            `from the admin screen; kept in ${this.d.tokens.source === 'keyring' ? 'the system secret store' : 'a file only the kiosk user can read'}${verified ? '; accepted by the service' : '; not checked (service unreachable)'}`,
          );
          this.d.tokens.save(token);
        })();
      } catch (e) {
        const why = scrub((e as Error).message);
        this.d.log.error('the new API token could not be saved', { error: why });
        return { ok: false, code: 'token_save_failed', params: { error: why } };
      }
      this.d.api.setToken(token);
      this.token = { source: meta.source, setAt: now, warning: meta.warning };
      try {
        writeSetting(this.d.db, settingKeys.authRefused, null);
      } catch {
        /* status bookkeeping only */
      }
      this.d.tokenChanged();
      this.d.log.info('API token replaced from the admin screen', { store: meta.source, checked: verified });
      this.d.syncRoster();
      this.d.changed();
      const unchecked = verified
        ? null
        : check === null
          ? 'no request slot free in time'
          : scrub(describeOutcome(check));
      return {
        ok: true,
        code: unchecked === null ? 'token_saved' : 'token_saved_unchecked',
        // Where it is kept, not the token; the screen shows the store's warning from status.
        params: { store: meta.source, ...(unchecked === null ? {} : { reason: unchecked }) },
      };
    });
  }

  setSite(raw: string): Promise<AdminResult> {
    return this.exclusive(async (): Promise<AdminResult> => {
      if (typeof raw !== 'string') return { ok: false, code: 'site_invalid' };
      const siteId = raw.trim();
      if (!objectIdPattern.test(siteId)) {
        return { ok: false, code: 'site_invalid' };
      }
      const params = { siteId };
      if (siteId === this.siteId) return { ok: true, code: 'site_same', params };
      if (this.d.budget.pause()?.reason === 'auth') {
        return {
          ok: false,
          code: 'site_needs_token',
          params,
        };
      }
      const res = await checkOnSlot(
        this.d,
        () => this.rule.windowMs,
        'site-check',
        () => this.d.api.getSite(siteId),
        false,
      );
      let site: SiteRecord | null = null;
      let unchecked: string | null = null;
      if (res === null) {
        unchecked = 'no request slot free in time';
      } else if (res.kind === 'ok') {
        site = res.value;
      } else if (res.kind === 'refused' && res.status === 404) {
        return { ok: false, code: 'site_unknown', params };
      } else if (res.kind === 'refused' || res.kind === 'forbidden') {
        return { ok: false, code: 'site_refused', params: { ...params, reason: res.reason } };
      } else if (res.kind === 'auth') {
        return {
          ok: false,
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
          writeSetting(this.d.db, settingKeys.siteOverride, {
            siteId,
            setAt: now,
            demo: this.d.demo,
          } satisfies SiteOverride);
          this.d.audit.record(
            now,
            'site_set',
            null,
            `${before ?? 'no site'} -> ${siteId}${site ? ` (${site.name ?? 'no name'})` : ' (not checked: service unreachable)'}`,
          );
        })();
      } catch (e) {
        const error = (e as Error).message;
        return { ok: false, code: 'site_save_failed', params: { ...params, error } };
      }
      this.siteId = siteId;
      this.d.applySite(siteId);
      this.d.log.info('site changed from the admin screen', { from: before, to: siteId, checked: unchecked === null });
      this.d.syncRoster();
      this.d.changed();
      return unchecked
        ? {
            ok: true,
            code: 'site_set_unchecked',
            params: { ...params, reason: unchecked },
          }
        : {
            ok: true,
            code: 'site_set',
            params: { ...params, name: site?.name ?? siteId },
          };
    });
  }

  setRateBudget(limit: number, windowMs: number): Promise<AdminResult> {
    return this.exclusive(async (): Promise<AdminResult> => {
      const bad = validRate(limit, windowMs);
      if (bad) return { ok: false, code: 'budget_invalid' };
      const rule = { limit, windowMs };
      const before = this.rule;
      const now = this.d.clock.now();
      try {
        this.d.db.transaction(() => {
          writeSetting(this.d.db, settingKeys.rateOverride, {
            ...rule,
            setAt: now,
            demo: this.d.demo,
          } satisfies RateOverride);
          this.d.audit.record(now, 'rate_budget_set', null, `${perWindow(before)} -> ${perWindow(rule)}`);
        })();
      } catch (e) {
        const error = (e as Error).message;
        return { ok: false, code: 'budget_save_failed', params: { error } };
      }
      this.rule = rule;
      this.d.applyRule(rule);
      this.d.log.info('request budget changed from the admin screen', { limit, windowMs });
      this.d.changed();
      return {
        ok: true,
        code: 'budget_set',
        params: {
          limit: String(rule.limit),
          window: seconds(rule.windowMs),
          previousLimit: String(before.limit),
          previousWindow: seconds(before.windowMs),
        },
      };
    });
  }
}
