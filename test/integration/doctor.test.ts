/**
 * `timeclock doctor` end to end: the built CLI as a real process against the real mock API, on data
 * directories a real agent prepared. timedatectl and Chromium are stand-ins on PATH (see
 * test/helpers/doctor.ts) so the verdicts do not depend on the machine running the tests.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { lockOwner } from '../../src/store/upkeep/lock.js';
import { VERSION } from '../../src/version.js';
import { lineMatching, runCli, spawnCli } from '../helpers/cli.js';
import {
  byCheck,
  CHECKS,
  doctorEnv,
  fakeTools,
  parseLines,
  settled,
  snapshot,
  statuses,
  type Line,
} from '../helpers/doctor.js';
import { tempDir } from '../helpers/temp.js';

const seed = generatedSeed({ employees: 40, sites: 2 });
const SITE = seed.sites[0]?._id as string;
let mock: MockServer;
let tools: { bin: string; chromium: string };
let healthy: string;
const cleanups: Array<() => void> = [];

function dir(): string {
  const t = tempDir('timeclock-doctor-');
  cleanups.push(t.cleanup);
  return t.dir;
}

const env = (dataDir: string, extra: Record<string, string> = {}): Record<string, string> =>
  doctorEnv({ apiUrl: mock.url, siteId: SITE, dataDir, tools }, extra);

beforeAll(async () => {
  mock = await startMockServer({ seed, rateLimit: { limit: 600, windowMs: 1_000 } });
  tools = fakeTools(dir(), 'yes');
  healthy = dir();
  // A real agent fetches the roster (two sites: the site filter is verified); then the admin PIN.
  expect((await runCli(['roster', 'sync'], env(healthy))).stdout).toMatch(/roster: 20 employees/);
  expect((await runCli(['pin', 'set-admin'], env(healthy), '246810\n')).code).toBe(0);
});
afterAll(async () => {
  await mock.close();
  cleanups.forEach((c) => c());
});

async function doctor(
  e: Record<string, string>,
  ...flags: string[]
): Promise<{ code: number | null; lines: Line[]; stdout: string }> {
  const res = await runCli(['doctor', ...flags], e);
  expect(res.stderr).toBe('');
  return {
    code: res.code,
    lines: flags.includes('--json') ? (JSON.parse(res.stdout) as Line[]) : parseLines(res.stdout),
    stdout: res.stdout,
  };
}

describe('timeclock doctor on a healthy terminal', () => {
  it('exits 0 with every check ok, in the documented order, and writes nothing', async () => {
    const before = snapshot(healthy);
    const gets = mock.requests().length;
    const { code, lines } = await doctor(env(healthy));
    expect(statuses(lines)).toEqual(CHECKS.map((c) => [c, 'ok']));
    expect(code).toBe(0);
    const c = byCheck(lines);
    expect(c['service']?.detail).toMatch(
      new RegExp(`reachable, token accepted \\(GET /sites/${SITE}, the configured token: 200`),
    );
    expect(c['site']?.detail).toMatch(/Unidade 1 .* found; the service honours the site filter/);
    expect(c['roster']?.detail).toMatch(/^20 employees, last complete sync .* ago$/);
    expect(c['clock']?.detail).toMatch(/this machine is .* the service \(±\d\.\d s\)/);
    expect(c['time sync']?.detail).toMatch(/NTPSynchronized=yes/);
    expect(c['admin PIN']?.detail).toBe('set');
    expect(c['versions']?.detail).toBe(`timeclock-kiosk ${VERSION}, Node ${process.versions.node}`);
    expect(snapshot(healthy)).toEqual(before);
    // One request, and a read.
    expect(
      mock
        .requests()
        .slice(gets)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([`GET /v2.1/sites/${SITE}`]);
  });

  it('--json is an array of {check, status, detail} with the same checks and verdicts', async () => {
    const text = await doctor(env(healthy));
    const json = await doctor(env(healthy), '--json');
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    for (const l of json.lines) expect(Object.keys(l).sort()).toEqual(['check', 'detail', 'status']);
    expect(statuses(json.lines)).toEqual(statuses(text.lines));
  });

  it('works beside a running agent that holds the data directory, and changes nothing', async () => {
    const child = spawnCli(['start', '--headless'], env(healthy));
    try {
      await lineMatching(child.stderr, /ready: type or scan/, 20_000);
      expect(lockOwner(healthy)).toBe(child.pid);
      // The agent's own writes at start (its time anchor, the first contact) are over first.
      const before = await settled(healthy);
      const { code, lines } = await doctor(env(healthy));
      expect(statuses(lines)).toEqual(CHECKS.map((c) => [c, 'ok']));
      expect(code).toBe(0);
      expect(snapshot(healthy)).toEqual(before);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await new Promise((r) => child.once('close', r));
    }
  });
});

describe('timeclock doctor on the demo', () => {
  // The demo's verdicts, exactly: what it cannot have (an API to reach, a roster before its first
  // start, NTP here, Chromium) is a warning, never a failure.
  const DEMO_FRESH = [
    ['configuration', 'warn'],
    ['data directory', 'ok'],
    ['disk space', 'ok'],
    ['database', 'warn'],
    ['proxy', 'ok'],
    ['trust', 'ok'],
    ['service', 'warn'],
    ['site', 'ok'],
    ['roster', 'warn'],
    ['roster evidence', 'ok'],
    ['clock', 'ok'],
    ['time sync', 'warn'],
    ['readers', 'ok'],
    ['admin PIN', 'ok'],
    ['browser', 'warn'],
    ['versions', 'ok'],
    ['USB drives', 'ok'],
    ['time zone', 'ok'],
    ['NSR numbering', 'ok'],
    ['journal archives', 'ok'],
  ];

  it('passes (exit 0) on an empty data directory with no API, saying it is the demo', async () => {
    const empty = dir();
    const noTools = path.join(empty, 'no-bin'); // no timedatectl on PATH
    const { code, lines } = await doctor({
      TIMECLOCK_DATA_DIR: empty,
      PATH: noTools,
      TIMECLOCK_CHROMIUM: path.join(empty, 'no-chromium'),
    });
    expect(statuses(lines)).toEqual(DEMO_FRESH);
    expect(code).toBe(0);
    const c = byCheck(lines);
    expect(c['configuration']?.detail).toMatch(/^demo: no API configured/);
    expect(c['service']?.detail).toMatch(/embedded mock API runs only inside the terminal/);
    expect(c['time sync']?.detail).toMatch(/^unknown: timedatectl not found/);
    expect(c['browser']?.detail).toMatch(/not installed \(only needed for browser mode\)$/);
    expect(c['admin PIN']?.detail).toMatch(/demo's PIN 2468/);
  });

  it('passes with the default data directory not yet created', async () => {
    const home = dir();
    const { code, lines } = await doctor({
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'xdg'),
      PATH: tools.bin,
      TIMECLOCK_CHROMIUM: tools.chromium,
    });
    expect(code).toBe(0);
    expect(lines.filter((l) => l.status === 'fail')).toEqual([]);
    expect(byCheck(lines)['configuration']?.detail).toMatch(/^demo: no API configured/);
  });

  it('after the demo ran once: its roster is there, only the demo warnings remain', async () => {
    const demoDir = dir();
    const ran = await runCli(
      ['start', '--headless'],
      { TIMECLOCK_DATA_DIR: demoDir, TIMECLOCK_LOG_LEVEL: 'error' },
      '1001\n',
      30_000,
    );
    expect(ran.stdout).toMatch(/^registered /m);
    const { code, lines } = await doctor({
      TIMECLOCK_DATA_DIR: demoDir,
      PATH: tools.bin,
      TIMECLOCK_CHROMIUM: tools.chromium,
    });
    expect(code).toBe(0);
    // Issue 26: the demo's 1035 has no employer, listed before they punch.
    expect(lines.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual([
      'configuration',
      'service',
      'roster evidence',
    ]);
    expect(byCheck(lines)['roster']?.detail).toMatch(/^36 employees/);
    expect(byCheck(lines)['roster evidence']?.detail).toMatch(
      /1 without an employer of their own, so receipts and AFD name the configured employer \(none is configured: set employer.name and employer.cnpj\): Rosângela Prado Miranda/,
    );
  });
});
