import { JournalSnapshot, openJournalSnapshot } from '../../agent/journal/journal-snapshot.js';
import { loadConfig, type Config } from '../../config.js';
import type { CliOptions } from './options.js';

export type JournalDb = { config: Config; snapshot: JournalSnapshot };

/**
 * The data directory's evidence journal, read-only, for the commands that read it (receipt,
 * journal verify, afd export): a snapshot beside a running terminal, nothing taken over. Null,
 * with the reason on standard error, when there is no database yet or it has no journal.
 */
export function openJournalReadOnly(opts: CliOptions): JournalDb | null {
  const { config } = loadConfig({ file: opts.config });
  const snapshot = openJournalSnapshot(config);
  if (snapshot === 'no_data') {
    process.stderr.write(
      `timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`,
    );
    return null;
  }
  if (snapshot === 'no_journal') {
    process.stderr.write(
      `timeclock: the data in ${config.dataDir} has no evidence journal yet (start the terminal with this version once)\n`,
    );
    return null;
  }
  return { config, snapshot };
}
