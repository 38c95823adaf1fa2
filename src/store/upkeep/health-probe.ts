import fs from 'node:fs';
import { isDiskFull, type WritableDb } from '../database.js';
import { z } from 'zod';
import { settingKey } from '../settings/setting-keys.js';
import { writeSetting } from '../settings/settings.js';

/** Below this much free space the next punches may not fit: said before they fail, not after. */
export const MIN_FREE_BYTES = 1024 * 1024;

/** Written, never read: the write is the probe. */
const PROBE_KEY = settingKey<number | null>('health_probe', z.number().nullable(), null);

/**
 * Whether a punch could be saved now; null when it could, else one line saying why. Free space
 * first (statfs costs nothing), then a real write committed on `db` — the bookkeeping connection,
 * whose commits cost no fsync — into the same file and log a punch goes to: a read-only remount,
 * a damaged header or a lock held elsewhere fail it as they would fail a punch.
 */
export function storageProblem(
  db: WritableDb,
  dataDir: string,
  now: number,
  minFreeBytes = MIN_FREE_BYTES,
): string | null {
  try {
    const st = fs.statfsSync(dataDir);
    const free = st.bavail * st.bsize;
    if (free < minFreeBytes) return `disk full: ${Math.floor(free / 1024)} KiB free for ${dataDir}`;
  } catch (e) {
    return `data directory ${dataDir} cannot be examined: ${oneLine(e)}`;
  }
  try {
    writeSetting(db, PROBE_KEY, now);
  } catch (e) {
    if (isDiskFull(e)) return `disk full: the database cannot grow (${oneLine(e)})`;
    const code = String((e as { code?: unknown }).code ?? '');
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return `database damaged: ${oneLine(e)}`;
    return `database not writable: ${oneLine(e)}`;
  }
  return null;
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').trim();
}
