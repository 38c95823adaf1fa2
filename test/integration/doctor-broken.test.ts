/**
 * `timeclock doctor` on broken set-ups, end to end (built CLI, real mock API, data directories a
 * real agent prepared): each problem is named on its own line, and the exit code is 1 (2 for a
 * configuration that cannot be read).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { runCli } from '../helpers/cli.js';
import { byCheck, closedPort, doctorEnv, fakeTools, parseLines, type Line } from '../helpers/doctor.js';
import { tempDir } from '../helpers/temp.js';

const seed = generatedSeed({ employees: 40, sites: 2 });
const SITE = seed.sites[0]?._id as string;
let mock: MockServer;
let tools: { bin: string; chromium: string };
/** Roster synced, admin PIN set. */
let ready: string;
/** Roster synced, no admin PIN. */
let noPin: string;
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
  tools = fakeTools(dir(), 'no');
  ready = dir();
  noPin = dir();
  for (const d of [ready, noPin]) expect((await runCli(['roster', 'sync'], env(d))).code).toBe(0);
  expect((await runCli(['pin', 'set-admin'], env(ready), '246810\n')).code).toBe(0);
});
afterAll(async () => {
  await mock.close();
  cleanups.forEach((c) => c());
});

async function doctor(
  e: Record<string, string>,
  ...flags: string[]
): Promise<{ code: number | null; lines: Line[]; c: Record<string, Line> }> {
  const res = await runCli(['doctor', ...flags], e);
  const lines = flags.includes('--json') ? (JSON.parse(res.stdout) as Line[]) : parseLines(res.stdout);
  return { code: res.code, lines, c: byCheck(lines) };
}

/** The checks that failed, by name. */
const failures = (lines: Line[]): string[] => lines.filter((l) => l.status === 'fail').map((l) => l.check);

describe('timeclock doctor names each problem and exits 1', () => {
  it('a token the service refuses', async () => {
    const { code, lines, c } = await doctor(env(ready, { TIMECLOCK_API_TOKEN: 'not-the-token' }));
    expect(failures(lines)).toEqual(['service']);
    expect(c['service']?.detail).toMatch(/^token refused \(401 /);
    expect(c['site']).toMatchObject({ status: 'warn', detail: expect.stringMatching(/not checked/) });
    expect(code).toBe(1);
  });

  it('a site the service does not have', async () => {
    const { code, lines, c } = await doctor(env(ready, { TIMECLOCK_SITE_ID: 'ffffffffffffffffffffffff' }));
    expect(failures(lines)).toEqual(['site']);
    expect(c['service']?.status).toBe('ok'); // a 404 on the site still says the token was accepted
    expect(c['site']?.detail).toMatch(/^the service has no site ffffffffffffffffffffffff/);
    expect(code).toBe(1);
  });

  it('an API nobody answers on (a closed port)', async () => {
    const port = await closedPort();
    const { code, lines, c } = await doctor(env(ready, { TIMECLOCK_API_URL: `http://127.0.0.1:${port}/v2.1` }));
    expect(failures(lines)).toEqual(['service']);
    expect(c['service']?.detail).toMatch(/^unreachable \(ECONNREFUSED/);
    expect(c['clock']).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^not measured/) });
    expect(code).toBe(1);
  });

  it('no admin PIN', async () => {
    const { code, lines, c } = await doctor(env(noPin));
    expect(failures(lines)).toEqual(['admin PIN']);
    expect(c['admin PIN']?.detail).toMatch(/timeclock pin set-admin/);
    expect(code).toBe(1);
  });

  it('a data directory that is a file', async () => {
    const file = path.join(dir(), 'not-a-dir');
    fs.writeFileSync(file, 'x');
    const { code, lines, c } = await doctor(env(file));
    expect(failures(lines)).toEqual(['data directory', 'roster', 'admin PIN']);
    expect(c['data directory']?.detail).toMatch(/is a file, not a directory/);
    expect(c['database']).toMatchObject({ status: 'warn', detail: expect.stringMatching(/not checked/) });
    expect(code).toBe(1);
  });

  it.skipIf(process.getuid?.() === 0)(
    'a data directory this user cannot write (as root every directory is writable: see the unit test)',
    async () => {
      const d = dir();
      fs.cpSync(ready, d, { recursive: true });
      fs.chmodSync(d, 0o500);
      try {
        const { code, c } = await doctor(env(d));
        expect(c['data directory']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/not writable/) });
        expect(code).toBe(1);
      } finally {
        fs.chmodSync(d, 0o700);
      }
    },
  );

  it('a damaged database file', async () => {
    const d = dir();
    fs.writeFileSync(path.join(d, 'timeclock.sqlite'), Buffer.alloc(64 * 1024, 'garbage! '));
    const { code, lines, c } = await doctor(env(d), '--json');
    expect(failures(lines)).toEqual(['database', 'roster', 'admin PIN']);
    expect(c['database']?.detail).toMatch(/is damaged|failed its integrity check/);
    expect(code).toBe(1);
  });

  it('a configured badge reader that is not attached; node-hid that cannot load', async () => {
    const d = dir();
    const config = path.join(d, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ readers: [{ name: 'entrance', match: { vendorId: '0xffff', productId: '0x0035' } }] }),
    );
    const absent = await doctor(env(ready), '--config', config);
    expect(failures(absent.lines)).toEqual(['reader entrance']);
    expect(absent.c['reader entrance']?.detail).toMatch(/^not attached \(ffff:0035\)/);
    // An empty libusb-1.0.so.0 ahead of the system's: node-hid's binding truly fails to load.
    const lib = dir();
    fs.writeFileSync(path.join(lib, 'libusb-1.0.so.0'), '');
    const broken = await doctor(env(ready, { LD_LIBRARY_PATH: lib }), '--config', config);
    expect(broken.c['reader entrance']).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^cannot use USB HID readers: libusb-1\.0\.so\.0 cannot be loaded/),
    });
    expect(broken.code).toBe(1);
  });

  it('warnings alone exit 0: NTP not synchronised, a clock 10 minutes off the service', async () => {
    const skewed = await startMockServer({ seed, clock: { now: () => Date.now() + 10 * 60_000 } });
    try {
      const { code, lines, c } = await doctor(env(ready, { TIMECLOCK_API_URL: skewed.url }));
      expect(lines.filter((l) => l.status !== 'ok').map((l) => l.check)).toEqual(['clock', 'time sync']);
      expect(c['clock']?.detail).toMatch(
        /^this machine is 10\.0 min behind the service .* more than clockSkewThresholdMs/,
      );
      expect(c['time sync']?.detail).toMatch(/^not synchronised/);
      expect(code).toBe(0);
    } finally {
      await skewed.close();
    }
  });

  it('a configuration that cannot be read: one fail line, exit 2', async () => {
    const { code, lines } = await doctor(env(ready, { TIMECLOCK_SITE_ID: 'site-1' }), '--json');
    expect(lines).toEqual([
      {
        check: 'configuration',
        status: 'fail',
        detail: expect.stringMatching(/siteId \(from TIMECLOCK_SITE_ID\): must be a 24-character/),
      },
    ]);
    expect(code).toBe(2);
    expect((await runCli(['doctor', 'extra'], env(ready))).code).toBe(2);
  });
});
