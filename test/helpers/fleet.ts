import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { Clock } from '../../src/domain/time/clock.js';
import type { Logger } from '../../src/log.js';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { startMockServer, type MockServer, type RequestLogEntry } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from './agent.js';
import { startRedis, type RedisProcess } from './redis-server.js';
import { tempDir } from './temp.js';

/**
 * Terminals of one account (one token, one mock) for the shared rate window's tests. The window is
 * Redis time, so these run on the real clock: one second windows, ten requests each.
 */
export const WINDOW_MS = 1_000;
export const ACCOUNT_LIMIT = 10;

export type FleetRig = { cleanups: (() => Promise<void> | void)[] };

export type TerminalOptions = {
  /** Absent: the random id kept in its data directory. */
  terminalId?: string;
  /** rateLimit.limit: this terminal's own share, used alone or while Redis is out of reach. */
  share: number;
  redisUrl?: string;
  clock?: Clock;
  /** The host it says it runs on (default the machine's). */
  host?: string;
  /** rateLimit.announceEveryMs: how often it renews its entry in the fleet's registry. */
  announceEveryMs?: number;
  log?: Logger;
  /** An existing data directory (a restart); default a fresh one. */
  dataDir?: string;
  /** Its rate window (default WINDOW_MS, the mock's). */
  windowMs?: number;
  /** Further settings (e.g. presence), merged over the fleet's. */
  settings?: Record<string, unknown>;
};

/** A started terminal (its roster fetched), stopped by the rig's cleanups. */
export async function startTerminal(rig: FleetRig, mock: MockServer, o: TerminalOptions): Promise<Agent> {
  const dir = o.dataDir ?? freshDir(rig);
  const rateLimit = {
    limit: o.share,
    windowMs: o.windowMs ?? WINDOW_MS,
    accountLimit: ACCOUNT_LIMIT,
    ...(o.redisUrl ? { redisUrl: o.redisUrl } : {}),
    ...(o.announceEveryMs ? { announceEveryMs: o.announceEveryMs } : {}),
  };
  const agent = testAgent({
    dataDir: dir,
    mock,
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.host ? { host: o.host } : {}),
    ...(o.log ? { log: o.log } : {}),
    settings: { ...(o.terminalId ? { terminalId: o.terminalId } : {}), rateLimit, ...o.settings },
  });
  rig.cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return agent;
}

/** A fresh data directory, removed by the rig's cleanups. */
/** The account's service: a mock at ACCOUNT_LIMIT per WINDOW_MS with 100 employees at one site, closed with the rig. */
export async function accountMock(rig: FleetRig): Promise<MockServer> {
  const mock = await startMockServer({
    seed: generatedSeed({ employees: 100, sites: 1 }),
    rateLimit: { limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS },
  });
  rig.cleanups.push(() => mock.close());
  return mock;
}

export function freshDir(rig: FleetRig): string {
  const { dir, cleanup } = tempDir('timeclock-fleet-');
  rig.cleanups.push(cleanup);
  return dir;
}

/** Employees `from`..`from + n - 1` of the generated seed punch on `agent` (badge = external id). */
export async function punchBacklog(agent: Agent, from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i++) {
    const r = await agent.punch({ kind: 'badge', value: String(100000 + i) });
    if (!r.ok) throw new Error(`punch ${i} refused: ${JSON.stringify(r)}`);
  }
}

/** API requests the mock saw (control routes are not logged), from `since` on. */
export function apiRequests(mock: MockServer, since = 0): RequestLogEntry[] {
  return mock.requests().filter((r) => r.at >= since);
}

/** What the service would see: 429s, and the most requests it counted in any one window. */
export function serviceView(mock: MockServer, since = 0): { refused: number; maxPerWindow: number; total: number } {
  const reqs = apiRequests(mock, since);
  return {
    refused: reqs.filter((r) => r.status === 429).length,
    maxPerWindow: maxInAnyWindow(
      reqs.filter((r) => r.counted).map((r) => r.at),
      WINDOW_MS,
    ),
    total: reqs.length,
  };
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A test file's fleet on a real redis-server: Redis started before its tests and stopped after them,
 * the rig's terminals and mocks stopped after each test. `raw()` is a plain client on the same Redis
 * for tests that look inside it; with `flush`, Redis is emptied after each test.
 */
export function fleetOnRedis(o: { flush?: boolean } = {}): {
  rig: FleetRig;
  redis: { readonly url: string };
  raw: () => Redis;
} {
  const rig: FleetRig = { cleanups: [] };
  let server: RedisProcess | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });
  afterEach(async () => {
    while (rig.cleanups.length) await rig.cleanups.pop()?.();
    if (o.flush) await raw().flushall();
  });
  const started = (): RedisProcess => {
    if (!server) throw new Error('Redis is started in beforeAll: use it inside a test');
    return server;
  };
  const raw = (): Redis => (client ??= new Redis(started().url));
  return {
    rig,
    redis: {
      get url() {
        return started().url;
      },
    },
    raw,
  };
}
