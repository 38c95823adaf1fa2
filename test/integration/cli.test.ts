import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let mock: MockServer;
const dirs: Array<() => void> = [];
beforeAll(async () => {
  mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
});
afterAll(async () => {
  await mock.close();
  dirs.forEach((c) => c());
});
function data(): string {
  const t = tempDir();
  dirs.push(t.cleanup);
  return t.dir;
}
const apiEnv = (dataDir: string) => ({
  TIMECLOCK_API_URL: mock.url,
  TIMECLOCK_API_TOKEN: 'demo-token',
  TIMECLOCK_DATA_DIR: dataDir,
  TIMECLOCK_LOG_LEVEL: 'error',
});

describe('timeclock command line', () => {
  it('the demo (no configuration) registers a typed code and delivers it to the embedded mock', async () => {
    const dir = data();
    const res = await runCli(
      ['start', '--headless'],
      { TIMECLOCK_DATA_DIR: dir, TIMECLOCK_LOG_LEVEL: 'error' },
      '1001\n',
      30_000,
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^registered Ana Paula Ferreira da Silva \d\d:\d\d — NSR \d{9} — entry$/m);
    expect(res.stderr).toMatch(/demo mode: embedded mock API at http:\/\/127\.0\.0\.1:\d+\/v2\.1/);
    const status = await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: dir }, '');
    expect(JSON.parse(status.stdout)).toMatchObject({ queue: { sent: 1, pending: 0 }, roster: { size: 36 } });
  });

  it('--json prints one object per line with the fields scripts rely on', async () => {
    const res = await runCli(['start', '--headless', '--json'], apiEnv(data()), '1002\n9999\n', 30_000);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      ok: true,
      employee_external_id: '1002',
      local_date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      local_time: expect.stringMatching(/^\d\d:\d\d$/),
      message: expect.any(String),
    });
    expect(lines[1]).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
      message: expect.stringMatching(/not recognised/),
    });
  });

  it('refuses a 10,000-character code and control characters with a clear message, writing nothing', async () => {
    const dir = data();
    const input = 'x'.repeat(10_000) + '\n' + '10\u000703\n' + '\u001b[2J1003\n';
    const res = await runCli(['start', '--headless'], apiEnv(dir), input, 30_000);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^refused: .*too long/);
    expect(lines[1]).toMatch(/^refused: .*control characters/);
    expect(lines[2]).toMatch(/^refused: .*control characters/);
    const status = JSON.parse((await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: dir })).stdout) as {
      queue: Record<string, number>;
    };
    expect(Object.values(status.queue).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it.each([
    [{ TIMECLOCK_RATE_LIMIT: '0' }, /rateLimit\.limit \(from TIMECLOCK_RATE_LIMIT\)/],
    [{ TIMECLOCK_RATE_WINDOW_MS: 'soon' }, /rateLimit\.windowMs \(from TIMECLOCK_RATE_WINDOW_MS\)/],
    [{ TIMECLOCK_API_URL: 'http://127.0.0.1:9/v1' }, /api\.baseUrl \(from TIMECLOCK_API_URL\): must end with \/v2\.1/],
    [{ TIMECLOCK_SITE_ID: 'site-1' }, /siteId \(from TIMECLOCK_SITE_ID\): must be a 24-character hexadecimal id/],
    [{ TIMECLOCK_TIMEZONE: 'Mars/Olympus' }, /timezone \(from TIMECLOCK_TIMEZONE\): is not a known IANA time zone/],
  ])('an invalid setting %o exits 2 naming the key and the reason', async (env, message) => {
    const res = await runCli(['start', '--headless'], { TIMECLOCK_DATA_DIR: data(), ...env }, '');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/invalid configuration/);
    expect(res.stderr).toMatch(message);
  });

  it('a broken config file exits 2 and says what is wrong with it, never echoing the token', async () => {
    const dir = data();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ api: { baseUrl: mock.url, token: 'SECRET-TOKEN-123', timeout: 5 } }));
    const res = await runCli(['start', '--headless', '--config', file], { TIMECLOCK_DATA_DIR: dir }, '');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/api.*unknown key\(s\) timeout/);
    expect(res.stderr).not.toMatch(/SECRET-TOKEN-123/);
    fs.writeFileSync(file, '{ "api": ');
    const res2 = await runCli(['status', '--config', file], {}, '');
    expect(res2.code).toBe(2);
    expect(res2.stderr).toMatch(/not valid JSON/);
  });

  it('an unwritable data directory stops start-up with a clear error and a non-zero exit', async () => {
    const dir = data();
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'not a directory');
    const res = await runCli(['start', '--headless'], apiEnv(path.join(blocker, 'data')), '1001\n');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/data directory .* is not writable/);
    expect(res.stdout).not.toMatch(/registered/);
  });

  it('unknown commands and bad flags exit 2 with the usage', async () => {
    expect((await runCli(['frobnicate'], {})).code).toBe(2);
    const bad = await runCli(['flush', '--max-wait-ms', 'lots'], apiEnv(data()));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-wait-ms must be a whole number/);
  });

  it('flush sends what is waiting and exits 0; with the API down it exits 3 saying why', async () => {
    const dir = data();
    // Capture while the API is unreachable (port 9 on loopback: nothing listens).
    const roster = await runCli(['roster', 'sync'], apiEnv(dir));
    expect(roster.stdout).toMatch(/roster: 36 employees/);
    const down = {
      ...apiEnv(dir),
      TIMECLOCK_API_URL: 'http://127.0.0.1:9/v2.1',
      TIMECLOCK_RETRY_BASE_MS: '10',
      TIMECLOCK_RETRY_MAX_MS: '20',
    };
    const captured = await runCli(['start', '--headless'], down, '1004\n1005\n', 60_000);
    expect(captured.stdout.match(/^registered/gm)).toHaveLength(2);
    const blocked = await runCli(['flush'], down);
    expect(blocked.code).toBe(3);
    expect(blocked.stdout).toMatch(/unreachable.*ECONNREFUSED/);
    const ok = await runCli(['flush'], apiEnv(dir));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/queue empty \(sent 2,/);
  });
});
