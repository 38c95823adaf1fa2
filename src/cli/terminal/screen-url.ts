/**
 * `timeclock screen-url`: the running terminal's kiosk screen address with its token, for the
 * terminal's own user and root (the file is 0600), for operators and scripts; the journal has it
 * without the token. Refuses clearly (exit 1) when no terminal is running on this data directory.
 */
import { loadConfig } from '../../config.js';
import { readScreenAddress } from '../../agent/host/screen-address.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

export function runScreenUrl(opts: CliOptions, args: string[]): number {
  if (args.length > 0) throw new UsageError('usage: timeclock screen-url [--config FILE]');
  const { config } = loadConfig({ file: opts.config });
  const r = readScreenAddress(config.dataDir);
  if (!r.ok) {
    process.stderr.write(`timeclock: ${r.why}\n`);
    return Exit.error;
  }
  process.stdout.write(`${r.url}\n`);
  return Exit.ok;
}
