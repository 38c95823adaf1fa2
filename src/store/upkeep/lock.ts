import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../database.js';

export type DataDirLock = { release(): void };

/**
 * Every lock this process holds, until released. A better-sqlite3 connection nobody references is
 * closed when V8 collects it, which would drop the lock in the middle of a run (Node 24 collects
 * such objects within milliseconds): the lock must not depend on the caller keeping it reachable.
 */
const heldLocks = new Set<Database.Database>();

/** The lock: a small SQLite file held in exclusive locking mode. The kernel drops it with the process. */
export const LOCK_FILE_NAME = 'agent.lock.sqlite';
/** Who holds it, for the message only: never trusted to decide anything (pids are reused). */
const PID_FILE_NAME = 'agent.pid';
/** The pid-file lock of earlier versions: a power cut left it behind, naming a pid another process reused. */
const OLD_LOCK_FILE_NAME = 'agent.lock';

/**
 * Takes the exclusive lock, or returns null when someone holds it. `waitMs` rides over a moment
 * when `timeclock status` is looking (it takes the lock for an instant to ask).
 */
function tryLock(dataDir: string, waitMs: number): Database.Database | null {
  let db: Database.Database;
  try {
    db = new Database(path.join(dataDir, LOCK_FILE_NAME), { timeout: waitMs });
  } catch (e) {
    throw new StoreError(`cannot create the agent lock in ${dataDir}: ${(e as Error).message}`, 'unwritable');
  }
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the file's exclusive lock; in EXCLUSIVE locking mode it is kept until close.
    db.exec('CREATE TABLE IF NOT EXISTS holder (since INTEGER NOT NULL); DELETE FROM holder;');
    db.prepare('INSERT INTO holder (since) VALUES (?)').run(Date.now());
    return db;
  } catch (e) {
    db.close();
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return null;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      // Not ours to keep (a damaged lock file): it holds no data, so it is made anew.
      fs.rmSync(path.join(dataDir, LOCK_FILE_NAME), { force: true });
      return tryLock(dataDir, waitMs);
    }
    throw new StoreError(`cannot take the agent lock in ${dataDir}: ${(e as Error).message}`, 'unwritable');
  }
}

function recordedPid(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(path.join(dataDir, PID_FILE_NAME), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * The pid of the agent holding `dataDir` (-1 when one holds it but its pid file is unreadable), or
 * null when none does: asked of the kernel's lock, not of a pid that may belong to anyone now.
 */
export function lockOwner(dataDir: string): number | null {
  if (!fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))) return null;
  let held: Database.Database | null;
  try {
    held = tryLock(dataDir, 0);
  } catch {
    return null;
  }
  if (held === null) return recordedPid(dataDir) ?? -1;
  held.close();
  return null;
}

/**
 * One agent per data directory: two uploaders on one outbox could both send a punch. The lock is
 * an OS lock on a file (SQLite's, in exclusive locking mode): a process that dies, by kill -9 or a
 * power cut, holds nothing any more, whatever files it left behind.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const held = tryLock(dataDir, 2_000);
  if (held === null) {
    const pid = recordedPid(dataDir);
    throw new StoreError(`another timeclock agent${pid ? ` (pid ${pid})` : ''} is using ${dataDir}`, 'locked');
  }
  fs.rmSync(path.join(dataDir, OLD_LOCK_FILE_NAME), { force: true });
  try {
    fs.writeFileSync(path.join(dataDir, PID_FILE_NAME), String(process.pid), { mode: 0o600 });
  } catch {
    /* the pid is for messages only */
  }
  heldLocks.add(held);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (recordedPid(dataDir) === process.pid) fs.rmSync(path.join(dataDir, PID_FILE_NAME), { force: true });
      heldLocks.delete(held);
      held.close();
    },
  };
}
