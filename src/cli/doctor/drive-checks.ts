/**
 * Doctor's view of the USB drives the exports can write to: the ones the admin screen would list
 * now (src/agent/host/removable-drives.ts), so "Nenhum pendrive encontrado" on the screen can be told
 * apart from a drive that is plugged in but not mounted where the terminal looks.
 */
import { listRemovableDrives, type DriveRoots } from '../../agent/host/removable-drives.js';
import { ok, type CheckResult } from './result.js';

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(1)} GB free`;

export async function drivesCheck(roots: DriveRoots): Promise<CheckResult> {
  const drives = await listRemovableDrives(roots);
  if (drives.length === 0) {
    return ok(
      'USB drives',
      `none mounted under ${roots.mountRoots.join(', ')} (the package mounts a FAT, exFAT or NTFS drive at /media/timeclock/<device> when it is plugged in)`,
    );
  }
  const each = drives.map(
    (d) =>
      `${d.device} at ${d.path} (${d.readOnly ? 'read-only' : d.freeBytes === null ? 'free space unknown' : gb(d.freeBytes)})`,
  );
  return ok('USB drives', each.join('; '));
}
