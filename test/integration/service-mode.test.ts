/**
 * The terminal as a system service (issue 13, items 8 and 9): the unit file's hardening as
 * systemd scores it, a bad configuration not restarted in a loop, punches kept out of the journal
 * unless asked (names and times are personal data, LGPD), and the version everywhere a fleet
 * looks for it.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, lineMatching, runCli, screenUrl } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const UNIT = path.resolve('assets/timeclock-kiosk.service');
const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe('the headless systemd unit', () => {
  it('scores below 3.0 in systemd-analyze security and does not restart a bad configuration', () => {
    const out = execFileSync('systemd-analyze', ['security', '--offline=true', UNIT], {
      encoding: 'utf8',
      cwd: path.dirname(UNIT),
    });
    const level = Number(/Overall exposure level for timeclock-kiosk\.service: (\d+\.\d+)/.exec(out)?.[1]);
    expect(level).toBeLessThan(3.0);
    const unit = fs.readFileSync(UNIT, 'utf8');
    expect(unit).toMatch(/^RestartPreventExitStatus=2$/m);
    expect(unit).toMatch(/^DeviceAllow=char-hidraw rw$/m);
  });
});

describe('punches and the journal', () => {
  /** `timeclock start --headless` as systemd runs it: standard input on /dev/null, output captured. */
  async function asService(extra: string[]) {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      TZ: 'UTC',
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
    };
    const child = spawn(process.execPath, [CLI, 'start', '--headless', ...extra], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await lineMatching(child.stderr, /kiosk screen: http/);
    // The log line has the address without its token (issue 25); the operator's command has it whole.
    const url = await screenUrl(env);
    const res = await fetch(new URL('/api/punch', url.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kiosk-token': url.searchParams.get('t') ?? '' },
      body: JSON.stringify({ credential: { kind: 'id', value: '1001' } }),
    });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // any line would have been written by now
    return stdout;
  }

  it('under a service no punch is printed (the journal keeps no names); --print-punches prints them', async () => {
    expect(await asService([])).not.toMatch(/Ana Paula/);
    expect(await asService(['--print-punches'])).toMatch(/registered Ana Paula Ferreira da Silva \d\d:\d\d/);
  });
});

describe('the version', () => {
  it('timeclock --version, status and the first log line say it', async () => {
    const v = await runCli(['--version'], {});
    expect(v).toMatchObject({ code: 0, stdout: `timeclock-kiosk ${VERSION}\n` });
    const t = tempDir();
    cleanups.push(t.cleanup);
    const run = await runCli(['start', '--headless'], { TIMECLOCK_DATA_DIR: t.dir }, '');
    expect(run.stderr.split('\n').find((l) => l.startsWith('{'))).toMatch(
      new RegExp(`"msg":"timeclock-kiosk starting".*"version":"${VERSION.replace(/\./g, '\\.')}"`),
    );
    const status = JSON.parse((await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: t.dir })).stdout) as {
      version: string;
    };
    expect(status.version).toBe(VERSION);
    expect((await runCli(['status'], { TIMECLOCK_DATA_DIR: t.dir })).stdout).toMatch(
      new RegExp(`^version: +${VERSION.replace(/\./g, '\\.')}$`, 'm'),
    );
  });
});
