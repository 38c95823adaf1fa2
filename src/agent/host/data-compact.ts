/**
 * `timeclock data compact`: the retention pass, then one VACUUM, with the terminal stopped. It
 * rewrites the whole file, so it holds the agent's lock throughout and refuses while a terminal
 * runs. The command line words the outcome.
 */
import fs from 'node:fs';
import type { Config } from '../../config.js';
import { openDatabase, StoreError } from '../../store/database.js';
import { lockDataDir, type DataDirLock } from '../../store/upkeep/lock.js';
import { compactDatabase, fileFigures } from '../../store/upkeep/retention.js';
import { databaseFile, hasTerminalData } from './terminal-data.js';

/** Bytes as the command line shows them: "12.3 MB". */
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

export type Compacted = { file: string } & ReturnType<typeof compactDatabase>;

/** Compacted, or why not (`refused`: the message to show). */
export function compactTerminalData(config: Config): Compacted | { refused: string } {
  const file = databaseFile(config.dataDir);
  if (!hasTerminalData(config.dataDir)) return { refused: `no terminal data in ${config.dataDir}` };
  let lock: DataDirLock;
  try {
    lock = lockDataDir(config.dataDir);
  } catch (e) {
    if (e instanceof StoreError && e.code === 'locked')
      return { refused: `${e.message}: stop the terminal first (compacting rewrites the whole file)` };
    throw e;
  }
  try {
    const db = openDatabase(config.dataDir);
    try {
      const f = fileFigures(db);
      // VACUUM writes the file's live pages twice (a copy in the temp directory, then the log here).
      const needed = Math.ceil((f.bytes - f.freeBytes) * 1.1);
      const st = fs.statfsSync(config.dataDir);
      if (st.bavail * st.bsize < needed) {
        return {
          refused: `needs about ${megabytes(needed)} free in ${config.dataDir} (and as much in the temp directory); ${megabytes(st.bavail * st.bsize)} free`,
        };
      }
      return { file, ...compactDatabase(db, config.retention, Date.now()) };
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
}
