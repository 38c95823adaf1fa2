import fs from 'node:fs';
import path from 'node:path';
import { perWindow, resetSavedSettings, storedOverrides, storedSettingsView, type SettingsView } from '../agent/settings.js';
import { loadConfig } from '../config.js';
import { AuditLog } from '../store/audit-log.js';
import { DB_FILE_NAME, openDatabase } from '../store/database.js';
import { lockDataDir, lockOwner } from '../store/lock.js';
import { TOKEN_FILE_NAME } from '../store/private-file.js';
import { Exit, UsageError, type CliOptions } from './options.js';

const when = (at: number | null | undefined): string => (at ? new Date(at).toISOString() : 'earlier');

/** `timeclock settings show|reset`: the settings the admin screen can change, and going back to the configuration. */
export function runSettings(opts: CliOptions, args: string[]): number {
  const [action, ...rest] = args;
  if ((action !== 'show' && action !== 'reset') || rest.length > 0) {
    throw new UsageError('usage: timeclock settings show [--json]   (token/site/budget in force and where each comes from)\n       timeclock settings reset         (forget what the admin screen set: back to the configuration)');
  }
  return action === 'show' ? show(opts) : reset(opts);
}

function show(opts: CliOptions): number {
  const { config, demo } = loadConfig({ file: opts.config });
  const hasDb = fs.existsSync(path.join(config.dataDir, DB_FILE_NAME));
  let view: SettingsView;
  let saved: { site: number | null; rateLimit: number | null };
  if (hasDb) {
    const db = openDatabase(config.dataDir);
    try {
      view = storedSettingsView(db, config, demo);
      const o = storedOverrides(db, demo);
      saved = { site: o.site?.setAt ?? null, rateLimit: o.rate?.setAt ?? null };
    } finally {
      db.close();
    }
  } else {
    view = {
      siteId: config.siteId ?? null,
      rateLimit: { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs },
      token: { source: 'config', setAt: null, warning: null },
    };
    saved = { site: null, rateLimit: null };
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify({ dataDir: config.dataDir, demo, settings: view, savedAt: saved }) + '\n');
    return Exit.ok;
  }
  const from = (at: number | null) => (at === null ? 'from the configuration' : `set on the admin screen ${when(at)}`);
  const t = view.token;
  const token =
    demo
      ? 'the demo token (demo mode: a token set on the admin screen is not used)'
      : t.source === 'config'
        ? 'from the configuration (api.token / TIMECLOCK_API_TOKEN)'
        : `set on the admin screen ${when(t.setAt)}, kept ${t.source === 'keyring' ? 'encrypted with the system secret store' : `in ${path.join(config.dataDir, TOKEN_FILE_NAME)} (readable only by the kiosk user)`}`;
  const lines = [
    `data:           ${config.dataDir}${demo ? ' (demo mode)' : ''}`,
    `site:           ${view.siteId ? `${view.siteId} (${from(saved.site)})` : 'none: all active employees (no site configured)'}`,
    `request budget: ${perWindow(view.rateLimit)} (${from(saved.rateLimit)})`,
    `API token:      ${token}`,
    ...(t.warning ? [`warning:        ${t.warning}`] : []),
  ];
  if (saved.site !== null || saved.rateLimit !== null || t.source !== 'config') lines.push(`('timeclock settings reset' goes back to the configuration)`);
  process.stdout.write(lines.join('\n') + '\n');
  return Exit.ok;
}

function reset(opts: CliOptions): number {
  const { config } = loadConfig({ file: opts.config });
  const owner = lockOwner(config.dataDir);
  if (owner !== null) {
    process.stderr.write(`timeclock: the terminal (pid ${owner}) is running on ${config.dataDir}; stop it first, then reset its settings\n`);
    return Exit.error;
  }
  if (!fs.existsSync(path.join(config.dataDir, DB_FILE_NAME))) {
    process.stdout.write(`nothing was set on the admin screen in ${config.dataDir}: the configuration applies\n`);
    return Exit.ok;
  }
  // The agent's lock while we change what it reads at start: no terminal can start half-way.
  const lock = lockDataDir(config.dataDir);
  try {
    const db = openDatabase(config.dataDir);
    try {
      const cleared = resetSavedSettings(db, config.dataDir, new AuditLog(db), Date.now());
      process.stdout.write(
        cleared.length > 0
          ? `settings reset: ${cleared.join(', ')} set on the admin screen forgotten; the configuration applies from the next start\n`
          : 'nothing was set on the admin screen: the configuration applies\n',
      );
      return Exit.ok;
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
}
