/**
 * The shared window's Lua scripts (src/sync/window/redis-window-scripts.ts) against a real redis-server:
 * what they answer and what they leave in Redis. Scores are Redis time, so these tests run on the
 * real clock, with windows of a few hundred ms.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Priority } from '../../src/sync/window/rate-budget.js';
import { defaultRateKey, RedisSharedWindow, type RedisWindowOptions } from '../../src/sync/window/redis-window.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/temp.js';

let redis: RedisProcess;
let raw: Redis;
const windows: RedisSharedWindow[] = [];
let keyNo = 0;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
  raw.on('error', () => {}); // the test that kills Redis: this client reconnects on its own
});
afterEach(async () => {
  await Promise.all(windows.splice(0).map((w) => w.close()));
});
afterAll(async () => {
  raw.disconnect();
  await redis.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function redisNow(): Promise<number> {
  const [s, us] = await raw.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

/** A terminal's window on a fresh key, connected. */
async function terminal(
  terminalId: string,
  o: Partial<RedisWindowOptions> & { key: string },
): Promise<RedisSharedWindow> {
  // A fixed instance id, so members read `<terminal>:p:<slot>` (a real terminal's is random, see fleet-ids.test.ts).
  const w = new RedisSharedWindow({
    url: redis.url,
    terminalId,
    instanceId: 'p',
    limit: 3,
    inFlightMs: 300,
    holdMs: 100,
    ...o,
  });
  windows.push(w);
  await waitFor(() => w.reachable, `${terminalId} connected`, 5_000);
  return w;
}

async function scores(key: string): Promise<Map<string, number>> {
  const flat = await raw.zrange(key, '0', '-1', 'WITHSCORES');
  const m = new Map<string, number>();
  for (let i = 0; i < flat.length; i += 2) m.set(flat[i] as string, Number(flat[i + 1]));
  return m;
}

const freshKey = () => `test:rate:${process.pid}:${++keyNo}`;

describe('the take script', () => {
  it('takes up to the limit, each slot in flight until now + window + timeout, then says how long until one frees', async () => {
    const key = freshKey();
    const a = await terminal('A', { key });
    const before = await redisNow();
    for (let id = 1; id <= 3; id++) expect(await a.take(Priority.punch, id, 400)).toEqual({ ok: true });
    const after = await redisNow();
    const s = await scores(key);
    expect([...s.keys()].sort()).toEqual(['A:p:1', 'A:p:2', 'A:p:3']);
    for (const score of s.values()) {
      expect(score).toBeGreaterThanOrEqual(before + 700);
      expect(score).toBeLessThanOrEqual(after + 700);
    }
    const refused = await a.take(Priority.punch, 4, 400);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    const earliest = Math.min(...s.values());
    expect(refused.waitMs).toBeGreaterThan(0);
    expect(refused.waitMs).toBeLessThanOrEqual(earliest - before);
    expect((await scores(key)).has('A:p:4')).toBe(false);
    // The key does not outlive what it holds by much.
    const ttl = await raw.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(700 + 1_000);
  });

  it('a release rescores the slot to one window from the answer; expired slots are dropped and free their place', async () => {
    const key = freshKey();
    const a = await terminal('A', { key });
    for (let id = 1; id <= 3; id++) await a.take(Priority.punch, id, 400);
    await a.release(2, 400);
    const at = await redisNow();
    const s = await scores(key);
    expect(s.get('A:p:2')).toBeGreaterThanOrEqual(at + 400 - 50);
    expect(s.get('A:p:2')).toBeLessThanOrEqual(at + 400);
    expect(s.get('A:p:1')).toBeGreaterThan(s.get('A:p:2') as number); // still in flight: counts longer
    const refused = await a.take(Priority.punch, 4, 400);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.waitMs).toBeLessThanOrEqual(400); // the released one frees first
    await sleep(450);
    expect(await a.take(Priority.punch, 4, 400)).toEqual({ ok: true });
    expect([...(await scores(key)).keys()].sort()).toEqual(['A:p:1', 'A:p:3', 'A:p:4']);
  });

  it('terminals share one window: what one holds, the other cannot take', async () => {
    const key = freshKey();
    const a = await terminal('A', { key });
    const b = await terminal('B', { key });
    await a.take(Priority.punch, 1, 400);
    await a.take(Priority.punch, 2, 400);
    expect(await b.take(Priority.punch, 1, 400)).toEqual({ ok: true });
    expect((await b.take(Priority.punch, 2, 400)).ok).toBe(false);
    expect([...(await scores(key)).keys()].sort()).toEqual(['A:p:1', 'A:p:2', 'B:p:1']);
  });

  it('leaves the punch reserve to punches: roster takes of any terminal stop short of it, punches of any terminal use it', async () => {
    const key = freshKey();
    const a = await terminal('A', { key, limit: 5, punchReserve: 2 });
    const b = await terminal('B', { key, limit: 5, punchReserve: 2 });
    expect(await a.take(Priority.roster, 1, 2_000)).toEqual({ ok: true });
    expect(await b.take(Priority.roster, 1, 2_000)).toEqual({ ok: true });
    expect(await a.take(Priority.roster, 2, 2_000)).toEqual({ ok: true });
    // 3 of 5 in use: the last 2 are the reserve.
    const refused = await b.take(Priority.roster, 2, 2_000);
    expect(refused.ok).toBe(false);
    expect(await b.take(Priority.punch, 3, 2_000)).toEqual({ ok: true });
    expect(await a.take(Priority.punch, 3, 2_000)).toEqual({ ok: true });
    expect((await a.take(Priority.punch, 4, 2_000)).ok).toBe(false);
    expect((await scores(key)).size).toBe(5);
  });

  it('refuses roster takes of every terminal while a punch of any terminal waits, and only then', async () => {
    const key = freshKey();
    const a = await terminal('A', { key, limit: 2, holdMs: 400 });
    const b = await terminal('B', { key, limit: 2, holdMs: 400 });
    expect(await b.take(Priority.roster, 1, 300)).toEqual({ ok: true }); // no punch waits: roster goes
    await b.release(1, 300);
    expect(await a.take(Priority.punch, 1, 300)).toEqual({ ok: true });
    const refusedPunch = await a.take(Priority.punch, 2, 300); // full: A's punch now waits
    expect(refusedPunch.ok).toBe(false);
    const marks = await scores(`${key}:punch-waiting`);
    expect([...marks.keys()]).toEqual(['A:p']);
    await a.release(1, 300);
    await sleep(320); // B's old roster slot has expired: there is room
    const roster = await b.take(Priority.roster, 2, 300);
    expect(roster.ok).toBe(false); // A's mark still stands
    if (!roster.ok) expect(roster.waitMs).toBeGreaterThan(0);
    expect(await b.take(Priority.punch, 3, 300)).toEqual({ ok: true }); // punches are not held back by marks
    expect(await a.take(Priority.punch, 2, 300)).toEqual({ ok: true }); // A comes back for its slot
    // After the mark expires (A's wait + hold), roster may go again once there is room.
    const mark = marks.get('A:p') as number;
    await sleep(Math.max(0, mark - (await redisNow())) + 20);
    await a.release(2, 300);
    await b.release(3, 300);
    await sleep(320);
    expect(await b.take(Priority.roster, 4, 300)).toEqual({ ok: true });
  });
});

describe('restore and forget', () => {
  it('puts held slots back for as long as they still count, never shortening one Redis has, and they count', async () => {
    const key = freshKey();
    const a = await terminal('A', { key, limit: 3 });
    await a.take(Priority.punch, 1, 1_000); // in Redis: now + 1300
    const at = await redisNow();
    await a.restore([
      { slotId: 1, countsForMs: 200 }, // shorter than what Redis has: kept as it is
      { slotId: 7, countsForMs: 600 },
      { slotId: 8, countsForMs: 900 },
    ]);
    const s = await scores(key);
    expect(s.get('A:p:1')).toBeGreaterThanOrEqual(at + 1_300 - 50);
    expect(s.get('A:p:7')).toBeGreaterThanOrEqual(at + 600);
    expect(s.get('A:p:7')).toBeLessThanOrEqual(at + 600 + 50);
    expect(s.get('A:p:8')).toBeGreaterThanOrEqual(at + 900);
    const b = await terminal('B', { key, limit: 3 });
    expect((await b.take(Priority.punch, 1, 1_000)).ok).toBe(false); // restored slots fill the window
  });

  it('forget removes a slot that was never used', async () => {
    const key = freshKey();
    const a = await terminal('A', { key });
    await a.take(Priority.punch, 1, 400);
    await a.forget(1);
    expect(await scores(key)).toEqual(new Map());
  });
});

describe('the key and the connection', () => {
  it('the default key names the account by a hash: same URL and token, same key; never the token itself', () => {
    const k = defaultRateKey('https://api.example.com/v2.1', 'secret-token');
    expect(k).toMatch(/^timeclock:rate:[0-9a-f]{16}$/);
    expect(k).not.toContain('secret');
    expect(defaultRateKey('https://api.example.com/v2.1/', 'secret-token')).toBe(k);
    expect(defaultRateKey('https://api.example.com/v2.1', 'other-token')).not.toBe(k);
  });

  it('fails at once while Redis is down (no queueing), says so, and comes back by itself', async () => {
    const w = await terminal('A', { key: freshKey() });
    const changes: boolean[] = [];
    w.onChange((reachable) => changes.push(reachable));
    await redis.kill();
    await waitFor(() => !w.reachable, 'the connection seen as lost', 5_000);
    const started = Date.now();
    await expect(w.take(Priority.punch, 1, 400)).rejects.toThrow(/Redis not connected/);
    expect(Date.now() - started).toBeLessThan(100);
    await redis.restart();
    await waitFor(() => w.reachable, 'reconnected', 10_000);
    expect(changes[0]).toBe(false);
    expect(changes[changes.length - 1]).toBe(true);
    expect(await w.take(Priority.punch, 1, 400)).toEqual({ ok: true }); // scripts reloaded after the restart
    await waitFor(() => raw.status === 'ready', 'the test client reconnected', 10_000);
  });
});
