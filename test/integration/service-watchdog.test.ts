/**
 * The headless service under systemd's watchdog (issue 13 item 8). There is no systemd as PID 1
 * here, so the real CLI runs with NOTIFY_SOCKET set and a fake `systemd-notify` first on PATH that
 * writes down what it was asked to send; the unit file itself is checked by `systemd-analyze
 * verify` against a throw-away root that holds it and a stub /usr/bin/timeclock.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const UNIT = path.resolve('assets/timeclock-kiosk.service');
const SOCKET = '/run/systemd/notify-test';

/** A directory with a `systemd-notify` that appends "NOTIFY_SOCKET=<its env> <args>" to `log`. */
function fakeSystemdNotify(dir: string): { bin: string; log: string } {
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'notify.log');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'systemd-notify'),
    `#!/bin/sh\nprintf 'NOTIFY_SOCKET=%s %s\\n' "$NOTIFY_SOCKET" "$*" >> '${log}'\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(log, '');
  return { bin, log };
}

/**
 * `timeclock start --headless` as systemd starts it: standard input on /dev/null, WATCHDOG_PID set
 * to the main process by a shell that then execs node (as the package's wrapper must).
 */
function startService(
  dir: string,
  env: Record<string, string>,
): { child: ChildProcess; lines: () => string[]; stderr: () => string; exited: () => number | null } {
  const fake = fakeSystemdNotify(dir);
  const child = spawn(
    '/bin/sh',
    ['-c', 'WATCHDOG_PID=$$; export WATCHDOG_PID; exec "$0" "$@"', process.execPath, CLI, 'start', '--headless'],
    {
      env: {
        PATH: `${fake.bin}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME ?? '/tmp',
        TZ: 'UTC',
        TIMECLOCK_DATA_DIR: path.join(dir, 'data'),
        TIMECLOCK_LOG_LEVEL: 'warn',
        NOTIFY_SOCKET: SOCKET,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let code: number | null = null;
  child.on('exit', (c, sig) => (code = c ?? (sig ? -1 : null)));
  cleanups.push(() => {
    if (code === null) child.kill('SIGKILL');
    if (code !== null && code !== 0) console.error(stderr);
  });
  const lines = () => fs.readFileSync(fake.log, 'utf8').split('\n').filter(Boolean);
  return { child, lines, stderr: () => stderr, exited: () => code };
}

/** Waits for a line of the fake's log matching `re`; fails at once if the agent exited. */
async function untilLine(
  svc: ReturnType<typeof startService>,
  re: RegExp,
  what: string,
  timeoutMs = 20_000,
): Promise<string> {
  await waitFor(
    () => {
      if (svc.exited() !== null) throw new Error(`the agent exited (${svc.exited()}) before ${what}:\n${svc.stderr()}`);
      return svc.lines().some((l) => re.test(l));
    },
    what,
    timeoutMs,
  );
  return svc.lines().find((l) => re.test(l)) ?? '';
}

const count = (lines: string[], re: RegExp) => lines.filter((l) => re.test(l)).length;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the agent under the systemd watchdog', () => {
  it('READY=1 once taking punches, WATCHDOG=1 every half WATCHDOG_USEC, none while stopped, STOPPING=1 on SIGTERM', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const svc = startService(t.dir, { WATCHDOG_USEC: '400000' });

    const ready = await untilLine(svc, / READY=1 /, 'READY=1');
    expect(ready).toMatch(new RegExp(`^NOTIFY_SOCKET=${SOCKET} READY=1 STATUS=taking punches; 0 waiting`));
    expect(svc.lines()[0]).toBe(ready); // nothing before READY=1

    // Every 200 ms: 5 pings within a few seconds even on a busy machine.
    await waitFor(() => count(svc.lines(), /WATCHDOG=1/) >= 5, 'five WATCHDOG=1', 10_000);
    expect(svc.lines().every((l) => l.startsWith(`NOTIFY_SOCKET=${SOCKET} `))).toBe(true);

    // A frozen process (its event loop cannot run) pings no more: systemd would restart it.
    svc.child.kill('SIGSTOP');
    await sleep(300); // a systemd-notify spawned just before the stop may still write its line
    const frozen = count(svc.lines(), /WATCHDOG=1/);
    await sleep(1_500); // over three watchdog periods of 400 ms: no ping may come in it
    expect(count(svc.lines(), /WATCHDOG=1/)).toBe(frozen);
    svc.child.kill('SIGCONT');
    await waitFor(() => count(svc.lines(), /WATCHDOG=1/) >= frozen + 2, 'pings again after SIGCONT', 10_000);

    svc.child.kill('SIGTERM');
    await waitFor(() => svc.exited() !== null, 'the agent exits after SIGTERM', 20_000);
    expect(svc.exited()).toBe(0);
    const all = svc.lines();
    const stop = all.findIndex((l) => /STOPPING=1/.test(l));
    expect(stop).toBeGreaterThan(0);
    expect(all.slice(stop + 1).filter((l) => /WATCHDOG=1/.test(l))).toEqual([]);
  });

  it('is ready while the roster download still hangs: readiness never waits on the network', async () => {
    // An API that accepts connections and never answers (a captive portal, a dead proxy).
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => void sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    });
    const port = (server.address() as net.AddressInfo).port;
    const t = tempDir();
    cleanups.push(t.cleanup);
    const started = Date.now();
    const svc = startService(t.dir, {
      TIMECLOCK_API_URL: `http://127.0.0.1:${port}/v2.1`,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_API_TIMEOUT_MS: '60000',
      TIMECLOCK_LOG_LEVEL: 'error',
    });
    await untilLine(svc, / READY=1 /, 'READY=1 with the API hanging');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(sockets.size).toBeGreaterThan(0); // the roster request is out, unanswered
    expect(svc.lines()[0]).toMatch(/READY=1 STATUS=taking punches; 0 waiting; roster incomplete/);
  });

  it('without NOTIFY_SOCKET no systemd-notify is ever run', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const svc = startService(t.dir, { NOTIFY_SOCKET: '', WATCHDOG_USEC: '400000' });
    const fake = path.join(t.dir, 'notify.log');
    await waitFor(() => /running until stopped/.test(svc.stderr()), 'the agent running as a service', 20_000);
    await sleep(1_000); // five watchdog periods: no ping, no READY=1
    expect(fs.readFileSync(fake, 'utf8')).toBe('');
    svc.child.kill('SIGTERM');
    await waitFor(() => svc.exited() !== null, 'exit', 20_000);
  });
});

describe('the unit file', () => {
  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  const haveAnalyze = analyze.status === 0;

  it.skipIf(!haveAnalyze)('passes systemd-analyze verify with its ExecStart present, in a throw-away root', () => {
    // verify refuses an ExecStart binary that does not exist, and /usr/bin/timeclock is the
    // package's: --root (systemd 252 here) reads the unit, its executable and the units it
    // pulls in (sysinit.target, network-online.target…) under a root of our own instead.
    const t = tempDir();
    cleanups.push(t.cleanup);
    const root = t.dir;
    const sysUnits = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((d) =>
      fs.existsSync(path.join(d, 'sysinit.target')),
    );
    expect(sysUnits, 'the systemd package installs its units (sysinit.target)').toBeDefined();
    fs.cpSync(sysUnits as string, path.join(root, 'usr/lib/systemd/system'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    fs.mkdirSync(path.join(root, 'etc/systemd/system'), { recursive: true });
    fs.copyFileSync(UNIT, path.join(root, 'etc/systemd/system/timeclock-kiosk.service'));
    fs.mkdirSync(path.join(root, 'usr/bin'), { recursive: true });
    const stub = path.join(root, 'usr/bin/timeclock');
    fs.writeFileSync(stub, '#!/bin/sh\nexit 0\n', { mode: 0o755 });

    const verify = () =>
      spawnSync('systemd-analyze', ['verify', `--root=${root}`, 'timeclock-kiosk.service'], { encoding: 'utf8' });
    const ok = verify();
    // verify exits 0 even when it ignored a misspelt key or a bad value: a clean unit says nothing.
    expect({ status: ok.status, out: ok.stdout + ok.stderr }).toEqual({ status: 0, out: '' });

    // The check is real: without the executable, or with a bad setting, it speaks up.
    fs.rmSync(stub);
    const missing = verify();
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/\/usr\/bin\/timeclock is not executable/);
    fs.writeFileSync(stub, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const unitPath = path.join(root, 'etc/systemd/system/timeclock-kiosk.service');
    fs.writeFileSync(unitPath, fs.readFileSync(UNIT, 'utf8').replace(/^WatchdogSec=30$/m, 'WatchdogSec=thirty'));
    expect(verify().stderr).toMatch(/WatchdogSec|Failed to parse/);
  });

  it('asks for the notify protocol and the watchdog, and runs the packaged command', () => {
    const unit = fs.readFileSync(UNIT, 'utf8');
    for (const line of [
      'Type=notify',
      'NotifyAccess=all',
      'WatchdogSec=30',
      'ExecStart=/usr/bin/timeclock start --headless',
      'Restart=always',
    ]) {
      expect(unit).toMatch(new RegExp(`^${line}$`, 'm'));
    }
    expect(unit).not.toMatch(/^WorkingDirectory=/m);
    expect(unit).not.toMatch(/^Type=simple/m);
    if (haveAnalyze) {
      const out = execFileSync('systemd-analyze', ['security', '--offline=true', UNIT], {
        encoding: 'utf8',
        cwd: path.dirname(UNIT),
      });
      expect(out).toMatch(/✗ NotifyAccess=/); // the one point NotifyAccess=all costs, and why it is paid is in the unit
    }
  });
});
