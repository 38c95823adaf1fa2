/**
 * `timeclock settings show|reset` from outside the agent: what the admin screen saved, read from
 * the database, and forgetting it while no terminal runs. The wording is the command line's.
 */
import path from 'node:path';
import type { Config } from '../../config.js';
import { AuditLog } from '../../store/roster/audit-log.js';
import { openDatabase } from '../../store/database.js';
import { lockDataDir } from '../../store/upkeep/lock.js';
import { TOKEN_FILE_NAME } from '../../store/private-file.js';
import { resetSavedSettings, storedOverrides, storedSettingsView, type SettingsView } from './stored-settings.js';
import { hasTerminalData, runningTerminal } from '../host/terminal-data.js';

/** The settings in force, and when the admin screen set the site and the budget (null: the configuration's). */
export type SavedSettings = { view: SettingsView; savedAt: { site: number | null; rateLimit: number | null } };

export function readSavedSettings(config: Config, demo: boolean): SavedSettings {
  if (!hasTerminalData(config.dataDir)) {
    return {
      view: {
        siteId: config.siteId ?? null,
        rateLimit: { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs },
        token: { source: 'config', setAt: null, warning: null },
      },
      savedAt: { site: null, rateLimit: null },
    };
  }
  const db = openDatabase(config.dataDir);
  try {
    const view = storedSettingsView(db, config, demo);
    const o = storedOverrides(db, demo);
    return { view, savedAt: { site: o.site?.setAt ?? null, rateLimit: o.rate?.setAt ?? null } };
  } finally {
    db.close();
  }
}

/** Where a token saved from the admin screen is kept when no secret store is used. */
export function savedTokenFile(dataDir: string): string {
  return path.join(dataDir, TOKEN_FILE_NAME);
}

/**
 * 'running': a terminal holds the directory (stop it first); 'no_data': nothing was ever saved; else what was
 * forgotten.
 */
export type SettingsReset =
  { kind: 'running'; pid: number } | { kind: 'no_data' } | { kind: 'reset'; cleared: string[] };

/** Forgets what the admin screen saved, holding the agent's lock meanwhile: no terminal can start half-way. */
export function resetSettingsOffline(config: Config): SettingsReset {
  const owner = runningTerminal(config.dataDir);
  if (owner !== null) return { kind: 'running', pid: owner };
  if (!hasTerminalData(config.dataDir)) return { kind: 'no_data' };
  const lock = lockDataDir(config.dataDir);
  try {
    const db = openDatabase(config.dataDir);
    try {
      return { kind: 'reset', cleared: resetSavedSettings(db, config.dataDir, new AuditLog(db), Date.now()) };
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
}
