/**
 * "Remove the drive safely" after an export (bridge call unmountDrive): only a drive the listing
 * shows now (src/agent/host/removable-drives.ts) is unmounted, so the screen cannot unmount anything
 * else. systemd-umount first: the package mounts drives as systemd mount units
 * (timeclock-kiosk-usb@.service) and its polkit rule lets the kiosk user stop those; plain umount
 * where systemd is not running. The children get a fixed PATH and locale and nothing else of our
 * environment (never the API token).
 */
import { execFile } from 'node:child_process';
import { listRemovableDrives, type DriveRoots } from './removable-drives.js';

export type UnmountAnswer =
  { ok: true; label: string } | { ok: false; code: 'drive_unknown' | 'unmount_failed'; params: Record<string, string> };

/** Tried in order until one succeeds: argv without the mount point, which is appended. */
export const UNMOUNT_COMMANDS: ReadonlyArray<readonly string[]> = [['systemd-umount'], ['umount']];

const CHILD_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' };

function run(argv: readonly string[], timeoutMs: number): Promise<string | null> {
  const [cmd, ...args] = argv;
  return new Promise((resolve) => {
    execFile(cmd as string, args, { env: CHILD_ENV, timeout: timeoutMs, encoding: 'utf8' }, (err, _out, stderr) => {
      if (!err) return resolve(null);
      const said = `${stderr}`
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .at(-1);
      resolve(said ?? err.message);
    });
  });
}

export async function unmountDrive(
  wanted: string,
  roots: DriveRoots,
  opts: { commands?: ReadonlyArray<readonly string[]>; timeoutMs?: number } = {},
): Promise<UnmountAnswer> {
  const drive = (await listRemovableDrives(roots)).find((d) => d.path === wanted);
  if (!drive) return { ok: false, code: 'drive_unknown', params: { path: wanted } };
  let error = '';
  for (const argv of opts.commands ?? UNMOUNT_COMMANDS) {
    const failed = await run([...argv, drive.path], opts.timeoutMs ?? 30_000);
    if (failed === null) {
      // systemd-umount may answer before the unit is gone: the drive counts as removed once unlisted.
      if (!(await listRemovableDrives(roots)).some((d) => d.path === drive.path))
        return { ok: true, label: drive.label };
      error = `${argv[0]}: still mounted`;
    } else error = `${argv[0]}: ${failed}`;
  }
  return { ok: false, code: 'unmount_failed', params: { drive: drive.label, error } };
}
