/**
 * Terminals' views of one shared window on a real redis-server (started once per test file on
 * loopback), for the tests of the take script's rules: each `terminal()` is connected before it is
 * handed out and closed after each test.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { RedisSharedWindow, type RedisWindowOptions } from '../../src/sync/window/redis-window.js';
import { startRedis, type RedisProcess } from './redis-server.js';
import { waitFor } from './temp.js';

export function redisTerminals(defaults: Omit<Partial<RedisWindowOptions>, 'url' | 'key' | 'terminalId'>): {
  terminal(terminalId: string, o: Partial<RedisWindowOptions> & { key: string }): Promise<RedisSharedWindow>;
  freshKey(prefix: string): string;
} {
  let redis: RedisProcess;
  const windows: RedisSharedWindow[] = [];
  let keyNo = 0;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(windows.splice(0).map((w) => w.close()));
  });
  afterAll(async () => {
    await redis.stop();
  });
  return {
    async terminal(terminalId, o) {
      const w = new RedisSharedWindow({
        url: redis.url,
        terminalId,
        limit: 3,
        inFlightMs: 300,
        holdMs: 400,
        ...defaults,
        ...o,
      });
      windows.push(w);
      await waitFor(() => w.reachable, `${terminalId} connected`, 5_000);
      return w;
    },
    freshKey: (prefix) => `${prefix}:${process.pid}:${++keyNo}`,
  };
}
