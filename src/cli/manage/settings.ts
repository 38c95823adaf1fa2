import { readSavedSettings, resetSettingsOffline, savedTokenFile } from '../../agent/settings/saved-settings.js';
import { perWindow } from '../../agent/settings/stored-settings.js';
import { loadConfig } from '../../config.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

const when = (at: number | null | undefined): string => (at ? new Date(at).toISOString() : 'earlier');

/** `timeclock settings show|reset`: the settings the admin screen can change, and going back to the configuration. */
export function runSettings(opts: CliOptions, args: string[]): number {
  const [action, ...rest] = args;
  if ((action !== 'show' && action !== 'reset') || rest.length > 0) {
    throw new UsageError(
      'usage: timeclock settings show [--json]   (token/site/budget in force and where each comes from)\n       timeclock settings reset         (forget what the admin screen set: back to the configuration)',
    );
  }
  return action === 'show' ? show(opts) : reset(opts);
}

function show(opts: CliOptions): number {
  const { config, demo } = loadConfig({ file: opts.config });
  const { view, savedAt: saved } = readSavedSettings(config, demo);
  if (opts.json) {
    process.stdout.write(JSON.stringify({ dataDir: config.dataDir, demo, settings: view, savedAt: saved }) + '\n');
    return Exit.ok;
  }
  const from = (at: number | null) => (at === null ? 'from the configuration' : `set on the admin screen ${when(at)}`);
  const t = view.token;
  const token = demo
    ? 'the demo token (demo mode: a token set on the admin screen is not used)'
    : t.source === 'config'
      ? 'from the configuration (api.token / TIMECLOCK_API_TOKEN)'
      : `set on the admin screen ${when(t.setAt)}, kept ${t.source === 'keyring' ? 'encrypted with the system secret store' : `in ${savedTokenFile(config.dataDir)} (readable only by the kiosk user)`}`;
  const lines = [
    `data:           ${config.dataDir}${demo ? ' (demo mode)' : ''}`,
    `site:           ${view.siteId ? `${view.siteId} (${from(saved.site)})` : 'none: all active employees (no site configured)'}`,
    `request budget: ${perWindow(view.rateLimit)} (${from(saved.rateLimit)})`,
    `API token:      ${token}`,
    ...(t.warning ? [`warning:        ${t.warning}`] : []),
  ];
  if (saved.site !== null || saved.rateLimit !== null || t.source !== 'config')
    lines.push(`('timeclock settings reset' goes back to the configuration)`);
  process.stdout.write(lines.join('\n') + '\n');
  return Exit.ok;
}

function reset(opts: CliOptions): number {
  const { config } = loadConfig({ file: opts.config });
  const r = resetSettingsOffline(config);
  if (r.kind === 'running') {
    process.stderr.write(
      `timeclock: the terminal (pid ${r.pid}) is running on ${config.dataDir}; stop it first, then reset its settings\n`,
    );
    return Exit.error;
  }
  if (r.kind === 'no_data') {
    process.stdout.write(`nothing was set on the admin screen in ${config.dataDir}: the configuration applies\n`);
    return Exit.ok;
  }
  const cleared = r.cleared;
  process.stdout.write(
    cleared.length > 0
      ? `settings reset: ${cleared.join(', ')} set on the admin screen forgotten; the configuration applies from the next start\n`
      : 'nothing was set on the admin screen: the configuration applies\n',
  );
  return Exit.ok;
}
