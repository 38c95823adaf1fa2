import type { Redis } from 'ioredis';
import { loadWhenUsed } from '../window/when-used.js';

/** ioredis, loaded when a client is first made (a terminal without Redis never loads it). */
const ioredis = loadWhenUsed<typeof import('ioredis')>('ioredis');

/**
 * The NSR high-water mark of each evidence journal in the fleet's Redis (issue 26 item 7): a key
 * per journal id holding the highest NSR the journal ever reserved or gave. A restore of the data
 * directory (and of the mirror beside it) does not roll it back, so the journal recognises the
 * restore at its next start (store/journal/journal-reservation.ts, as with the mirror). Only ever raised:
 * a script compares and sets in one step, so a late or repeated write never lowers it.
 */
export const NSR_MARK_LUA = `
local fields = { 'reserved', 'given' }
for i, field in ipairs(fields) do
  local wanted = tonumber(ARGV[i])
  if wanted and wanted > (tonumber(redis.call('HGET', KEYS[1], field)) or 0) then
    redis.call('HSET', KEYS[1], field, ARGV[i])
  end
end
return redis.call('HMGET', KEYS[1], 'reserved', 'given')
`;

/** The two high-water marks of a journal: the NSRs reserved (a block ahead) and the last NSR given to a mark. */
export type NsrMark = { reserved: number; given: number };

export function nsrMarkKey(journalId: string): string {
  if (!/^[0-9a-f]{32}$/.test(journalId)) throw new RangeError(`not a journal id: ${journalId}`);
  return `timeclock:nsr:${journalId}`;
}

type MarkCommands = { timeclockNsrMark(key: string, reserved: number, given: number): Promise<unknown> };

/** A field of the reply as a whole NSR (absent: 0), or what is wrong with it. */
function wholeNsr(v: unknown): number {
  const n = v === null || v === undefined ? 0 : typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
    throw new Error(`Redis answered ${JSON.stringify(v)} for an NSR mark`);
  return n;
}

function markOf(v: unknown): NsrMark {
  if (!Array.isArray(v) || v.length !== 2) throw new Error(`Redis answered ${JSON.stringify(v)} for an NSR mark`);
  return { reserved: wholeNsr(v[0]), given: wholeNsr(v[1]) };
}

function client(url: string, connectTimeoutMs: number, offlineQueue: boolean): Redis {
  const redis = new (ioredis().Redis)(url, {
    enableOfflineQueue: offlineQueue,
    maxRetriesPerRequest: 1,
    commandTimeout: 1_000,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 8), 10_000),
    connectionName: 'timeclock:nsr-mark',
    lazyConnect: false,
  });
  redis.defineCommand('timeclockNsrMark', { numberOfKeys: 1, lua: NSR_MARK_LUA });
  return redis;
}

/**
 * The journal's mark as Redis holds it, once, at start: null when there is none; throws (with
 * why) when Redis cannot be asked within `timeoutMs`. Never waits longer: a terminal starts
 * without Redis.
 */
export async function readNsrMark(url: string, journalId: string, timeoutMs = 2_000): Promise<NsrMark | null> {
  const redis = client(url, timeoutMs, true);
  let lastError = '';
  redis.on('error', (e: Error) => {
    lastError = e.message;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      redis.hmget(nsrMarkKey(journalId), 'reserved', 'given'),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const mark = markOf(answer);
    return mark.reserved === 0 && mark.given === 0 ? null : mark;
  } catch (e) {
    // ioredis's own words ("max retries per request") do not say why: the connection's error does.
    throw new Error(`Redis could not be read: ${lastError || (e as Error).message}`);
  } finally {
    clearTimeout(timer);
    redis.disconnect();
  }
}

/**
 * Raises the mark as the journal reserves and gives NSRs, in the background: only the highest
 * value wanted is kept, and sent whenever Redis is connected (a Redis out of reach costs nothing
 * but the delay; a punch never waits for it). `problem` is said once per outage.
 */
export class RedisNsrMark {
  private readonly redis: Redis;
  /** Per journal id: the highest values wanted and not yet confirmed by Redis. */
  private readonly wanted = new Map<string, NsrMark>();
  private readonly sent = new Map<string, NsrMark>();
  private sending: Promise<void> | null = null;
  private failing = false;
  private closed = false;

  constructor(
    url: string,
    private readonly problem: (message: string) => void,
  ) {
    this.redis = client(url, 2_000, false);
    this.redis.on('error', () => {
      /* the next send says it; without a listener ioredis prints every retry */
    });
    this.redis.on('ready', () => void this.flush());
  }

  /** The journal's marks are now at least these. */
  raise(journalId: string, to: Partial<NsrMark>): void {
    if (this.closed) return;
    const was = this.wanted.get(journalId) ?? this.sent.get(journalId) ?? { reserved: 0, given: 0 };
    const next = { reserved: Math.max(was.reserved, to.reserved ?? 0), given: Math.max(was.given, to.given ?? 0) };
    if (next.reserved === was.reserved && next.given === was.given && this.sent.get(journalId) !== undefined) return;
    this.wanted.set(journalId, next);
    void this.flush();
  }

  /** Sends what is wanted and not yet confirmed; settles when nothing more can be sent now. */
  flush(): Promise<void> {
    if (this.redis.status !== 'ready') return Promise.resolve();
    this.sending ??= this.send().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async send(): Promise<void> {
    try {
      while (this.wanted.size > 0) {
        for (const [journalId, mark] of [...this.wanted]) {
          const now = markOf(
            await (this.redis as unknown as MarkCommands).timeclockNsrMark(
              nsrMarkKey(journalId),
              mark.reserved,
              mark.given,
            ),
          );
          // Less than was sent: not a Redis that ran the script (a proxy, a stranger on the port); never asked again in
          // a loop.
          if (now.reserved < mark.reserved || now.given < mark.given)
            throw new Error(`Redis answered ${now.reserved}/${now.given} for ${mark.reserved}/${mark.given}`);
          this.sent.set(journalId, now);
          const still = this.wanted.get(journalId);
          if (still && still.reserved <= now.reserved && still.given <= now.given) this.wanted.delete(journalId);
        }
      }
      this.failing = false;
    } catch (e) {
      if (!this.failing)
        this.problem(
          `the NSR mark could not be kept in Redis (${(e as Error).message}): sent again when Redis answers`,
        );
      this.failing = true;
    }
  }

  /** What Redis last confirmed for `journalId` (tests, status). */
  confirmed(journalId: string): NsrMark | null {
    return this.sent.get(journalId) ?? null;
  }

  /** Sends what is still wanted (when Redis answers), then closes. */
  async close(): Promise<void> {
    this.closed = true;
    // Still connecting (a stop soon after the start): the last values wait for it, at most the connect timeout.
    if (this.wanted.size > 0 && this.redis.status !== 'ready') await this.readyWithin(2_000);
    await this.flush();
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private readyWithin(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.redis.once('ready', done);
    });
  }
}
