import fs from 'node:fs';
import path from 'node:path';
import { StoreError } from './database.js';

export type DataDirLock = { release(): void };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live agent holding `dataDir`, or null (no lock, or one left by a dead process). */
export function lockOwner(dataDir: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(path.join(dataDir, 'agent.lock'), 'utf8'), 10);
    return Number.isInteger(pid) && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * One agent per data directory: two uploaders on one outbox could both send a punch. A lock file
 * holds the owner's pid; a lock left by a process that died (kill -9, power loss) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'agent.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreError(`cannot create lock in ${dataDir}: ${(e as Error).message}`, 'unwritable');
      }
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new StoreError(`another timeclock agent (pid ${owner}) is using ${dataDir}`, 'locked');
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new StoreError(`could not take the lock in ${dataDir}`, 'locked');
}
