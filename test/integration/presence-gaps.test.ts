/**
 * Where a terminal's picture of who is inside could go wrong (issue 30), with real agents, a real
 * mock API and a real redis-server: a terminal further behind than the stream keeps (a tiny
 * `streamMaxLen`) finds the gap, says so and re-reads the service's day of the people concerned;
 * without Redis, an exit at a gate that never saw the entry is corrected as soon as the service's
 * day of that person is read (at once, at the lowest priority), not at the next fallback round.
 */
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { accountMock, freshDir, startTerminal, type FleetRig } from '../helpers/fleet.js';
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

const badge = (i: number): string => String(100000 + i);
const inside = (a: Agent): string[] =>
  a.presence
    .board()
    .onSite.map((p) => p.employee_external_id ?? '?')
    .sort();

async function punch(agent: Agent, i: number): Promise<void> {
  const r = await agent.punch({ kind: 'badge', value: badge(i) });
  if (!r.ok || r.repeat) throw new Error(`punch ${i} not taken: ${JSON.stringify(r)}`);
}

describe("a terminal further behind than the site's stream keeps", () => {
  it("says there is a gap and re-reads the service's day of the people it heard of longest ago: the exits it missed count", async () => {
    // Ten entries kept (MAXLEN ~ 10), trimmed five at a time (the nodes' size): the stream is tiny and trims early.
    const raw = new Redis(redis.url);
    await raw.config('SET', 'stream-node-max-entries', '5');
    raw.disconnect();
    const mock = await accountMock(rig);
    const cDir = freshDir(rig);
    const settings = (gate: string) => ({
      // A tiny stream also trims what A had not read yet (its own burst): its re-reads stay few (fallbackPeople), so
      // the lowest priority's requests left for C are not spent elsewhere.
      presence: { pollMs: 50, fallbackEveryMs: 3_600_000, fallbackPeople: 3, streamMaxLen: 10, gate },
    });
    const start = (id: string, dataDir?: string) =>
      startTerminal(rig, mock, {
        terminalId: id,
        share: 3,
        redisUrl: redis.url,
        settings: settings(`portão ${id}`),
        ...(dataDir ? { dataDir } : {}),
      });
    const a = await start('A');
    const b = await start('B');
    let c = await start('C', cDir);
    const live = (ts: Agent[]) => () => ts.every((t) => t.presence.board().sources.stream.state === 'live');
    await waitFor(live([a, b, c]), 'all three read the stream', 5_000);
    for (let i = 0; i < 3; i++) await punch(a, i);
    await waitFor(() => inside(c).length === 3 && inside(b).length === 3, 'three inside at B and C', 5_000);

    // C is off while the three leave through B and twenty more come in through A: the exits are trimmed away.
    await c.stop();
    for (let i = 0; i < 3; i++) await punch(b, i);
    await waitFor(() => inside(a).length === 0, "the exits on A's board", 5_000);
    // B's part is done: delivered, and off.
    await b.flush({ maxWaitMs: 20_000 });
    await b.stop();
    for (let i = 10; i < 30; i++) await punch(a, i);
    await waitFor(() => a.presence.board().sources.unpublished.count === 0, "A's entries published", 5_000);
    await a.flush({ maxWaitMs: 20_000 });
    expect(mock.records().length).toBe(26);

    c = await start('C', cDir);
    await waitFor(() => c.presence.board().sources.stream.gap != null, 'C says there is a gap', 5_000);
    const gap = c.presence.board().sources.stream.gap;
    expect(gap?.note).toBe("stream gap: re-read the service's day");
    expect(gap?.people).toBeGreaterThanOrEqual(3);
    // The service's day of the three C knew of (heard of longest ago: a trim takes the oldest entries), read
    // before any self-service prefetch of the fleet: in and out.
    await waitFor(
      () => [0, 1, 2].every((i) => !inside(c).includes(badge(i))),
      "the exits C missed, from the service's records",
      15_000,
    );
    expect(inside(c).length).toBeGreaterThan(0);
    expect(inside(c).every((x) => Number(x) >= 100010)).toBe(true);
    expect(c.presence.board().sources.service.people).toBeGreaterThanOrEqual(3);
  });
});

describe('without Redis', () => {
  it("an exit at a gate that never saw the entry is corrected as soon as that person's day is read, not at the next fallback round", async () => {
    const mock = await accountMock(rig);
    const start = (id: string) =>
      startTerminal(rig, mock, {
        terminalId: id,
        share: 3,
        // The fallback round would come in an hour: only the read made for the punch can correct it.
        // Several terminals without Redis: the site asks for the read at a punch (presence.readAtPunch).
        settings: { presence: { pollMs: 50, fallbackEveryMs: 3_600_000, gate: `portão ${id}`, readAtPunch: true } },
      });
    const a = await start('A');
    const b = await start('B');
    await punch(b, 50);
    await punch(b, 51);
    await b.flush({ maxWaitMs: 10_000 });
    expect(inside(b)).toEqual([badge(50), badge(51)]);

    // 50 leaves through A, which never saw them come in.
    await punch(a, 50);
    await waitFor(
      () => a.presence.board().sources.service.at !== null && inside(a).length === 0,
      "A's board corrected from the service's day of 50",
      10_000,
    );
    await a.flush({ maxWaitMs: 10_000 });
    expect(a.presence.board().sources.stream.state).toBe('off');
  });
});
