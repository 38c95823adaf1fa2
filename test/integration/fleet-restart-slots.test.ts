/**
 * A restarted terminal's earlier slots (issue 24): they were real requests, so they keep counting
 * in the account's window, once. The new process puts the slots of its database back into Redis
 * under the names the earlier one gave them, not as members of its own. Real agents, the mock API,
 * a real redis-server.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { accountMock, ACCOUNT_LIMIT, freshDir, punchBacklog, startTerminal, fleetOnRedis } from '../helpers/fleet.js';
import { waitFor } from '../helpers/temp.js';

const { rig, redis, raw } = fleetOnRedis();

/** The account window's members as [process name, local slot id]. */
async function members(agent: Agent): Promise<[string, number][]> {
  const key = agent.status().fleet?.windowKey?.key;
  if (!key) throw new Error('no window key in status');
  return (await raw().zrange(key, '0', '-1')).map((m) => {
    const cut = m.lastIndexOf(':');
    return [m.slice(0, cut), Number(m.slice(cut + 1))];
  });
}

describe('a terminal restarted within a window of its last requests', () => {
  it('its earlier slots count once in the shared window: none is added again under the new process', async () => {
    const mock = await accountMock(rig);
    const dir = freshDir(rig);
    // A long window, so the earlier slots still count when the restarted terminal joins.
    const o = { terminalId: 'C', share: ACCOUNT_LIMIT, redisUrl: redis.url, dataDir: dir, windowMs: 60_000 };
    const first = await startTerminal(rig, mock, o);
    await waitFor(() => first.status().rate?.shared === 'redis', 'in the shared window', 5_000);
    await punchBacklog(first, 0, 5);
    await waitFor(() => first.status().queue.sent === 5, 'its punches delivered', 10_000);
    const firstInstance = first.status().fleet?.instanceId;
    const before = await members(first);
    expect(before.filter(([p]) => p === `C:${firstInstance}`).length).toBeGreaterThanOrEqual(5);
    await first.stop();

    const again = await startTerminal(rig, mock, o);
    await waitFor(
      () => again.status().rate?.shared === 'redis',
      'the restarted terminal in the shared window (its slots restored)',
      5_000,
    );
    await punchBacklog(again, 5, 2);
    await waitFor(() => again.status().queue.sent === 7, 'its new punches delivered', 10_000);
    const after = await members(again);
    // Every earlier slot is still there, under its first name; no local slot id under two names.
    for (const m of before) expect(after).toContainEqual(m);
    const ids = after.map(([, id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
    // The new process's own members are the slots it took itself.
    const mine = after.filter(([p]) => p === `C:${again.status().fleet?.instanceId}`);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...mine.map(([, id]) => id))).toBeGreaterThan(Math.max(...before.map(([, id]) => id)));
  });
});
