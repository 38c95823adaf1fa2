import fs from 'node:fs';
import { adoptDataDir, overlappingDirs } from '../agent/adopt-queue.js';
import { loadConfig } from '../config.js';
import { Exit, UsageError, type CliOptions } from './options.js';

const USAGE = 'usage: timeclock data adopt --from DIR   (move the queue left in DIR into the data directory)';

/**
 * `timeclock data adopt --from DIR`: what the agent does at start for the old per-user directory,
 * on demand (the Debian post-install runs it as the kiosk user). 0: adopted, or nothing to adopt;
 * 1: not adopted, with the reason; 2: bad arguments.
 */
export async function runData(opts: CliOptions, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'adopt' || rest.length > 0) throw new UsageError(USAGE);
  const from = opts.from;
  if (!from) throw new UsageError(`data adopt needs --from DIR\n${USAGE}`);
  // The database file itself, say, rather than its directory: a mistake, not "nothing to adopt".
  if (fs.existsSync(from) && !fs.statSync(from).isDirectory()) throw new UsageError(`data adopt: --from must be a directory (${from} is not)`);
  const { config } = loadConfig({ file: opts.config });
  const overlap = overlappingDirs(from, config.dataDir);
  if (overlap) throw new UsageError(`data adopt: ${overlap}`);
  const result = await adoptDataDir(from, config.dataDir, { now: () => Date.now() });
  if (result.outcome === 'not-adopted') {
    process.stderr.write(`timeclock: data adopt: ${result.message}\n`);
    return Exit.error;
  }
  process.stdout.write(`${result.message}\n`);
  return Exit.ok;
}
