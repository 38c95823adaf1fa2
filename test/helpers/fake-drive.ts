/**
 * A USB stick as the terminal's drive listing sees it (src/agent/host/removable-drives.ts), built in a
 * temp directory: a directory as its mount point, a /proc/mounts stand-in naming it, and
 * /sys/block/<disk>/removable saying whether its disk is removable. The DriveRoots returned are
 * what the agent is given (testAgent's `afdDrives`) or the listing and doctor read directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { diskOf, type DriveRoots } from '../../src/agent/host/removable-drives.js';

export type FakeMount = {
  /** As /proc/mounts names it: /dev/sdb1, or tmpfs and the like (no disk behind it). */
  device: string;
  /** Absolute. Spaces are written escaped, as the kernel does. */
  mountPoint: string;
  /** False: its directory is not made (statfs cannot answer for it); default true (never for `/`). */
  made?: boolean;
  fsType?: string;
  /** Default rw,nosuid. */
  options?: string;
  /** Whether its disk is removable (/sys/block/<disk>/removable 1 or 0); default true. */
  removable?: boolean;
};

/**
 * The mounts `lines` under `root` (its mounts file and sys/block), drives accepted under `mountRoots` (paths below
 * root).
 */
export function fakeMounts(
  root: string,
  lines: readonly FakeMount[],
  mountRoots: readonly string[] = ['media'],
): DriveRoots {
  const roots: DriveRoots = {
    mounts: path.join(root, 'mounts'),
    sysBlock: path.join(root, 'sys', 'block'),
    mountRoots: mountRoots.map((m) => path.join(root, m)),
  };
  for (const m of lines) {
    if (m.mountPoint !== '/' && m.made !== false) fs.mkdirSync(m.mountPoint, { recursive: true });
    if (!m.device.startsWith('/dev/')) continue;
    const disk = path.join(roots.sysBlock, diskOf(path.basename(m.device)));
    fs.mkdirSync(disk, { recursive: true });
    fs.writeFileSync(path.join(disk, 'removable'), m.removable === false ? '0\n' : '1\n');
  }
  const line = (m: FakeMount) =>
    `${m.device} ${m.mountPoint.replace(/ /g, '\\040')} ${m.fsType ?? 'vfat'} ${m.options ?? 'rw,nosuid'} 0 0`;
  fs.writeFileSync(roots.mounts, [...lines.map(line), ''].join('\n'));
  return roots;
}

export type FakeDrive = {
  /** Where the stick is mounted: where exports are written. */
  path: string;
  roots: DriveRoots;
  /** The stick is pulled out: /proc/mounts names only the system disk (its directory stays). */
  unplug(): void;
};

/**
 * The system disk (not removable, at /) and one removable stick, `device` (default /dev/sdb1) at `mountPoint` (default
 * root/media/timeclock/<device>).
 */
export function fakeDrive(root: string, o: { device?: string; mountPoint?: string } = {}): FakeDrive {
  const device = o.device ?? '/dev/sdb1';
  const stick = o.mountPoint ?? path.join(root, 'media', 'timeclock', path.basename(device));
  const system: FakeMount = { device: '/dev/sda1', mountPoint: '/', fsType: 'ext4', options: 'rw', removable: false };
  const roots = fakeMounts(root, [system, { device, mountPoint: stick }]);
  return { path: stick, roots, unplug: () => void fakeMounts(root, [system]) };
}
