/**
 * The site's presence stream in the fleet's Redis (issue 30): one stream per account and site,
 * under the account's window key (`<window key>:presence:<site>`, as the registry's
 * `<window key>:terminals`), bounded with `XADD MAXLEN ~`. Entries carry employee ids and times,
 * a roll call's frozen list and its marks; never a CPF or a name. Same connection rules as the
 * shared window: no offline queue, short command timeout, reconnection in the background; every
 * call rejects while Redis is out of reach (the caller keeps what it has and says so).
 */
import type { Redis } from 'ioredis';
import { loadWhenUsed } from '../window/when-used.js';
import { z } from 'zod';
import { faultOf, type RedisFault } from '../window/redis-fault.js';

/** ioredis, loaded when the stream is first opened (a terminal without Redis never loads it). */
const ioredis = loadWhenUsed<typeof import('ioredis')>('ioredis');

const event = z.object({
  id: z.string().min(1).max(200),
  employeeKey: z.string().min(1).max(200),
  employeeExternalId: z.string().max(200).nullable(),
  at: z.number().int(),
  localDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  localTime: z
    .string()
    .regex(/^\d{2}:\d{2}/)
    .max(8),
  direction: z.enum(['entry', 'exit']),
  terminal: z.string().min(1).max(100),
  gate: z.string().min(1).max(100),
});

const listed = z.object({
  employeeKey: z.string().min(1).max(200),
  employeeExternalId: z.string().max(200).nullable(),
  gate: z.string().max(100),
  entryAt: z.number().int(),
});

/** One entry of the stream, as every terminal of any version writes it. */
export const streamEntrySchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('punch'), e: event }),
  z.object({
    t: z.literal('rollcall'),
    id: z.string().min(1).max(100),
    at: z.number().int(),
    by: z.string().min(1).max(100),
    date: z.string(),
    list: z.array(listed).max(100_000),
  }),
  z.object({
    t: z.literal('safe'),
    rollCall: z.string().min(1).max(100),
    employeeKey: z.string().min(1).max(200),
    at: z.number().int(),
    how: z.enum(['touch', 'badge']),
    terminal: z.string().min(1).max(100),
  }),
  z.object({
    t: z.literal('end'),
    rollCall: z.string().min(1).max(100),
    at: z.number().int(),
    terminal: z.string().min(1).max(100),
  }),
]);
export type StreamEntry = z.infer<typeof streamEntrySchema>;
export type ListedPerson = z.infer<typeof listed>;

/** The stream's key for an account's window key and a site. */
export function presenceStreamKey(windowKey: string, siteId: string): string {
  return `${windowKey}:presence:${siteId}`;
}

export type StreamRead = {
  entries: { id: string; entry: StreamEntry }[];
  skipped: number;
  last: string | null;
  /**
   * Entries after `afterId` were trimmed (MAXLEN) before this read: the reader lost them. From XINFO STREAM in the
   * same transaction as the read (its first entry past `afterId`).
   */
  gap: boolean;
};

export type PresenceStreamOptions = {
  url: string;
  terminalId: string;
  /** About how many entries the stream keeps (MAXLEN ~): a day of a large site's punches and a roll call. */
  maxLen: number;
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
  reconnectMaxMs?: number;
};

/** What the presence keeper needs of the stream (a real Redis in production and tests). */
export interface PresenceStream {
  readonly reachable: boolean;
  /** Why it is out of reach (null while reachable, or before the first attempt failed). */
  readonly fault: RedisFault | null;
  /** Appends entries (in order, one round trip); their ids. */
  publish(key: string, entries: readonly string[]): Promise<string[]>;
  /** Entries after `afterId` (null: from the start), at most `count`. */
  read(key: string, afterId: string | null, count: number): Promise<StreamRead>;
  /** How many entries the stream holds now (bench, status). */
  length(key: string): Promise<number>;
  onChange(fn: (reachable: boolean) => void): void;
  close(): Promise<void>;
}

export class RedisPresenceStream implements PresenceStream {
  private readonly redis: Redis;
  private lastError: string | null = null;
  private readonly listeners: ((reachable: boolean) => void)[] = [];

  constructor(private readonly opts: PresenceStreamOptions) {
    this.redis = new (ioredis().Redis)(opts.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs ?? 1_000,
      connectTimeout: opts.connectTimeoutMs ?? 2_000,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), opts.reconnectMaxMs ?? 5_000),
      connectionName: `timeclock:${opts.terminalId}:presence`,
    });
    this.redis.on('ready', () => {
      this.lastError = null;
      for (const fn of this.listeners) fn(true);
    });
    this.redis.on('error', (e: Error) => {
      this.lastError = e.message || String(e);
    });
    this.redis.on('close', () => {
      this.lastError ??= 'connection to Redis closed';
      for (const fn of this.listeners) fn(false);
    });
  }

  get reachable(): boolean {
    return this.redis.status === 'ready';
  }

  get fault(): RedisFault | null {
    if (this.reachable) return null;
    return this.lastError === null ? 'connecting' : faultOf(new Error(this.lastError));
  }

  private ready(): void {
    if (!this.reachable) throw new Error(`Redis not connected (${this.lastError ?? this.redis.status})`);
  }

  async publish(key: string, entries: readonly string[]): Promise<string[]> {
    this.ready();
    const pipe = this.redis.multi();
    for (const e of entries) pipe.xadd(key, 'MAXLEN', '~', this.opts.maxLen, '*', 'e', e);
    const answers = (await pipe.exec()) ?? [];
    return answers.map(([err, id], i) => {
      if (err) throw err;
      if (typeof id !== 'string') throw new Error(`Redis answered ${JSON.stringify(id)} to XADD of entry ${i}`);
      return id;
    });
  }

  async read(key: string, afterId: string | null, count: number): Promise<StreamRead> {
    this.ready();
    const from = afterId ?? '0-0';
    const answers =
      (await this.redis
        .multi()
        .call('XINFO', 'STREAM', key)
        .call('XREAD', 'COUNT', count, 'STREAMS', key, from)
        .exec()) ?? [];
    const [info, read] = [answers[0], answers[1]];
    if (!read || read[0]) throw read?.[0] ?? new Error('Redis did not answer XREAD');
    const raw: unknown = read[1];
    // No such stream yet: XINFO fails, and nothing was lost.
    const out: StreamRead = {
      entries: [],
      skipped: 0,
      last: null,
      gap: !info || info[0] ? false : lostAfter(info[1], from),
    };
    if (raw === null) return out;
    // [[key, items]] as Redis sends it; ioredis may hand the one stream's pair unwrapped.
    const pair: unknown = Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : raw;
    const items =
      Array.isArray(pair) && typeof pair[0] === 'string' && Array.isArray(pair[1]) ? (pair[1] as unknown[]) : null;
    if (items === null) throw new Error('Redis answered XREAD with something that is not a stream');
    for (const item of items) {
      const [id, fields] = Array.isArray(item) ? (item as [unknown, unknown]) : [null, null];
      if (typeof id !== 'string') throw new Error('Redis answered XREAD with an entry without an id');
      out.last = id;
      const text = Array.isArray(fields) && fields[0] === 'e' && typeof fields[1] === 'string' ? fields[1] : null;
      const parsed = text === null ? null : safeJson(text);
      const entry = parsed === null ? null : streamEntrySchema.safeParse(parsed);
      if (entry?.success) out.entries.push({ id, entry: entry.data });
      else out.skipped++;
    }
    return out;
  }

  async length(key: string): Promise<number> {
    this.ready();
    return this.redis.xlen(key);
  }

  onChange(fn: (reachable: boolean) => void): void {
    this.listeners.push(fn);
  }

  async close(): Promise<void> {
    this.listeners.length = 0;
    try {
      if (this.reachable) await this.redis.quit();
    } catch {
      // Out of reach while stopping: nothing of ours is left there to tidy.
    } finally {
      this.redis.disconnect();
    }
  }
}

/** Compares two stream ids (`ms-seq`). */
export function compareStreamIds(a: string, b: string): number {
  const [am = 0n, as = 0n] = a.split('-').map((x) => BigInt(x));
  const [bm = 0n, bs = 0n] = b.split('-').map((x) => BigInt(x));
  return am === bm ? (as === bs ? 0 : as < bs ? -1 : 1) : am < bm ? -1 : 1;
}

/**
 * From XINFO STREAM's flat answer: entries after `from` were trimmed. The stream's first entry is later than the
 * position (MAXLEN trims the oldest first, and records no deletion of its own); read from the start, more were added
 * than it holds. When only the entry at the position itself went, this says so once more than needed: a re-read of
 * the service's day, never a loss.
 */
function lostAfter(info: unknown, from: string): boolean {
  if (!Array.isArray(info)) return false;
  const field = (name: string): unknown => {
    const i = info.indexOf(name);
    return i >= 0 && i % 2 === 0 ? info[i + 1] : undefined;
  };
  if (from === '0-0') {
    const added = field('entries-added');
    const length = field('length');
    return typeof added === 'number' && typeof length === 'number' && added > length;
  }
  const recorded = field('recorded-first-entry-id');
  const first = field('first-entry');
  const firstId =
    typeof recorded === 'string' && recorded !== '0-0'
      ? recorded
      : Array.isArray(first) && typeof first[0] === 'string'
        ? first[0]
        : null;
  return firstId !== null && compareStreamIds(firstId, from) > 0;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
