/**
 * The data directory as a command sees it from outside the agent: is there a terminal's database,
 * and does a running terminal hold it. Answered without opening the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DB_FILE_NAME } from '../../store/database.js';
import { lockOwner } from '../../store/upkeep/lock.js';

/** Raised when the terminal's database cannot be used (its message says what to do): any command that opens it may. */
export { StoreError } from '../../store/database.js';

/** The terminal's database file in `dataDir`. */
export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DB_FILE_NAME);
}

/** Whether the data directory holds the terminal's database (the terminal has run with it). */
export function hasTerminalData(dataDir: string): boolean {
  return fs.existsSync(databaseFile(dataDir));
}

/** The pid of the terminal running on `dataDir` (it holds the directory's lock), or null. */
export function runningTerminal(dataDir: string): number | null {
  return lockOwner(dataDir);
}
