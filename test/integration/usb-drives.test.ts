/**
 * USB drives on the packaged terminal (issue 27, item 2), as far as this machine allows. A real
 * exFAT filesystem on a loop device is mounted by the package's own unit command line
 * (timeclock-kiosk-usb@.service's ExecStart, run by sh as systemd would, with its options), then
 * the admin screen's calls over the web bridge list it, write the AFD to it, and unmount it; the
 * image is mounted again and the file read back.
 *
 * What is stood in, and why: no systemd runs here (a container), so `systemd-mount` is a stand-in
 * that runs mount(8) with exactly the arguments the unit gives it, the way systemd's transient mount
 * unit would; this kernel has no vfat or exfat driver, so mount uses exFAT through FUSE
 * (exfat-fuse), which takes the same uid/gid/fmask/dmask options; a loop device says it is not
 * removable, so the /sys/block entry is a stand-in saying what a USB stick says ("1"); and `id` answers for
 * a kiosk user this machine does not have. The unmount runs the real commands: systemd-umount
 * (which fails without systemd) and then umount. Needs root, a free loop device, /dev/fuse,
 * mkfs.exfat (exfatprogs) and mount.exfat-fuse (exfat-fuse): .ci/run installs both packages.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { DriveRoots } from '../../src/agent/host/removable-drives.js';
import { unmountDrive } from '../../src/agent/host/unmount-drive.js';
import { drivesCheck } from '../../src/cli/doctor/drive-checks.js';
import { verifyAfd } from '../../src/domain/afd/verify.js';
import { sha256Latin1 } from '../../src/store/journal/journal-facts.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { punchedTerminal, TERMINAL_NAME as ANNEX_NAME } from '../helpers/afd.js';
import { fakeDrive } from '../helpers/fake-drive.js';
import { tempDir } from '../helpers/temp.js';

const UNIT = path.resolve('assets/timeclock-kiosk-usb@.service');
const RULE = path.resolve('assets/61-timeclock-usb-drives.rules');
const POLKIT = path.resolve('assets/60-timeclock-kiosk.polkit.rules');
const KIOSK_UID = 4321;
const KIOSK_GID = 4322;
const ADMIN_PIN = '731904';

/** Why the loop-device test cannot run here, or null when it can. */
function loopUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'not root (losetup and mount need it)';
  for (const tool of ['losetup', 'mkfs.exfat', 'mount.exfat-fuse']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return `${tool} is not installed (apt-get install exfatprogs exfat-fuse)`;
  }
  if (!fs.existsSync('/dev/fuse')) return 'no /dev/fuse';
  const free = spawnSync('losetup', ['-f'], { encoding: 'utf8' });
  return free.status === 0 ? null : `no free loop device (${free.stderr.trim()})`;
}
const whyNot = loopUnavailable();

/** The unit's ExecStart: `/bin/sh -c '<script>' sh %I`, with systemd's "$$" as "$". */
function unitMountScript(): string {
  const m = /^ExecStart=\/bin\/sh -c '(.+)' sh %I$/m.exec(fs.readFileSync(UNIT, 'utf8'));
  if (!m) throw new Error(`${UNIT}: ExecStart is not /bin/sh -c '…' sh %I`);
  return (m[1] as string).replace(/\$\$/g, '$');
}

describe('a USB drive on a loop device, mounted by the unit, written by the export', () => {
  const tmp = tempDir('timeclock-usb-drives-');
  const cleanups: Array<() => Promise<void> | void> = [];
  const image = path.join(tmp.dir, 'stick.img');
  const media = path.join(tmp.dir, 'media');
  let loop = '';
  let name = '';
  let drivePath = '';
  let roots: DriveRoots;
  let agent: Agent;
  let bridge: WebBridge;
  // The admin session is this client's cookie (issue 25), kept as a browser keeps it.
  let cookie = '';
  const call = async (
    callName: string,
    input: unknown = {},
  ): Promise<{ status: number; body: { ok: boolean; value?: Record<string, unknown>; error?: { code: string } } }> => {
    const res = await fetch(`${bridge.origin}/api/${callName}`, {
      method: 'POST',
      headers: { 'x-kiosk-token': bridge.token, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(input),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('kiosk-admin='));
    if (set) cookie = set.split(';')[0] ?? '';
    return {
      status: res.status,
      body: (await res.json()) as { ok: boolean; value?: Record<string, unknown>; error?: { code: string } },
    };
  };
  const mounted = () =>
    fs
      .readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .some((l) => l.split(' ')[1] === drivePath);

  beforeAll(async () => {
    // Not skipped where it cannot run: CI runs as root with loop devices and FUSE (.ci/run installs the tools).
    if (whyNot) throw new Error(`the loop-device test cannot run here: ${whyNot}`);
    // Other users must reach the mount point (as they would /media/timeclock) to be let in or refused by the drive
    // itself.
    fs.chmodSync(tmp.dir, 0o755);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
    execFileSync('mkfs.exfat', ['-L', 'KIOSK', image], { stdio: 'pipe' });
    loop = execFileSync('losetup', ['-f', '--show', image], { encoding: 'utf8' }).trim();
    cleanups.push(() => void spawnSync('losetup', ['-d', loop]));
    name = path.basename(loop);
    drivePath = path.join(media, 'timeclock', name);
    cleanups.push(() => void (mounted() && spawnSync('umount', [drivePath])));
    // /sys/block/<disk>/removable as a USB stick has it; the mounts are this machine's own.
    const sysBlock = path.join(tmp.dir, 'sys', 'block');
    fs.mkdirSync(path.join(sysBlock, name), { recursive: true });
    fs.writeFileSync(path.join(sysBlock, name, 'removable'), '1\n');
    roots = { mounts: '/proc/mounts', sysBlock, mountRoots: [media] };

    // The unit's command line, with stand-ins for systemd-mount (runs mount(8) with its arguments,
    // through FUSE for exFAT here) and for `id kiosk`; the mount root is under the temp directory.
    const bin = path.join(tmp.dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(
      path.join(bin, 'systemd-mount'),
      `#!/bin/sh
set -e
for a in "$@"; do
  case "$a" in
    --no-block|--automount=no|--collect) ;;
    --options=*) opts="\${a#--options=}" ;;
    -*) echo "systemd-mount stand-in: unexpected $a" >&2; exit 2 ;;
    *) if [ -z "\${what:-}" ]; then what="$a"; else where="$a"; fi ;;
  esac
done
mkdir -p "$where"
exec mount -t exfat-fuse -o "$opts" "$what" "$where"
`,
      { mode: 0o755 },
    );
    fs.writeFileSync(
      path.join(bin, 'id'),
      `#!/bin/sh\n[ "$2" = kiosk ] || exit 1\ncase "$1" in -u) echo ${KIOSK_UID} ;; -g) echo ${KIOSK_GID} ;; *) exit 1 ;; esac\n`,
      { mode: 0o755 },
    );
    const script = unitMountScript()
      .replace('/usr/bin/systemd-mount', path.join(bin, 'systemd-mount'))
      .replace(/\/media\/timeclock\//g, `${media}/timeclock/`);
    const m = spawnSync('/bin/sh', ['-c', script, 'sh', name], {
      encoding: 'utf8',
      env: { PATH: `${bin}:/usr/sbin:/usr/bin:/sbin:/bin` },
    });
    expect(m.status, m.stderr).toBe(0);
    expect(mounted()).toBe(true);

    ({ agent } = await punchedTerminal(
      path.join(tmp.dir, 'data'),
      [
        { date: '2026-08-03', time: '08:01', id: '1001' },
        { date: '2026-08-03', time: '17:05', id: '1002' },
      ],
      cleanups,
      { afdDrives: roots },
    ));
    const rendererDir = path.join(tmp.dir, 'renderer');
    fs.mkdirSync(rendererDir);
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>kiosk</title>');
    bridge = await startWebBridge({
      agent,
      host: '127.0.0.1',
      port: 0,
      rendererDir,
      adminPin: { verify: async (pin) => pin === ADMIN_PIN },
    });
    cleanups.push(() => bridge.close());
    expect((await call('adminLogin', { pin: ADMIN_PIN })).body).toMatchObject({ ok: true, value: { ok: true } });
  }, 120_000);
  afterAll(async () => {
    while (cleanups.length) await cleanups.pop()?.();
    tmp.cleanup();
  });

  it('lists the drive, writes the AFD on it as the kiosk user’s file, unmounts it, and the file is on the stick', async () => {
    const targets = await call('afdTargets');
    expect(targets.body.value?.['drives']).toEqual([
      { path: drivePath, label: name, readOnly: false, freeBytes: expect.any(Number) },
    ]);

    const exported = await call('exportAfd', {
      from: '2026-08-01',
      to: '2026-08-31',
      target: { kind: 'drive', path: drivePath },
    });
    expect(exported.body.value).toMatchObject({
      ok: true,
      fileName: ANNEX_NAME,
      marks: 2,
      where: { kind: 'drive', label: name },
    });
    const file = path.join(drivePath, 'AFD_2026-08-01_2026-08-31', ANNEX_NAME);
    const written = fs.readFileSync(file, 'latin1');
    expect(verifyAfd(written, sha256Latin1)).toMatchObject({ ok: true, counts: { 7: 2 } });
    // The unit's options: the kiosk user's, 0660 files, and no one else may read them.
    const st = fs.statSync(file);
    expect([st.uid, st.gid, st.mode & 0o777]).toEqual([KIOSK_UID, KIOSK_GID, 0o660]);
    expect(spawnSync('cat', [file], { uid: KIOSK_UID, gid: KIOSK_GID }).status).toBe(0);
    expect(spawnSync('cat', [file], { uid: 4399, gid: 4399 }).status).not.toBe(0);

    // A path the listing did not give is refused, and bad input never reaches the agent.
    expect((await call('unmountDrive', { path: tmp.dir })).body.value).toMatchObject({
      ok: false,
      code: 'drive_unknown',
    });
    expect((await call('unmountDrive', { path: '' })).body.error?.code).toBe('bad_request');
    expect((await call('unmountDrive', { path: drivePath, also: 1 })).body.error?.code).toBe('bad_request');
    expect(mounted()).toBe(true);

    const unmounted = await call('unmountDrive', { path: drivePath });
    expect(unmounted.body.value).toEqual({ ok: true, label: name });
    expect(mounted()).toBe(false);
    expect((await call('afdTargets')).body.value?.['drives']).toEqual([]);

    // Read back from the filesystem itself, mounted afresh.
    fs.mkdirSync(path.join(tmp.dir, 'again'));
    execFileSync('mount', ['-t', 'exfat-fuse', '-o', 'ro', loop, path.join(tmp.dir, 'again')]);
    try {
      expect(fs.readFileSync(path.join(tmp.dir, 'again', 'AFD_2026-08-01_2026-08-31', ANNEX_NAME), 'latin1')).toBe(
        written,
      );
    } finally {
      execFileSync('umount', [path.join(tmp.dir, 'again')]);
    }
  }, 120_000);
});

describe('the package’s pieces for USB drives', () => {
  it('the udev rule starts the mount unit for a USB FAT/exFAT/NTFS filesystem on add only, and the unit passes systemd-analyze verify', () => {
    const rule = fs
      .readFileSync(RULE, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(rule).toHaveLength(1);
    for (const part of [
      'ACTION=="add"',
      'SUBSYSTEM=="block"',
      'ENV{ID_BUS}=="usb"',
      'ENV{ID_FS_USAGE}=="filesystem"',
      'ENV{ID_FS_TYPE}=="vfat|exfat|ntfs|ntfs3"',
      'TAG+="systemd"',
      'ENV{SYSTEMD_WANTS}+="timeclock-kiosk-usb@%k.service"',
    ]) {
      expect(rule[0]).toContain(part);
    }
    const unit = fs.readFileSync(UNIT, 'utf8');
    expect(unit).toMatch(/^BindsTo=dev-%i\.device$/m);
    expect(unit).toMatch(/^ExecStop=-\/usr\/bin\/systemd-umount \/media\/timeclock\/%I$/m);
    expect(unitMountScript()).toContain(
      '--options="uid=$(id -u kiosk),gid=$(id -g kiosk),fmask=0117,dmask=0007,nosuid,nodev,noexec"',
    );

    // verify, in a throw-away root holding this machine's units and the programs the unit runs.
    const t = tempDir();
    try {
      const sysUnits = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) =>
        fs.existsSync(path.join(d, 'sysinit.target')),
      );
      expect(sysUnits, 'the systemd package installs its units (sysinit.target)').toBeDefined();
      fs.cpSync(sysUnits as string, path.join(t.dir, 'usr/lib/systemd/system'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      fs.mkdirSync(path.join(t.dir, 'etc/systemd/system'), { recursive: true });
      fs.copyFileSync(UNIT, path.join(t.dir, 'etc/systemd/system', path.basename(UNIT)));
      for (const p of ['bin/sh', 'usr/bin/systemd-umount']) {
        fs.mkdirSync(path.dirname(path.join(t.dir, p)), { recursive: true });
        fs.writeFileSync(path.join(t.dir, p), '#!/bin/sh\n', { mode: 0o755 });
      }
      const verify = () =>
        spawnSync('systemd-analyze', ['verify', `--root=${t.dir}`, 'timeclock-kiosk-usb@sdb1.service'], {
          encoding: 'utf8',
        });
      expect(verify()).toMatchObject({ status: 0, stdout: '', stderr: '' });
      fs.rmSync(path.join(t.dir, 'bin/sh'));
      expect(verify().stderr).toMatch(/\/bin\/sh is not executable/);
    } finally {
      t.cleanup();
    }
  });

  it('the headless unit may write under /media/timeclock, and the package makes that directory', () => {
    expect(fs.readFileSync('assets/timeclock-kiosk.service', 'utf8')).toMatch(/^ReadWritePaths=-\/media\/timeclock$/m);
    expect(fs.readFileSync('assets/deb/timeclock-kiosk.tmpfiles', 'utf8')).toMatch(
      /^d \/media\/timeclock 0755 root root -$/m,
    );
  });

  it('the polkit rule lets the kiosk user stop the drive mounts under /media/timeclock, and nothing else', () => {
    const Result = { YES: 'yes', NOT_HANDLED: 'not-handled' };
    let rule: ((action: unknown, subject: unknown) => string) | null = null;
    vm.runInNewContext(fs.readFileSync(POLKIT, 'utf8'), {
      polkit: { Result, addRule: (f: typeof rule) => (rule = f) },
    });
    const ask = (user: string, id: string, unit: string, verb: string) =>
      rule?.({ id, lookup: (k: string) => ({ unit, verb })[k as 'unit' | 'verb'] }, { user });
    const MANAGE = 'org.freedesktop.systemd1.manage-units';
    expect(ask('kiosk', MANAGE, 'media-timeclock-sdb1.mount', 'stop')).toBe(Result.YES);
    expect(ask('kiosk', MANAGE, 'media-timeclock-mmcblk0p1.mount', 'stop')).toBe(Result.YES);
    for (const [user, id, unit, verb] of [
      ['someone', MANAGE, 'media-timeclock-sdb1.mount', 'stop'],
      ['kiosk', MANAGE, 'media-timeclock-sdb1.mount', 'start'],
      ['kiosk', MANAGE, 'timeclock-kiosk.service', 'stop'],
      ['kiosk', MANAGE, '-.mount', 'stop'],
      ['kiosk', MANAGE, 'media-timeclock-sdb1.mount.x', 'stop'],
      ['kiosk', 'org.freedesktop.login1.reboot', 'media-timeclock-sdb1.mount', 'stop'],
    ] as const) {
      expect(ask(user, id, unit, verb), `${user} ${id} ${unit} ${verb}`).toBe(Result.NOT_HANDLED);
    }
  });

  it('unmountDrive runs nothing for a path the listing does not give', async () => {
    const t = tempDir();
    try {
      fs.writeFileSync(path.join(t.dir, 'mounts'), '/dev/sda1 / ext4 rw 0 0\n');
      const marker = path.join(t.dir, 'ran');
      const r = await unmountDrive(
        '/media/timeclock/sdb1',
        { mounts: path.join(t.dir, 'mounts'), sysBlock: t.dir, mountRoots: ['/media'] },
        { commands: [['touch', marker]] },
      );
      expect(r).toEqual({ ok: false, code: 'drive_unknown', params: { path: '/media/timeclock/sdb1' } });
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      t.cleanup();
    }
  });

  it('doctor lists the drives the export would see, and says where it looks when there is none', async () => {
    const t = tempDir();
    try {
      const drive = fakeDrive(t.dir);
      const { roots, path: stick } = drive;
      expect(await drivesCheck(roots)).toEqual({
        check: 'USB drives',
        status: 'ok',
        detail: expect.stringMatching(new RegExp(`^/dev/sdb1 at ${stick} \\(\\d+\\.\\d GB free\\)$`)),
      });
      drive.unplug();
      expect((await drivesCheck(roots)).detail).toBe(
        `none mounted under ${roots.mountRoots[0]} (the package mounts a FAT, exFAT or NTFS drive at /media/timeclock/<device> when it is plugged in)`,
      );
    } finally {
      t.cleanup();
    }
  });
});
