/**
 * Every fault of the fleet's Redis in sight (issue 24, item 7): status (the agent's, and
 * `timeclock status` from another process, text and JSON), /healthz and `timeclock doctor` say
 * whether the terminal shares the account's window and, when it is on its own share, why: a wrong
 * password (a real redis-server with requirepass), Redis unreachable, answers the scripts never
 * give (a RESP fake), another live terminal under the same id. Before, a wrong password showed
 * "last error: none" and doctor had no Redis line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMetricsServer } from '../../src/agent/metrics/metrics-server.js';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import { statusText } from '../../src/cli/status/format.js';
import { accountUrl } from '../../src/sync/window/rate-key.js';
import { silentLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { byCheck, closedPort, doctorEnv, fakeTools, parseLines, type Line } from '../helpers/doctor.js';
import { httpGet, parseProm, sample } from '../helpers/prom-text.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { startRespFake } from '../helpers/resp-fake.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const PASSWORD = 's3cret-pw';
let redis: RedisProcess;
let mock: MockServer;
let tools: { bin: string; chromium: string };
const cleanups: (() => Promise<void> | void)[] = [];
const urlWith = (password: string) => `redis://:${password}@127.0.0.1:${redis.port}`;

function dir(): string {
  const t = tempDir('timeclock-visible-');
  cleanups.push(t.cleanup);
  return t.dir;
}

beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  mock = await startMockServer({ rateLimit: { limit: 600, windowMs: 1_000 } });
  const t = tempDir('timeclock-visible-tools-');
  tools = fakeTools(t.dir, 'yes');
  return () => t.cleanup();
});
afterAll(async () => {
  await mock.close();
  await redis.stop();
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function terminal(
  redisUrl: string,
  o: { terminalId?: string; host?: string; dataDir?: string } = {},
): Promise<{ agent: Agent; dataDir: string }> {
  const dataDir = o.dataDir ?? dir();
  const agent = testAgent({
    dataDir,
    mock,
    siteId: DEMO_SITE_ID,
    ...(o.host ? { host: o.host } : {}),
    settings: {
      ...(o.terminalId ? { terminalId: o.terminalId } : {}),
      rateLimit: { limit: 30, windowMs: 1_000, accountLimit: 60, redisUrl, announceEveryMs: 200 },
    },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return { agent, dataDir };
}

async function doctor(
  dataDir: string,
  redisUrl: string,
  extra: Record<string, string> = {},
): Promise<{ code: number | null; lines: Record<string, Line>; stdout: string }> {
  const res = await runCli(
    ['doctor'],
    doctorEnv(
      { apiUrl: mock.url, siteId: DEMO_SITE_ID, dataDir, tools },
      { TIMECLOCK_RATE_REDIS_URL: redisUrl, ...extra },
    ),
  );
  expect(res.stderr).toBe('');
  return { code: res.code, lines: byCheck(parseLines(res.stdout)), stdout: res.stdout };
}

const FALLBACK_AUTH =
  /^shared window: LOCAL FALLBACK: Redis refused the password \(WRONGPASS [^)]*\); this terminal sends at its own share \(rateLimit\.limit\) — check the password in rateLimit\.redisUrl/m;

describe('a wrong Redis password', () => {
  it('status, `timeclock status`, /healthz, metrics and doctor all say the terminal is on its own share because the password was refused', async () => {
    const { agent, dataDir } = await terminal(urlWith('wrong'));
    await waitFor(() => agent.status().rate?.shared === 'fallback-local', 'on its own share', 5_000);
    const s = agent.status();
    expect(s.rate).toMatchObject({
      shared: 'fallback-local',
      reason: 'auth',
      redisError: { message: expect.stringMatching(/^WRONGPASS/) },
    });
    expect(statusText(s)).toMatch(FALLBACK_AUTH);

    // From another process, beside the running agent.
    const text = await runCli(['status'], { TIMECLOCK_DATA_DIR: dataDir });
    expect(text.stdout).toMatch(FALLBACK_AUTH);
    expect(text.stdout).toMatch(/^terminal: +tc-[a-z2-7]{8} on host \S+$/m);
    const json = JSON.parse((await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: dataDir })).stdout) as {
      rate: { shared: string; reason: string };
    };
    expect(json.rate).toMatchObject({ shared: 'fallback-local', reason: 'auth' });

    const server = await startMetricsServer({ listen: '127.0.0.1:0', agent, log: silentLogger, processMetrics: false });
    cleanups.push(() => server?.close());
    const health = await httpGet(`${server?.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(health.text).toMatch(/^ok\nshared window: LOCAL FALLBACK: Redis refused the password \(WRONGPASS [^\n]*\n$/);
    expect(
      sample(parseProm(await agentMetrics(agent, { processMetrics: false }).scrape()), 'timeclock_rate_shared', {
        mode: 'fallback-local',
      }),
    ).toBe(1);

    const d = await doctor(dataDir, urlWith('wrong'));
    expect(d.code).toBe(1);
    expect(d.lines.redis?.status).toBe('fail');
    expect(d.lines.redis?.detail).toMatch(
      new RegExp(
        `^redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port} refused the password \\(WRONGPASS [^)]*\\): each terminal goes on at its own share`,
      ),
    );
    expect(d.stdout).not.toContain('wrong@');
  });

  it('the right password: shared, and doctor says Redis and the terminal id are fine', async () => {
    const { agent, dataDir } = await terminal(urlWith(PASSWORD));
    await waitFor(() => agent.status().rate?.shared === 'redis', 'sharing the window', 5_000);
    expect(statusText(agent.status())).toMatch(
      /^shared window: shared with the account's terminals in Redis \(since \d+s ago\)$/m,
    );
    const d = await doctor(dataDir, urlWith(PASSWORD));
    expect(d.lines.redis).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: connected, PING \d+ ms, the shared window's script answers right/,
      ),
    });
    // Its own running agent under the same id is no conflict.
    expect(d.lines['terminal id']).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^tc-[a-z2-7]{8} on host \S+: no other live terminal uses it$/),
    });
  });

  it("status and doctor name the window's key and the service address it comes from, one key however the address is spelled", async () => {
    const { agent, dataDir } = await terminal(urlWith(PASSWORD));
    await waitFor(() => agent.status().rate?.shared === 'redis', 'sharing the window', 5_000);
    const key = agent.status().fleet?.windowKey?.key as string;
    expect(key).toMatch(/^timeclock:rate:[0-9a-f]{16}$/);
    const from = `${accountUrl(mock.url)} and the API token`;
    expect(statusText(agent.status())).toContain(`window key:    ${key} (from ${from})`);
    // Another spelling of the same service (trailing slashes): the same window.
    const spelled = `${mock.url.replace(/\/+$/, '')}//`;
    const d = await doctor(dataDir, urlWith(PASSWORD), { TIMECLOCK_API_URL: spelled });
    expect(d.lines.redis?.detail).toContain(`; window key ${key} (from ${from})`);
    expect(d.stdout).not.toContain(PASSWORD);
  });
});

describe('doctor names the problem', () => {
  it('unreachable', async () => {
    const d = await doctor(dir(), `redis://127.0.0.1:${await closedPort()}`);
    expect(d.lines.redis).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        / unreachable \(.*ECONNREFUSED.*\): each terminal goes on at its own share .*check the host and port/,
      ),
    });
  });

  it('a "Redis" that answers what the scripts never return', async () => {
    const fake = await startRespFake((cmd) =>
      cmd === 'eval' || cmd === 'evalsha' ? { arr: [{ int: 0 }, { int: -1 }] } : undefined,
    );
    cleanups.push(() => fake.close());
    const d = await doctor(dir(), fake.url);
    expect(d.lines.redis).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        / answers what the shared window's scripts never return .*\(Redis answered \[0, -1\] to the take script\)/,
      ),
    });
  });

  it("another live terminal under this terminal's id", async () => {
    const { agent } = await terminal(urlWith(PASSWORD), { terminalId: 'porta-1', host: 'outra-caixa' });
    await waitFor(() => agent.status().rate?.shared === 'redis', 'the other terminal sharing', 5_000);
    const d = await doctor(dir(), urlWith(PASSWORD), { TIMECLOCK_TERMINAL_ID: 'porta-1' });
    expect(d.lines['terminal id']).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        new RegExp(
          `^porta-1 on host \\S+ is also used by host outra-caixa \\(instance ${agent.status().fleet?.instanceId}, pid \\d+, started .+\\): give each terminal its own id`,
        ),
      ),
    });
  });
});
