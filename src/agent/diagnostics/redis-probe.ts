/**
 * `timeclock doctor` and the fleet's Redis (issue 24): connects as the terminal would (AUTH from the
 * URL), PINGs, runs the shared window's take script once on a scratch key of its own (deleted after)
 * and checks its answer as the terminal does, and reads the account's registry of live terminals
 * for another one under this terminal's id. One connection attempt, no retries, a few seconds at most.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadWhenUsed } from '../../sync/window/when-used.js';
import { BadRedisAnswer, describeAnswer, takeAnswer } from '../../sync/window/redis-answers.js';
import { faultOf, type RedisFault } from '../../sync/window/redis-fault.js';
import { TAKE_LUA, takeKeys } from '../../sync/window/redis-window-scripts.js';
import { parseEntry, type TerminalEntry } from '../../sync/fleet/terminal-registry.js';

/** ioredis, loaded when a client is first made (a terminal without Redis never loads it). */
const ioredis = loadWhenUsed<typeof import('ioredis')>('ioredis');

// What the doctor (src/cli, which reaches sync only through here) words.
export { defaultRateKey } from '../../sync/window/redis-window.js';
export { rateKeyOrigin } from '../../sync/window/rate-key.js';
export type { RedisFault } from '../../sync/window/redis-fault.js';

export type RedisProbe = {
  /** ok, or what stopped the check (redis-fault.ts). */
  outcome: 'ok' | RedisFault;
  /** What Redis said (the error, or the bad answer), for the operator. */
  detail: string | null;
  pingMs: number | null;
  /** Live entries of the account's registry under this terminal's id; null when not read. */
  sameId: TerminalEntry[] | null;
};

export type RedisProber = (
  url: string,
  o: { key: string; terminalId: string; timeoutMs: number },
) => Promise<RedisProbe>;

/** The URL without its password, to print. */
export function redactedRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'an unreadable URL';
  }
}

export const realRedisProbe: RedisProber = async (url, o) => {
  const redis = new (ioredis().Redis)(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: o.timeoutMs,
    commandTimeout: o.timeoutMs,
    connectionName: 'timeclock:doctor',
  });
  let lastError: unknown = null;
  redis.on('error', (e: unknown) => (lastError = e));
  const failed = (e: unknown): RedisProbe => ({
    outcome: faultOf(e),
    detail: e instanceof Error ? e.message : String(e),
    pingMs: null,
    sameId: null,
  });
  try {
    try {
      await redis.connect();
    } catch (e) {
      return failed(lastError ?? e);
    }
    const started = Date.now();
    const pong: unknown = await redis.ping();
    if (pong !== 'PONG') throw new BadRedisAnswer('PING', describeAnswer(pong));
    const pingMs = Date.now() - started;
    await scriptCheck(redis);
    const sameId = await registryRead(redis, `${o.key}:terminals`, o.terminalId);
    return { outcome: 'ok', detail: null, pingMs, sameId };
  } catch (e) {
    return failed(
      e instanceof Error && e.name === 'ReplyError' && !/^(NOAUTH|WRONGPASS|NOPERM)/.test(e.message)
        ? new BadRedisAnswer('a command', describeAnswer(e))
        : e,
    );
  } finally {
    redis.disconnect();
  }
};

/** The take script on an empty scratch key must grant the slot, in the shape the terminal checks. */
async function scriptCheck(redis: Redis): Promise<void> {
  const scratch = `timeclock:doctor:${randomBytes(6).toString('hex')}`;
  try {
    // The keys as the terminals pass them (redis-window.ts).
    const keys = takeKeys(scratch);
    const answer: unknown = await redis.eval(
      TAKE_LUA,
      keys.length,
      ...keys,
      1,
      1_000,
      0,
      'doctor:1',
      0,
      'doctor',
      0,
      0,
      0,
      -1,
      0,
    );
    const take = takeAnswer(answer, 10_000);
    if (!take.ok) throw new BadRedisAnswer('the take script', `${describeAnswer(answer)} on an empty window`);
  } finally {
    await redis.del(...takeKeys(scratch)).catch(() => {});
  }
}

/** Live entries under `terminalId` (scores are Redis time: compared with Redis's clock). */
async function registryRead(redis: Redis, key: string, terminalId: string): Promise<TerminalEntry[]> {
  const [s, us] = (await redis.time()) as [number | string, number | string];
  const now = Number(s) * 1000 + Math.floor(Number(us) / 1000);
  const live: unknown = await redis.zrangebyscore(key, now, '+inf');
  if (!Array.isArray(live)) throw new BadRedisAnswer('ZRANGEBYSCORE', describeAnswer(live));
  return live
    .map((x) => (typeof x === 'string' ? parseEntry(x) : null))
    .filter((e): e is TerminalEntry => e !== null && e.id === terminalId);
}
