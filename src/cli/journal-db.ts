import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { DB_FILE_NAME, openDatabase, type Db } from '../store/database.js';
import { journalState } from '../store/journal-read.js';
import type { CliOptions } from './options.js';

export type JournalDb = { config: Config; db: Db; journal: { journalId: string; nextNsr: number } };

/**
 * The data directory's database, read-only, for the commands that read the evidence journal
 * (receipt, journal verify, afd export): a snapshot beside a running terminal, nothing taken over.
 * Null, with the reason on standard error, when there is no database yet or it has no journal (a
 * read-only reader cannot migrate a file from an earlier version; the agent does at its start).
 */
export function openJournalReadOnly(opts: CliOptions): JournalDb | null {
  const { config } = loadConfig({ file: opts.config });
  if (!fs.existsSync(path.join(config.dataDir, DB_FILE_NAME))) {
    process.stderr.write(`timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`);
    return null;
  }
  const db = openDatabase(config.dataDir, { readonly: true });
  const journal = journalState(db);
  if (journal === null) {
    db.close();
    process.stderr.write(`timeclock: the data in ${config.dataDir} has no evidence journal yet (start the terminal with this version once)\n`);
    return null;
  }
  return { config, db, journal };
}
