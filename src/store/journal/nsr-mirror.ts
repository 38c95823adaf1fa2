import path from 'node:path';

/**
 * Copies of the NSR sidecar kept OUTSIDE the data directory (config `journal.nsrMirrorPath`, by
 * default /var/lib/timeclock-kiosk-nsr when the package made it): a restore of the data directory
 * (tar, rsync, a snapshot of it) rolls back the database and `journal-nsr.json` together, not this.
 * One file per journal id, so several data directories (or a new journal after a replaced disk)
 * can share the directory without mistaking each other's numbers.
 */
export const SYSTEM_NSR_MIRROR_DIR = '/var/lib/timeclock-kiosk-nsr';

export function mirrorFileFor(dir: string, journalId: string): string {
  if (!/^[0-9a-f]{32}$/.test(journalId)) throw new RangeError(`not a journal id: ${journalId}`);
  return path.join(dir, `journal-nsr-${journalId}.json`);
}

export function mirrorHeadFileFor(dir: string, journalId: string): string {
  if (!/^[0-9a-f]{32}$/.test(journalId)) throw new RangeError(`not a journal id: ${journalId}`);
  return path.join(dir, `journal-head-${journalId}.json`);
}
