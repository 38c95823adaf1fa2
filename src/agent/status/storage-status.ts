/**
 * The disk as status shows it: free space where the database is (statfs costs nothing) and the
 * punches refused because they could not be saved. A full disk must be visible where the manager
 * looks (status, admin screen, metrics), not only in doctor and the log.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StorageRefusals } from './capture-counts.js';

/** Below this, status says the space is low (doctor's warning threshold: 500 MB). */
export const LOW_FREE_BYTES = 500_000_000;

export type StorageStatus = {
  /** Free bytes for the data directory; null when the file system cannot be asked. */
  freeBytes: number | null;
  low: boolean;
  /** Punches refused since the agent started because they could not be saved (a running agent's; null: none). */
  refused: StorageRefusals | null;
};

export function storageOf(dbFile: string, refused: StorageRefusals | null = null): StorageStatus {
  let freeBytes: number | null = null;
  try {
    const st = fs.statfsSync(path.dirname(dbFile));
    freeBytes = Number(st.bavail) * Number(st.bsize);
  } catch {
    freeBytes = null;
  }
  return { freeBytes, low: freeBytes !== null && freeBytes < LOW_FREE_BYTES, refused };
}
