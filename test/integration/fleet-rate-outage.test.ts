/**
 * The fleet's shared window when Redis goes away and comes back, and with a terminal whose clock is
 * wrong: real agents, one mock API enforcing the account limit, a real redis-server that the test
 * kills and starts again on the same port. Real clock (the window is Redis time).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { recordCounts } from '../helpers/agent.js';
import {
  accountMock,
  ACCOUNT_LIMIT,
  apiRequests,
  pause,
  punchBacklog,
  serviceView,
  startTerminal,
  WINDOW_MS,
  type FleetRig,
} from '../helpers/fleet.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/temp.js';

let redis: RedisProcess;
const rig: FleetRig = { cleanups: [] };

beforeEach(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  while (rig.cleanups.length) await rig.cleanups.pop()?.();
  await redis.stop();
});

const sent = (agents: Agent[]) => agents.reduce((n, a) => n + a.status().queue.sent, 0);
const sharing = (agents: Agent[], mode: 'redis' | 'fallback-local') => () =>
  agents.every((a) => a.status().rate?.shared === mode);

describe('Redis killed mid-drain', () => {
  it('each terminal goes on at its own share and says so; Redis back on the same port: they rejoin without a burst', async () => {
    const mock = await accountMock(rig);
    const share = ACCOUNT_LIMIT / 2;
    const agents = [
      await startTerminal(rig, mock, { terminalId: 'A', share, redisUrl: redis.url }),
      await startTerminal(rig, mock, { terminalId: 'B', share, redisUrl: redis.url }),
    ];
    await waitFor(sharing(agents, 'redis'), 'both in the shared window', 5_000);
    await Promise.all(agents.map((a, i) => punchBacklog(a, i * 25, 25)));
    await waitFor(() => sent(agents) >= ACCOUNT_LIMIT, 'a window of punches out', 5_000);

    const killedAt = Date.now();
    await redis.kill();
    await waitFor(sharing(agents, 'fallback-local'), 'both on their own share', 5_000);
    for (const a of agents) expect(a.status().rate?.redisError?.at).toBeGreaterThanOrEqual(killedAt);
    const sentAtKill = agents.map((a) => a.status().queue.sent);
    await pause(1_500);
    // Delivery went on without Redis, every terminal at its share.
    agents.forEach((a, i) => expect(a.status().queue.sent).toBeGreaterThan(sentAtKill[i] as number));

    await redis.restart();
    const restartedAt = Date.now();
    await waitFor(sharing(agents, 'redis'), 'both back in the shared window', 5_000);
    await waitFor(() => sent(agents) === 50, 'every punch delivered', 15_000);

    const seen = serviceView(mock);
    expect(seen.refused).toBe(0);
    expect(seen.maxPerWindow).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    // Around the outage and the rejoin in particular (the window that straddles the restart).
    const around = apiRequests(mock, killedAt - WINDOW_MS).filter((r) => r.at <= restartedAt + 2 * WINDOW_MS);
    expect(
      maxInAnyWindow(
        around.map((r) => r.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    expect([...recordCounts(mock.records()).values()].every((c) => c === 1)).toBe(true);
  });
});

describe('a terminal whose clock is an hour off', () => {
  it('still shares the one window correctly: the window runs on Redis time', async () => {
    const mock = await accountMock(rig);
    const hourAhead = { now: () => Date.now() + 3_600_000 };
    const agents = [
      await startTerminal(rig, mock, {
        terminalId: 'wrong-clock',
        share: ACCOUNT_LIMIT,
        redisUrl: redis.url,
        clock: hourAhead,
      }),
      await startTerminal(rig, mock, { terminalId: 'right-clock', share: ACCOUNT_LIMIT, redisUrl: redis.url }),
    ];
    await waitFor(sharing(agents, 'redis'), 'both in the shared window', 5_000);
    await pause(WINDOW_MS + 100); // past the window of caution after joining
    await Promise.all(agents.map((a, i) => punchBacklog(a, i * 18, 18)));
    await waitFor(() => sent(agents) === 36, 'every punch delivered', 15_000);
    const seen = serviceView(mock);
    expect(seen.refused).toBe(0);
    expect(seen.maxPerWindow).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    // And neither terminal was shut out by the other's idea of the time.
    const posts = apiRequests(mock)
      .filter((r) => r.method === 'POST')
      .map((r) => r.at);
    expect(Math.max(...posts) - Math.min(...posts)).toBeLessThan((36 / ACCOUNT_LIMIT + 2) * WINDOW_MS);
  });
});
