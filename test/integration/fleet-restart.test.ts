/**
 * A terminal restarted beside busy ones (issue 24, item 6): nothing goes out before it has joined
 * the account's window in Redis (or chosen its own share because Redis is out of reach). Before,
 * it sent its share the moment it started, 30 ms before joining, into a window the others had
 * filled: 429s. Real agents, one mock API enforcing the account limit, a real redis-server.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { recordCounts } from '../helpers/agent.js';
import { closedPort } from '../helpers/doctor.js';
import {
  accountMock,
  ACCOUNT_LIMIT,
  freshDir,
  pause,
  punchBacklog,
  serviceView,
  startTerminal,
  WINDOW_MS,
  fleetOnRedis,
} from '../helpers/fleet.js';
import { waitFor } from '../helpers/temp.js';

const { rig, redis } = fleetOnRedis();

/** The slots a terminal took (each one request), from its database: when. */
function slotsTaken(dataDir: string, since: number): number[] {
  const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
  try {
    return (
      db.prepare('SELECT taken_at FROM rate_slots WHERE taken_at >= ? ORDER BY taken_at').all(since) as {
        taken_at: number;
      }[]
    ).map((r) => r.taken_at);
  } finally {
    db.close();
  }
}

describe('a terminal restarted beside busy ones', () => {
  it('sends nothing before it has joined the shared window: no 429, never above the limit', async () => {
    const mock = await accountMock(rig);
    // Each configured with the whole account limit: a terminal that sent at its share unseen would overrun the account.
    const busy = await Promise.all(
      ['A', 'B'].map((id) => startTerminal(rig, mock, { terminalId: id, share: ACCOUNT_LIMIT, redisUrl: redis.url })),
    );
    const dir = freshDir(rig);
    const first = await startTerminal(rig, mock, {
      terminalId: 'C',
      share: ACCOUNT_LIMIT,
      redisUrl: redis.url,
      dataDir: dir,
    });
    await waitFor(
      () => [...busy, first].every((a) => a.status().rate?.shared === 'redis'),
      'all in the shared window',
      5_000,
    );
    await pause(WINDOW_MS + 100); // past the window of caution after joining
    await Promise.all([punchBacklog(busy[0]!, 0, 40), punchBacklog(busy[1]!, 40, 40), punchBacklog(first, 80, 20)]);
    await waitFor(() => first.status().queue.sent >= 3, 'C delivering', 5_000);
    const sentBefore = first.status().queue.sent;
    await first.stop();
    // Its own slots age out of its local window while A and B keep the account's window full.
    await pause(WINDOW_MS + 200);

    const lines: { msg: string; at: number }[] = [];
    const log = createLogger({
      level: 'info',
      write: (l) => lines.push({ msg: (JSON.parse(l) as { msg: string }).msg, at: Date.now() }),
    });
    const restartedAt = Date.now();
    const again = await startTerminal(rig, mock, {
      terminalId: 'C',
      share: ACCOUNT_LIMIT,
      redisUrl: redis.url,
      dataDir: dir,
      log,
    });
    // Sent punches stay in its database: 20 when the rest of its backlog is out.
    await waitFor(
      () => again.status().queue.sent === 20 && busy.every((a) => a.status().queue.sent === 40),
      'every punch delivered',
      20_000,
    );

    const joinedAt = lines.find((l) => l.msg === 'rate window: sharing the account window in Redis')?.at;
    expect(joinedAt).toBeDefined();
    const taken = slotsTaken(dir, restartedAt);
    expect(taken.length).toBeGreaterThanOrEqual(20 - sentBefore - 2); // (a punch or two may have gone as it stopped)
    // Its first request went out once it had joined (the log line is written as it joins).
    expect(Math.min(...taken)).toBeGreaterThanOrEqual((joinedAt as number) - 5);
    const seen = serviceView(mock);
    expect(seen.refused).toBe(0);
    expect(seen.maxPerWindow).toBeLessThanOrEqual(ACCOUNT_LIMIT);
    expect([...recordCounts(mock.records()).values()].every((c) => c === 1)).toBe(true);
  });

  it('with Redis unreachable it chooses its own share at once and says why; nothing went out before', async () => {
    const mock = await accountMock(rig);
    const lines: { level: string; msg: string; reason?: string; at: number }[] = [];
    const log = createLogger({
      level: 'info',
      write: (l) =>
        lines.push({ ...(JSON.parse(l) as { level: string; msg: string; reason?: string }), at: Date.now() }),
    });
    const dir = freshDir(rig);
    const startedAt = Date.now();
    const t = await startTerminal(rig, mock, {
      terminalId: 'D',
      share: 4,
      redisUrl: `redis://127.0.0.1:${await closedPort()}`,
      dataDir: dir,
      log,
    });
    await punchBacklog(t, 0, 6);
    await waitFor(() => t.status().queue.sent === 6, 'delivered at its own share', 10_000);
    expect(t.status().rate).toMatchObject({ shared: 'fallback-local', reason: 'unreachable' });
    const chose = lines.find((l) => l.level === 'warn' && l.msg.startsWith('rate window: Redis out of reach'));
    expect(chose?.reason).toBe('unreachable');
    expect(Math.min(...slotsTaken(dir, startedAt))).toBeGreaterThanOrEqual((chose?.at as number) - 5);
    // Refused at once: no wait for the join's bound (2.5 s) before the first request.
    expect((chose?.at as number) - startedAt).toBeLessThan(2_000);
  });
});
