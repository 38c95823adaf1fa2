/**
 * The kiosk user's session (issue 13, items 4–5): assets/bin/timeclock-kiosk-session run for real
 * by /bin/sh, with stand-ins for xset, unclutter, the app and the CLI that log their arguments,
 * on a PATH holding nothing else (the host's own xset can neither answer nor hide a call); the
 * cage unit as `systemd-analyze verify` reads it; the X session file as desktop-file-validate does.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir, waitFor } from '../helpers/temp.js';

const SESSION = path.resolve('assets/bin/timeclock-kiosk-session');
const CAGE_UNIT = path.resolve('assets/timeclock-kiosk-cage.service');
const DESKTOP = path.resolve('assets/timeclock-kiosk.desktop');
const BROWSER = '/usr/lib/fake/chromium';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

/** True when no process has this pid any more (exited and reaped). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** A stand-in that logs `name pid=… args` (and what the app sees), then crashes or stays up. */
const FAKE = (name: string): string => `#!/bin/sh
n=$(grep -c '^${name} ' "$FAKE_LOG" || :)
printf '%s pid=%s t=%s stdin=%s data=%s config=%s arenas=%s mmap=%s trim=%s args=%s\\n' ${name} $$ "$(date +%s%N)" \\
  "$(readlink /proc/$$/fd/0)" "$TIMECLOCK_DATA_DIR" "$TIMECLOCK_CONFIG" "$MALLOC_ARENA_MAX" "$MALLOC_MMAP_THRESHOLD_" \\
  "$MALLOC_TRIM_THRESHOLD_" "$*" >> "$FAKE_LOG"
if [ "$n" -lt "\${FAKE_CRASHES:-0}" ]; then exit 3; fi
exec sleep 60
`;

const XSET = `#!/bin/sh
echo "xset $*" >> "$FAKE_LOG"
if [ "$1" = q ]; then [ -z "\${FAKE_DISPLAY_GONE:-}" ]; exit; fi
[ -z "\${FAKE_XSET_FAILS:-}" ]
`;

const UNCLUTTER = `#!/bin/sh
echo "unclutter pid=$$ $*" >> "$FAKE_LOG"
exec sleep 60
`;

type Run = { child: ChildProcess; stderr: () => string; exit: Promise<number | null> };

/** A temp dir: bin/ (the stand-ins), tools/ (the few real programs they need), the log. */
function rig(o: { xset?: boolean } = {}) {
  const t = tempDir('timeclock-session-');
  const bin = path.join(t.dir, 'bin');
  const tools = path.join(t.dir, 'tools');
  fs.mkdirSync(bin);
  fs.mkdirSync(tools);
  const log = path.join(t.dir, 'log');
  fs.writeFileSync(log, '');
  const write = (name: string, text: string) => fs.writeFileSync(path.join(bin, name), text, { mode: 0o755 });
  write('app', FAKE('app'));
  write('cli', FAKE('cli'));
  write('unclutter', UNCLUTTER);
  if (o.xset !== false) write('xset', XSET);
  for (const tool of ['date', 'sleep', 'grep', 'readlink']) {
    const real = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (!real) throw new Error(`no ${tool} on this machine`);
    fs.symlinkSync(real, path.join(tools, tool));
  }
  const lines = () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const runs: Run[] = [];
  cleanups.push(() => {
    for (const r of runs) r.child.kill('SIGKILL');
    for (const m of lines()
      .join('\n')
      .matchAll(/pid=(\d+)/g))
      if (!gone(Number(m[1]))) process.kill(Number(m[1]), 'SIGKILL');
    t.cleanup();
  });
  const start = (env: Record<string, string> = {}): Run => {
    const child = spawn(SESSION, [], {
      env: {
        PATH: `${bin}:${tools}`,
        FAKE_LOG: log,
        TIMECLOCK_APP: path.join(bin, 'app'),
        TIMECLOCK_CLI: path.join(bin, 'cli'),
        TIMECLOCK_BROWSER: BROWSER,
        TIMECLOCK_RESTART_DELAY: '0',
        ...env,
      },
      // Standard input a pipe, not /dev/null (as tty1 is under cage): the app must get /dev/null anyway.
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const run = { child, stderr: () => stderr, exit };
    runs.push(run);
    return run;
  };
  const starts = (name: 'app' | 'cli') => lines().filter((l) => l.startsWith(`${name} `));
  // `args` is the line's last field and may hold spaces (the V8 flags are one argument).
  const field = (line: string | undefined, key: string) =>
    new RegExp(key === 'args' ? 'args=(.*)$' : `${key}=(\\S*)`).exec(line ?? '')?.[1];
  /** SIGTERM, as systemd or the display manager stops the session: it exits 0 and leaves no process. */
  const stop = async (run: Run) => {
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    for (const m of lines()
      .join('\n')
      .matchAll(/pid=(\d+)/g))
      await waitFor(() => gone(Number(m[1])), `pid ${m[1]} ended`, 5_000);
  };
  return { lines, starts, field, start, stop };
}

describe('the session under X', () => {
  it('turns the screen saver, blanking and DPMS off before the app starts, and hides the pointer', async () => {
    const r = rig();
    expect(() => fs.accessSync(SESSION, fs.constants.X_OK)).not.toThrow();
    const run = r.start({ DISPLAY: ':7' });
    await waitFor(
      () => r.starts('app').length === 1 && r.lines().some((l) => l.startsWith('unclutter')),
      'the app and unclutter',
    );
    expect(r.lines().slice(0, 3)).toEqual(['xset s off', 'xset s noblank', 'xset -dpms']);
    expect(r.lines().find((l) => l.startsWith('unclutter'))).toMatch(/ -idle 1 -root$/);
    const app = r.starts('app')[0];
    // The system configuration, the app's own default data directory (so it can adopt an old
    // per-user queue), and no terminal to read codes from.
    expect({
      data: r.field(app, 'data'),
      config: r.field(app, 'config'),
      stdin: r.field(app, 'stdin'),
      arenas: r.field(app, 'arenas'),
      mmap: r.field(app, 'mmap'),
      trim: r.field(app, 'trim'),
      args: r.field(app, 'args'),
    }).toEqual({
      data: '',
      config: '/etc/timeclock-kiosk/config.json',
      stdin: '/dev/null',
      arenas: '2',
      mmap: '131072',
      trim: '262144',
      // The young generation as the agent runs everywhere (assets/bin/timeclock).
      args: '--js-flags=--max-semi-space-size=4 --optimize-for-size',
    });
    await r.stop(run);
    expect(run.stderr()).toBe('');
  });

  it('without xset, or with an xset that fails, says so and still starts the app', async () => {
    const missing = rig({ xset: false });
    const a = missing.start({ DISPLAY: ':7' });
    await waitFor(() => missing.starts('app').length === 1, 'the app');
    await missing.stop(a);
    expect(a.stderr()).toMatch(/xset not found .*the screen may blank/);

    const failing = rig();
    const b = failing.start({ DISPLAY: ':7', FAKE_XSET_FAILS: '1' });
    await waitFor(() => failing.starts('app').length === 1, 'the app');
    await failing.stop(b);
    expect(b.stderr()).toMatch(/'xset s off' failed[\s\S]*'xset s noblank' failed[\s\S]*'xset -dpms' failed/);
  });

  it('ends the session, not restart the app, when the X display has gone away', async () => {
    const r = rig();
    const run = r.start({ DISPLAY: ':7', FAKE_DISPLAY_GONE: '1', FAKE_CRASHES: '5' });
    expect(await run.exit).toBe(1);
    expect(r.starts('app')).toHaveLength(1);
    expect(
      r
        .lines()
        .filter((l) => !l.startsWith('unclutter'))
        .at(-1),
    ).toBe('xset q');
    expect(run.stderr()).toMatch(/X display :7 is gone: ending the session/);
  });
});

describe('the session under cage (Wayland)', () => {
  it('calls no xset (with no DISPLAY, or with Xwayland’s beside WAYLAND_DISPLAY) and keeps a preset configuration and data directory', async () => {
    const envs: Array<Record<string, string>> = [{}, { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }];
    for (const env of envs) {
      const r = rig();
      const run = r.start({ ...env, TIMECLOCK_DATA_DIR: '/srv/kiosk-data', TIMECLOCK_CONFIG: '/srv/kiosk.json' });
      await waitFor(() => r.starts('app').length === 1, 'the app');
      await r.stop(run);
      expect(
        r.lines().filter((l) => !l.startsWith('app ')),
        JSON.stringify(env),
      ).toEqual([]);
      expect(r.field(r.starts('app')[0], 'data')).toBe('/srv/kiosk-data');
      expect(r.field(r.starts('app')[0], 'config')).toBe('/srv/kiosk.json');
      expect(run.stderr()).toMatch(/not under X/);
    }
  });
});

describe('the screen it runs', () => {
  it('browser mode runs `timeclock start --headless --browser <browser>` instead of the app', async () => {
    const r = rig();
    const run = r.start({ TIMECLOCK_SCREEN: 'browser' });
    await waitFor(() => r.starts('cli').length === 1, 'the CLI');
    await r.stop(run);
    expect(r.starts('app')).toEqual([]);
    expect(r.starts('cli')[0]).toMatch(new RegExp(`args=start --headless --browser ${BROWSER}$`));
    expect(r.field(r.starts('cli')[0], 'stdin')).toBe('/dev/null');
  });

  it('an unknown TIMECLOCK_SCREEN is refused with exit 2, and nothing starts', async () => {
    const r = rig();
    const run = r.start({ TIMECLOCK_SCREEN: 'firefox' });
    expect(await run.exit).toBe(2);
    expect(r.lines()).toEqual([]);
    expect(run.stderr()).toMatch(/TIMECLOCK_SCREEN must be 'electron' or 'browser', not 'firefox'/);
  });
});

describe('restarting the app', () => {
  it('an app that exits is started again, the wait doubling while it keeps failing', async () => {
    const r = rig();
    const run = r.start({ FAKE_CRASHES: '2', TIMECLOCK_RESTART_DELAY: '1' });
    await waitFor(() => r.starts('app').length === 3, 'the third start', 10_000);
    const [t0, t1, t2] = r.starts('app').map((l) => Number(r.field(l, 't')) / 1e6);
    expect((t1 ?? 0) - (t0 ?? 0)).toBeGreaterThanOrEqual(950);
    expect((t2 ?? 0) - (t1 ?? 0)).toBeGreaterThanOrEqual(1_950);
    expect(run.stderr()).toMatch(
      /app exited with status 3; starting it again in 1s\n.*app exited with status 3; starting it again in 2s\n/,
    );
    await r.stop(run);
    expect(r.starts('app')).toHaveLength(3);
  });

  it('a SIGTERM during the wait ends the session at once, with no new start', async () => {
    const r = rig();
    const run = r.start({ FAKE_CRASHES: '1', TIMECLOCK_RESTART_DELAY: '30' });
    await waitFor(() => run.stderr().includes('starting it again in 30s'), 'the wait');
    const asked = Date.now();
    await r.stop(run);
    expect(Date.now() - asked).toBeLessThan(3_000);
    expect(r.starts('app')).toHaveLength(1);
  });
});

describe('the cage unit', () => {
  /** A root holding the system's own units, the unit under test, and the two programs it runs. */
  function fakeRoot(o: { cage?: boolean; extra?: string } = {}): string {
    const t = tempDir('timeclock-root-');
    cleanups.push(t.cleanup);
    fs.cpSync('/usr/lib/systemd/system', path.join(t.dir, 'usr/lib/systemd/system'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    fs.mkdirSync(path.join(t.dir, 'usr/bin'), { recursive: true });
    const programs = o.cage === false ? ['timeclock-kiosk-session'] : ['cage', 'timeclock-kiosk-session'];
    for (const p of programs) fs.writeFileSync(path.join(t.dir, 'usr/bin', p), '#!/bin/sh\n', { mode: 0o755 });
    fs.mkdirSync(path.join(t.dir, 'etc/systemd/system'), { recursive: true });
    fs.writeFileSync(
      path.join(t.dir, 'etc/systemd/system', path.basename(CAGE_UNIT)),
      fs.readFileSync(CAGE_UNIT, 'utf8') + (o.extra ?? ''),
    );
    return t.dir;
  }
  const verify = (root: string) =>
    spawnSync('systemd-analyze', ['verify', `--root=${root}`, path.basename(CAGE_UNIT)], { encoding: 'utf8' });

  it('passes systemd-analyze verify, with no warning, in a root where cage and the session exist', () => {
    // cage is not installed here, and verify checks that ExecStart's program exists: --root makes
    // it look in a root that has one (a stub), with this machine's own units for the dependencies.
    const ok = verify(fakeRoot());
    expect({ status: ok.status, stderr: ok.stderr, stdout: ok.stdout }).toEqual({ status: 0, stderr: '', stdout: '' });
    // The check is real: without cage it fails, and a misspelt key is reported.
    expect(verify(fakeRoot({ cage: false }))).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/Command \/usr\/bin\/cage is not executable/),
    });
    expect(verify(fakeRoot({ extra: '[Service]\nRestrat=always\n' })).stderr).toMatch(/Unknown key 'Restrat'/);

    const unit = fs.readFileSync(CAGE_UNIT, 'utf8');
    for (const line of [
      'User=kiosk',
      'PAMName=login',
      'TTYPath=/dev/tty1',
      'StandardInput=tty-fail',
      'Conflicts=getty@tty1.service',
      'Restart=always',
      'WantedBy=graphical.target',
    ]) {
      expect(unit, line).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/cage -s -- \/usr\/bin\/timeclock-kiosk-session$/m);
  });
  it('is hardened as far as a display session allows: systemd-analyze security at or below 5.0', () => {
    const out = spawnSync('systemd-analyze', ['security', '--offline=true', path.basename(CAGE_UNIT)], {
      encoding: 'utf8',
      cwd: path.dirname(CAGE_UNIT),
    });
    const level = Number(/Overall exposure level for timeclock-kiosk-cage\.service: (\d+\.\d+)/.exec(out.stdout)?.[1]);
    expect(level, out.stdout + out.stderr).toBeLessThanOrEqual(5.0);
    // The score is read for real: the unit as it was (no hardening) rated 9.2 UNSAFE.
    const bare = fs.readFileSync(CAGE_UNIT, 'utf8').replace(/\n# Hardening[\s\S]*?(?=\n\[Install\])/, '\n');
    const t = tempDir('timeclock-bare-unit-');
    cleanups.push(t.cleanup);
    fs.writeFileSync(path.join(t.dir, path.basename(CAGE_UNIT)), bare);
    const unsafe = spawnSync('systemd-analyze', ['security', '--offline=true', path.basename(CAGE_UNIT)], {
      encoding: 'utf8',
      cwd: t.dir,
    });
    expect(
      Number(/Overall exposure level for timeclock-kiosk-cage\.service: (\d+\.\d+)/.exec(unsafe.stdout)?.[1]),
    ).toBeGreaterThan(9);

    const unit = fs.readFileSync(CAGE_UNIT, 'utf8');
    for (const line of [
      'NoNewPrivileges=true',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/timeclock-kiosk',
      'ProtectHome=tmpfs',
      'BindPaths=/home/kiosk',
      'PrivateTmp=true',
      'ProtectKernelTunables=true',
      'ProtectKernelModules=true',
      'ProtectKernelLogs=true',
      'CapabilityBoundingSet=',
      'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK',
      'DevicePolicy=closed',
      'DeviceAllow=char-drm rw',
      'DeviceAllow=char-input rw',
      'DeviceAllow=char-hidraw rw',
      'DeviceAllow=char-tty rw',
      // What cage and the screen need, kept: the logind seat session on tty1, Chromium's namespace sandbox.
      'PAMName=login',
      'RestrictNamespaces=user pid net',
    ]) {
      expect(unit, line).toMatch(new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    }
  });

  it('carries no API token in its environment: the env file arrives as a credential the app reads', () => {
    const unit = fs.readFileSync(CAGE_UNIT, 'utf8');
    expect(unit).not.toMatch(/^EnvironmentFile=/m);
    expect(unit).not.toMatch(/^Environment=.*TOKEN/m);
    expect(unit).toMatch(/^LoadCredential=timeclock-env:\/etc\/timeclock-kiosk\/env$/m);
    expect(unit).toMatch(/^Environment=TIMECLOCK_ENV_FILE=%d\/timeclock-env$/m);
  });
});

describe('the X session file', () => {
  const validator = spawnSync('sh', ['-c', 'command -v desktop-file-validate'], { encoding: 'utf8' }).stdout.trim();

  it('runs the session program', () => {
    const entry = fs.readFileSync(DESKTOP, 'utf8');
    expect(entry).toMatch(/^\[Desktop Entry\]$/m);
    expect(entry).toMatch(/^Type=Application$/m);
    expect(entry).toMatch(/^Exec=\/usr\/bin\/timeclock-kiosk-session$/m);
  });

  // desktop-file-validate (package desktop-file-utils) is optional: not installed on this machine.
  it.skipIf(!validator)(
    `passes desktop-file-validate${validator ? '' : ' (skipped: desktop-file-validate is not installed)'}`,
    () => {
      const out = spawnSync(validator, [DESKTOP], { encoding: 'utf8' });
      expect({ status: out.status, output: out.stdout + out.stderr }).toEqual({ status: 0, output: '' });
    },
  );
});
