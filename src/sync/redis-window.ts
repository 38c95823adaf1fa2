import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { DEFAULT_SELF_SERVICE_SHARE, fillLimit, type Priority } from './priority.js';
import { RELEASE_LUA, RESTORE_LUA, TAKE_LUA } from './redis-window-scripts.js';
import type { HeldSlot, SharedTake, SharedWindow } from './shared-window.js';

export type RedisWindowOptions = {
  url: string;
  /** The sorted set of slots; `<key>:punch-waiting` holds the punch-waiting marks. */
  key: string;
  /** Names this terminal's slots and its punch-waiting mark. */
  terminalId: string;
  /** Requests per window for the whole account. */
  limit: number;
  /** The request timeout: an unanswered slot counts one window plus this, in case its terminal dies. */
  inFlightMs: number;
  /** How long after its expected return a waiting punch keeps roster pages off its slot. */
  holdMs?: number;
  /** Slots of the account's window roster pages leave to punches (see punchReserve). */
  punchReserve?: number;
  /** Self-service reads of every terminal go only while the account's window is below this share (selfService.maxShare). */
  selfServiceShare?: number;
  /** Short: a Redis that does not answer must not hold a punch back; the local share takes over. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts (ioredis reconnects on its own, with back-off). */
  reconnectMaxMs?: number;
};

/** The typed view of the scripts that defineCommand adds to the client. */
type RateCommands = {
  timeclockRateTake(slots: string, waiting: string, ...argv: (string | number)[]): Promise<[number, number]>;
  timeclockRateRelease(slots: string, member: string, windowMs: number): Promise<number>;
  timeclockRateRestore(slots: string, ...argv: (string | number)[]): Promise<number>;
};

/**
 * The key of an account's window: a hash of the service's URL and the token, so the terminals of
 * one account meet without configuring a key, and the token itself never reaches Redis.
 */
export function defaultRateKey(baseUrl: string, token: string): string {
  const account = `${baseUrl.replace(/\/+$/, '')}\n${token}`;
  return `timeclock:rate:${createHash('sha256').update(account).digest('hex').slice(0, 16)}`;
}

/** The fleet's shared sliding window in Redis (scripts: redis-window-scripts.ts). */
export class RedisSharedWindow implements SharedWindow {
  private readonly redis: Redis;
  private readonly cmds: RateCommands;
  private key: string;
  private readonly listeners: ((reachable: boolean, error: string | null) => void)[] = [];
  private lastError: string | null = null;

  constructor(private readonly opts: RedisWindowOptions) {
    this.key = opts.key;
    const reconnectMaxMs = opts.reconnectMaxMs ?? 5_000;
    this.redis = new Redis(opts.url, {
      // Fail at once while disconnected (the local share takes over) instead of queueing for later.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs ?? 500,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), reconnectMaxMs),
      connectionName: `timeclock:${opts.terminalId}`,
    });
    this.redis.defineCommand('timeclockRateTake', { numberOfKeys: 2, lua: TAKE_LUA });
    this.redis.defineCommand('timeclockRateRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis.defineCommand('timeclockRateRestore', { numberOfKeys: 1, lua: RESTORE_LUA });
    this.cmds = this.redis as unknown as RateCommands;
    this.redis.on('ready', () => {
      this.lastError = null;
      this.emit(true, null);
    });
    // Without a listener ioredis prints every failed reconnection; the link records the last one.
    this.redis.on('error', (e: Error) => {
      this.lastError = e.message || String(e);
    });
    this.redis.on('close', () => this.emit(false, this.lastError ?? 'connection to Redis closed'));
  }

  get reachable(): boolean {
    return this.redis.status === 'ready';
  }

  /** Another account (a new token): later calls use its window. */
  setKey(key: string): void {
    this.key = key;
  }

  get currentKey(): string {
    return this.key;
  }

  private get waitingKey(): string {
    return `${this.key}:punch-waiting`;
  }

  /** Fails with why, rather than with the client's complaint about its disabled offline queue. */
  private ready(): void {
    if (!this.reachable) throw new Error(`Redis not connected (${this.lastError ?? this.redis.status})`);
  }

  private member(slotId: number): string {
    return `${this.opts.terminalId}:${slotId}`;
  }

  async take(priority: Priority, slotId: number, windowMs: number): Promise<SharedTake> {
    this.ready();
    const { limit, inFlightMs, terminalId } = this.opts;
    const [ok, waitMs] = await this.cmds.timeclockRateTake(
      this.key,
      this.waitingKey,
      limit,
      windowMs,
      inFlightMs,
      this.member(slotId),
      priority,
      terminalId,
      this.opts.holdMs ?? 500,
      // What anything but a punch leaves free (fillLimit): the script takes it as slots to leave.
      limit - fillLimit(priority, limit, this.opts.punchReserve ?? 0, this.opts.selfServiceShare ?? DEFAULT_SELF_SERVICE_SHARE),
    );
    return ok === 1 ? { ok: true } : { ok: false, waitMs: Number(waitMs) };
  }

  async release(slotId: number, windowMs: number): Promise<void> {
    this.ready();
    await this.cmds.timeclockRateRelease(this.key, this.member(slotId), windowMs);
  }

  async forget(slotId: number): Promise<void> {
    this.ready();
    await this.redis.zrem(this.key, this.member(slotId));
  }

  async restore(slots: readonly HeldSlot[]): Promise<void> {
    this.ready();
    // Run even with nothing to put back: the answer shows Redis answers again (a rejoin is a probe).
    await this.cmds.timeclockRateRestore(this.key, ...slots.flatMap((s) => [this.member(s.slotId), Math.ceil(s.countsForMs)]));
  }

  onChange(fn: (reachable: boolean, error: string | null) => void): void {
    this.listeners.push(fn);
  }

  private emit(reachable: boolean, error: string | null): void {
    for (const fn of this.listeners) fn(reachable, error);
  }

  /** Drops this terminal's punch-waiting mark (its slots still count: their requests were made). */
  async close(): Promise<void> {
    this.listeners.length = 0;
    try {
      if (this.reachable) {
        await this.redis.zrem(this.waitingKey, this.opts.terminalId);
        await this.redis.quit();
      }
    } catch {
      // Unreachable while stopping: the mark expires on its own.
    } finally {
      this.redis.disconnect();
    }
  }
}
