/**
 * The NSR mark in the fleet's Redis (issue 26 item 7) against a real redis-server: only ever
 * raised, whatever order writes arrive in, and a Redis that goes away costs a punch nothing: the
 * highest value is sent when it is back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readNsrMark, RedisNsrMark } from '../../src/sync/fleet/redis-nsr-mark.js';
import { startRedis } from '../helpers/redis-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const ID = '0123456789abcdef0123456789abcdef';

describe('the NSR mark in Redis', () => {
  it('is only raised: a lower value from another writer (a terminal started on a restored copy) leaves it', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    expect(await readNsrMark(redis.url, ID)).toBeNull();
    const problems: string[] = [];
    const a = new RedisNsrMark(redis.url, (m) => problems.push(m));
    const b = new RedisNsrMark(redis.url, (m) => problems.push(m));
    a.raise(ID, { reserved: 2_000, given: 1_107 });
    await a.close();
    b.raise(ID, { reserved: 1_000, given: 4 });
    await b.close();
    expect(await readNsrMark(redis.url, ID)).toEqual({ reserved: 2_000, given: 1_107 });
    expect(problems).toEqual([]);
  });

  it('a Redis out of reach costs raise() nothing: the highest value wanted meanwhile is sent when Redis is back (a restarted, empty one too)', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const problems: string[] = [];
    const mark = new RedisNsrMark(redis.url, (m) => problems.push(m));
    cleanups.push(() => mark.close());
    mark.raise(ID, { reserved: 1_000, given: 1 });
    await expect.poll(() => mark.confirmed(ID)).toEqual({ reserved: 1_000, given: 1 });
    await redis.kill();
    for (let n = 2; n <= 50; n++) mark.raise(ID, { given: n });
    mark.raise(ID, { reserved: 2_000 });
    await redis.restart(); // no persistence: the key is gone, as from a crashed cache
    await expect.poll(() => mark.confirmed(ID), { timeout: 15_000 }).toEqual({ reserved: 2_000, given: 50 });
    expect(await readNsrMark(redis.url, ID)).toEqual({ reserved: 2_000, given: 50 });
    expect(problems.length).toBeLessThanOrEqual(1);
    await expect(readNsrMark('redis://127.0.0.1:1', ID, 300)).rejects.toThrow(
      /^Redis could not be read: .*(ECONNREFUSED|no answer within 300 ms)/,
    );
  });
});
