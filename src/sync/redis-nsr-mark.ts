import { Redis } from 'ioredis';

/**
 * The NSR high-water mark of each evidence journal in the fleet's Redis (issue 26 item 7): a key
 * per journal id holding the highest NSR the journal ever reserved or gave. A restore of the data
 * directory (and of the mirror beside it) does not roll it back, so the journal recognises the
 * restore at its next start (store/evidence-journal.ts, as with the mirror). Only ever raised:
 * a script compares and sets in one step, so a late or repeated write never lowers it.
 */
export const NSR_MARK_LUA = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
local wanted = tonumber(ARGV[1])
if wanted > current then
  redis.call('SET', KEYS[1], ARGV[1])
  return wanted
end
return current
`;

export function nsrMarkKey(journalId: string): string {
  if (!/^[0-9a-f]{32}$/.test(journalId)) throw new RangeError(`not a journal id: ${journalId}`);
  return `timeclock:nsr:${journalId}`;
}

type MarkCommands = { timeclockNsrMark(key: string, wanted: number): Promise<unknown> };

/** The reply as a whole NSR, or what is wrong with it. */
function wholeNsr(v: unknown): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new Error(`Redis answered ${JSON.stringify(v)} for an NSR mark`);
  return n;
}

function client(url: string, connectTimeoutMs: number, offlineQueue: boolean): Redis {
  const redis = new Redis(url, {
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
export async function readNsrMark(url: string, journalId: string, timeoutMs = 2_000): Promise<number | null> {
  const redis = client(url, timeoutMs, true);
  let lastError = '';
  redis.on('error', (e: Error) => {
    lastError = e.message;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      redis.get(nsrMarkKey(journalId)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms${lastError ? ` (${lastError})` : ''}`)), timeoutMs);
      }),
    ]);
    return answer === null ? null : wholeNsr(answer);
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
  private readonly wanted = new Map<string, number>();
  private readonly sent = new Map<string, number>();
  private sending = false;
  private failing = false;
  private closed = false;

  constructor(
    url: string,
    private readonly problem: (message: string) => void,
  ) {
    this.redis = client(url, 2_000, false);
    this.redis.on('error', () => {
      /* the 'close' and the next send say it; without a listener ioredis prints every retry */
    });
    this.redis.on('ready', () => void this.flush());
  }

  /** The journal's high-water mark is now at least `nsr`. */
  raise(journalId: string, nsr: number): void {
    if (this.closed || nsr <= Math.max(this.wanted.get(journalId) ?? 0, this.sent.get(journalId) ?? 0)) return;
    this.wanted.set(journalId, nsr);
    void this.flush();
  }

  /** Sends what is wanted and not yet confirmed; settles when nothing more can be sent now. */
  async flush(): Promise<void> {
    if (this.sending || this.redis.status !== 'ready') return;
    this.sending = true;
    try {
      for (const [journalId, nsr] of [...this.wanted]) {
        const now = wholeNsr(await (this.redis as unknown as MarkCommands).timeclockNsrMark(nsrMarkKey(journalId), nsr));
        this.sent.set(journalId, Math.max(now, this.sent.get(journalId) ?? 0));
        if ((this.wanted.get(journalId) ?? 0) <= nsr) this.wanted.delete(journalId);
      }
      this.failing = false;
    } catch (e) {
      if (!this.failing) this.problem(`the NSR mark could not be kept in Redis (${(e as Error).message}): sent again when Redis answers`);
      this.failing = true;
    } finally {
      this.sending = false;
    }
    if (this.wanted.size > 0 && !this.failing) void this.flush();
  }

  /** What Redis confirmed for `journalId` (tests, status). */
  confirmed(journalId: string): number | null {
    return this.sent.get(journalId) ?? null;
  }

  /** Sends what is still wanted (when Redis answers), then closes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
