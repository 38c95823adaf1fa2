/**
 * A real small file system that a test fills: a 4 MiB tmpfs (needs root, which CI has), and a
 * filler file written until the kernel answers ENOSPC. For the full-disk tests (metrics and
 * /healthz, the admin screen's storage alert).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tempDir } from './temp.js';

/** Mounts a 4 MiB tmpfs; its path, and the cleanup (unmount, remove) pushed onto `cleanups`. */
export function smallDisk(cleanups: Array<() => Promise<void> | void>): string {
  const t = tempDir('timeclock-full-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4096k', 'tmpfs', t.dir]);
  } catch (e) {
    throw new Error(`this test mounts a small tmpfs and needs root (CI runs as root): ${(e as Error).message}`);
  }
  cleanups.push(() => {
    execFileSync('umount', ['-l', t.dir]);
    fs.rmSync(t.dir, { recursive: true, force: true });
  });
  return t.dir;
}

/** Writes `file` until the disk is full; throws on any error but ENOSPC. */
export function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (;;) fs.writeSync(fd, Buffer.alloc(16 * 1024));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(fd);
  }
}
