/**
 * Removable drives the admin screen can export to: mounted filesystems (from /proc/mounts) whose
 * mount point is under the places desktops and udisks mount them (/media, /run/media, /mnt) and
 * whose block device the kernel calls removable (/sys/block/<disk>/removable = 1). The roots are
 * injectable so tests use a fake /proc/mounts and /sys in a temp directory. Linux only: elsewhere
 * there is no /proc/mounts and the list is empty.
 */
import fs from 'node:fs';
import path from 'node:path';

export type RemovableDrive = {
  /** The mount point: where files are written. */
  path: string;
  /** Its last component (the volume's label, as udisks names mount points). */
  label: string;
  /** The block device, e.g. /dev/sdb1. */
  device: string;
  readOnly: boolean;
  /** Free space for this user; null when it cannot be read. */
  freeBytes: number | null;
};

export type DriveRoots = {
  /** Default /proc/mounts. */
  mounts: string;
  /** Default /sys/block. */
  sysBlock: string;
  /** Mount points are accepted only under these. */
  mountRoots: readonly string[];
};

export const DEFAULT_DRIVE_ROOTS: DriveRoots = {
  mounts: '/proc/mounts',
  sysBlock: '/sys/block',
  mountRoots: ['/media', '/run/media', '/mnt'],
};

/** /proc/mounts writes space, tab, newline and backslash in octal (\040...). */
const unescapeMount = (s: string): string =>
  s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));

const isUnder = (p: string, root: string): boolean =>
  p !== root && p.startsWith(root.endsWith('/') ? root : `${root}/`);

/** The disk a partition belongs to: sdb1 → sdb, nvme0n1p2 → nvme0n1, mmcblk0p1 → mmcblk0. */
export function diskOf(name: string): string {
  const numbered = /^(.*\d)p\d+$/.exec(name);
  if (numbered) return numbered[1] as string;
  const plain = /^(\D+)\d+$/.exec(name);
  return plain ? (plain[1] as string) : name;
}

function removable(sysBlock: string, device: string): boolean {
  if (!device.startsWith('/dev/')) return false;
  const name = path.basename(device);
  for (const disk of [name, diskOf(name)]) {
    try {
      return fs.readFileSync(path.join(sysBlock, disk, 'removable'), 'utf8').trim() === '1';
    } catch {
      // not a whole disk by that name: try its disk
    }
  }
  return false;
}

async function freeBytes(dir: string): Promise<number | null> {
  try {
    const s = await fs.promises.statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

export async function listRemovableDrives(roots: DriveRoots = DEFAULT_DRIVE_ROOTS): Promise<RemovableDrive[]> {
  let text: string;
  try {
    text = await fs.promises.readFile(roots.mounts, 'utf8');
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const drives: RemovableDrive[] = [];
  for (const line of text.split('\n')) {
    const [dev, mnt, , options] = line.split(' ');
    if (!dev || !mnt || options === undefined) continue;
    const device = unescapeMount(dev);
    const mountPoint = unescapeMount(mnt);
    if (seen.has(mountPoint) || !roots.mountRoots.some((r) => isUnder(mountPoint, r))) continue;
    if (!removable(roots.sysBlock, device)) continue;
    seen.add(mountPoint);
    drives.push({
      path: mountPoint,
      label: path.basename(mountPoint),
      device,
      readOnly: options.split(',').includes('ro'),
      freeBytes: await freeBytes(mountPoint),
    });
  }
  return drives;
}
