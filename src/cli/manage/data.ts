import fs from 'node:fs';
import { adoptDataDir, overlappingDirs } from '../../agent/host/adopt-queue.js';
import { compactTerminalData, megabytes as mb } from '../../agent/host/data-compact.js';
import { loadConfig } from '../../config.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

const USAGE =
  'usage: timeclock data adopt --from DIR   (move the queue left in DIR into the data directory)\n' +
  '       timeclock data compact            (terminal stopped: apply the retention, then rewrite the file without its free space)';

/**
 * `timeclock data adopt --from DIR`: what the agent does at start for the old per-user directory,
 * on demand (the Debian post-install runs it as the kiosk user). 0: adopted, or nothing to adopt;
 * 1: not adopted, with the reason; 2: bad arguments.
 */
export async function runData(opts: CliOptions, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'compact' && rest.length === 0) return runCompact(opts);
  if (action !== 'adopt' || rest.length > 0) throw new UsageError(USAGE);
  const from = opts.from;
  if (!from) throw new UsageError(`data adopt needs --from DIR\n${USAGE}`);
  // The database file itself, say, rather than its directory: a mistake, not "nothing to adopt".
  if (fs.existsSync(from) && !fs.statSync(from).isDirectory())
    throw new UsageError(`data adopt: --from must be a directory (${from} is not)`);
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

/**
 * `timeclock data compact`: the retention pass, then one VACUUM, which also switches a file made
 * by an earlier version to auto_vacuum incremental (from then on the agent gives freed space back
 * after each daily pass). It rewrites the whole file, so it holds the agent's lock throughout and
 * refuses while a terminal runs. 0: compacted; 1: refused or failed, with the reason.
 */
async function runCompact(opts: CliOptions): Promise<number> {
  const { config } = loadConfig({ file: opts.config });
  const r = compactTerminalData(config);
  if ('refused' in r) {
    process.stderr.write(`timeclock: data compact: ${r.refused}\n`);
    return Exit.error;
  }
  process.stdout.write(
    `compacted ${r.file}: ${mb(r.before.bytes)} -> ${mb(r.after.bytes)}; deleted ${r.deleted.punches} delivered punches older than ` +
      `${config.retention.deliveredDays} days (${r.deleted.journal} journal rows) and ${r.deleted.audit} audit lines older than ${config.retention.auditDays} days; ` +
      `free space is now given back after each daily retention pass\n`,
  );
  return Exit.ok;
}
