/**
 * What the admin screen changed, as kept in the `settings` table (the token itself only in a
 * TokenStore, never in the database): read by buildAgent at the next start, by `timeclock status`
 * and `settings show`, and cleared by `timeclock settings reset`. The admin operations that write
 * them are in agent/settings/settings.ts. The token the agent starts with is chosen here too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { objectIdPattern } from '../../api/shapes.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Logger } from '../../log.js';
import type { Db, WritableDb } from '../../store/database.js';
import { removePrivateFile, TOKEN_ENC_FILE_NAME, TOKEN_FILE_NAME } from '../../store/private-file.js';
import {
  settingKeys,
  type RateOverride,
  type SiteOverride,
  type TokenSavedRecord,
} from '../../store/settings/setting-keys.js';
import { deleteSetting, readSetting } from '../../store/settings/settings.js';
import type { TokenStore } from '../host/token-store.js';

export type { RateOverride, SiteOverride, TokenSavedRecord };

/** Bounds of the request budget (as in src/contract.ts `setRateBudget`). */
export const RATE_LIMIT_RANGE = { min: 1, max: 10_000 } as const;
export const RATE_WINDOW_RANGE = { min: 1_000, max: 3_600_000 } as const;

/** As src/contract.ts `statusSchema.settings`. */
export type SettingsView = {
  siteId: string | null;
  rateLimit: WindowRule;
  token: { source: 'config' | 'keyring' | 'file'; setAt: number | null; warning: string | null };
};

/** Overrides that apply in this mode: the demo's never reach a real configuration, nor the reverse. */
export function storedOverrides(
  db: Db,
  demo: boolean,
): { site: SiteOverride | null; rate: RateOverride | null; token: TokenSavedRecord | null } {
  const site = readSetting(db, settingKeys.siteOverride);
  const rate = readSetting(db, settingKeys.rateOverride);
  return {
    site: site && site.demo === demo && objectIdPattern.test(site.siteId) ? site : null,
    rate: rate && rate.demo === demo && validRate(rate.limit, rate.windowMs) === null ? rate : null,
    token: demo ? null : readSetting(db, settingKeys.tokenSaved),
  };
}

/** The settings in force from the database and the configuration alone (`timeclock status` / `settings show`). */
export function storedSettingsView(
  db: Db,
  config: { siteId?: string | undefined; rateLimit: WindowRule },
  demo: boolean,
): SettingsView {
  const o = storedOverrides(db, demo);
  return {
    siteId: o.site?.siteId ?? config.siteId ?? null,
    rateLimit: o.rate
      ? { limit: o.rate.limit, windowMs: o.rate.windowMs }
      : { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs },
    token: o.token
      ? { source: o.token.source, setAt: o.token.setAt, warning: o.token.warning }
      : { source: 'config', setAt: null, warning: null },
  };
}

/**
 * Forgets every setting saved from the admin screen (token files of both stores included), so the
 * configuration rules again at the next start. The caller holds the data directory's lock.
 */
export function resetSavedSettings(db: WritableDb, dataDir: string, audit: AuditLog, now: number): string[] {
  const cleared: string[] = [];
  if (readSetting(db, settingKeys.siteOverride)) cleared.push('site');
  if (readSetting(db, settingKeys.rateOverride)) cleared.push('request budget');
  const files = [TOKEN_FILE_NAME, TOKEN_ENC_FILE_NAME].map((f) => path.join(dataDir, f));
  if (readSetting(db, settingKeys.tokenSaved) || files.some((f) => fs.existsSync(f))) cleared.push('API token');
  // Files first: a token file left behind would still be used; a setting left behind is harmless.
  for (const f of files) removePrivateFile(f);
  db.transaction(() => {
    for (const k of [settingKeys.siteOverride, settingKeys.rateOverride, settingKeys.tokenSaved]) deleteSetting(db, k);
    audit.record(now, 'settings_reset', null, cleared.length ? `cleared: ${cleared.join(', ')}` : 'nothing was saved');
  })();
  return cleared;
}

/** Null when the budget is within bounds, else what is wrong with it. */
export function validRate(limit: unknown, windowMs: unknown): string | null {
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < RATE_LIMIT_RANGE.min ||
    limit > RATE_LIMIT_RANGE.max
  ) {
    return `the limit must be a whole number of requests from ${RATE_LIMIT_RANGE.min} to ${RATE_LIMIT_RANGE.max}`;
  }
  if (
    typeof windowMs !== 'number' ||
    !Number.isInteger(windowMs) ||
    windowMs < RATE_WINDOW_RANGE.min ||
    windowMs > RATE_WINDOW_RANGE.max
  ) {
    return `the window must be a whole number of milliseconds from ${RATE_WINDOW_RANGE.min} (1 s) to ${RATE_WINDOW_RANGE.max} (1 h)`;
  }
  return null;
}

/** "60 per 60 s": a budget as people read it. */
export const perWindow = (r: WindowRule): string =>
  `${r.limit} per ${r.windowMs % 1000 === 0 ? `${r.windowMs / 1000} s` : `${r.windowMs} ms`}`;

/**
 * The token the agent starts with: one saved from the admin screen wins over the configured one
 * (that is how a revoked token is replaced). In the demo the store is not even read. A saved token
 * that cannot be used (a file others can read, a secret store that cannot decrypt it) is not used:
 * the terminal starts on the configured token and the admin screen says why.
 */
export function startingToken(
  tokens: TokenStore,
  configToken: string,
  demo: boolean,
  db: Db,
  log: Logger,
): { token: string; view: SettingsView['token'] } {
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
  const meta = readSetting(db, settingKeys.tokenSaved);
  return { token: saved, view: { source: tokens.source, setAt: meta?.setAt ?? null, warning: tokens.warning } };
}
