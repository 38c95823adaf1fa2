import { hasTerminalData } from '../../agent/host/terminal-data.js';
import { readStoredStatus } from '../../agent/status/stored-status.js';
import { loadConfig } from '../../config.js';
import { statusText } from './format.js';
import { Exit, type CliOptions } from '../common/options.js';

/** Reads the terminal's database directly, so it works beside a running agent (WAL readers). */
export async function runStatus(opts: CliOptions): Promise<number> {
  const { config, demo } = loadConfig({ file: opts.config });
  if (!hasTerminalData(config.dataDir)) {
    process.stderr.write(
      `timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`,
    );
    return Exit.error;
  }
  const status = readStoredStatus(config, demo);
  process.stdout.write(
    (opts.json ? JSON.stringify(status) : `data: ${config.dataDir}\n${statusText(status, config.timezone)}`) + '\n',
  );
  return Exit.ok;
}
