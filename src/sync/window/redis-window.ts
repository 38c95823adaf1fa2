import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { loadWhenUsed } from './when-used.js';
import { DEFAULT_SELF_SERVICE_SHARE, fillLimit, Priority } from './priority.js';

/** The bands a read may mark (everything but a punch). */
const READ_BANDS = Object.values(Priority).filter((p) => p !== Priority.punch);
import { asBadAnswer, countAnswer, stringsAnswer, takeAnswer } from './redis-answers.js';
import { ANNOUNCE_LUA, RELEASE_LUA, RESTORE_LUA, TAKE_LUA, takeKeys } from './redis-window-scripts.js';
export { defaultRateKey } from './rate-key.js';
import type { HeldSlot, PunchWaiting, SharedTake, SharedWindow } from './shared-window.js';

/** ioredis, loaded when a client is first made (a terminal without Redis never loads it). */
const ioredis = loadWhenUsed<typeof import('ioredis')>('ioredis');

export type RedisWindowOptions = {
  url: string;
  /**
   * The sorted set of slots; `<key>:punch-waiting` holds the punch-waiting marks, `<key>:punch-oldest` how long their
   * punches wait.
   */
  key: string;
  /** Names this terminal's slots and its punch-waiting mark, with `instanceId`. */
  terminalId: string;
  /**
   * Unique to this process (default: random, made here): two terminals under one id (a cloned disk
   * image, a copied data directory or config) still name their slots apart, so neither overwrites
   * the other's and the window counts every request.
   */
  instanceId?: string;
  /** Requests per window for the whole account. */
  limit: number;
  /** The request timeout: an unanswered slot counts one window plus this, in case its terminal dies. */
  inFlightMs: number;
  /** How long after its expected return a waiting punch keeps roster pages off its slot. */
  holdMs?: number;
  /** Slots of the account's window roster pages leave to punches (see punchReserve). */
  punchReserve?: number;
  /**
   * Self-service reads of every terminal go only while the account's window is below this share (selfService.maxShare).
   */
  selfServiceShare?: number;
  /** Short: a Redis that does not answer must not hold a punch back; the local share takes over. */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts (ioredis reconnects on its own, with back-off). */
  reconnectMaxMs?: number;
  /** How long a connection attempt may take (default 2 s). */
  connectTimeoutMs?: number;
};

/** 8 random bytes in base 36: a process's name in the shared window. */
export function newInstanceId(): string {
  return randomBytes(8).readBigUInt64BE().toString(36).padStart(13, '0');
}

/** A wait as the take script reads it: whole ms, 0 to 30 days (a wrong clock must not make it absurd). */
function age(ms: number): number {
  return Number.isFinite(ms) ? Math.min(Math.max(0, Math.round(ms)), 30 * 86_400_000) : 0;
}

/** The typed view of the scripts that defineCommand adds to the client. */
type RateCommands = {
  timeclockRateTake(
    slots: string,
    waiting: string,
    oldest: string,
    want: string,
    reads: string,
    ...argv: (string | number)[]
  ): Promise<unknown>;
  timeclockRateRelease(slots: string, member: string, windowMs: number): Promise<unknown>;
  timeclockRateRestore(slots: string, ...argv: (string | number)[]): Promise<unknown>;
  timeclockAnnounce(registry: string, member: string, ttlMs: number): Promise<unknown>;
};

/** The fleet's shared sliding window in Redis (scripts: redis-window-scripts.ts). */
export class RedisSharedWindow implements SharedWindow {
  private readonly redis: Redis;
  private readonly cmds: RateCommands;
  private key: string;
  private readonly listeners: ((reachable: boolean, error: string | null) => void)[] = [];
  private lastError: string | null = null;
  readonly instanceId: string;
  readonly connectTimeoutMs: number;

  constructor(private readonly opts: RedisWindowOptions) {
    this.key = opts.key;
    this.instanceId = opts.instanceId ?? newInstanceId();
    this.connectTimeoutMs = opts.connectTimeoutMs ?? 2_000;
    const reconnectMaxMs = opts.reconnectMaxMs ?? 5_000;
    this.redis = new (ioredis().Redis)(opts.url, {
      // Fail at once while disconnected (the local share takes over) instead of queueing for later.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs ?? 500,
      connectTimeout: this.connectTimeoutMs,
      retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), reconnectMaxMs),
      connectionName: `timeclock:${opts.terminalId}:${this.instanceId}`,
    });
    this.redis.defineCommand('timeclockRateTake', { numberOfKeys: takeKeys('').length, lua: TAKE_LUA });
    this.redis.defineCommand('timeclockRateRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis.defineCommand('timeclockRateRestore', { numberOfKeys: 1, lua: RESTORE_LUA });
    this.redis.defineCommand('timeclockAnnounce', { numberOfKeys: 1, lua: ANNOUNCE_LUA });
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

  /**
   * The take script's keys (redis-window-scripts.ts takeKeys): slots; punch-waiting marks; since when
   * each waiting terminal's oldest punch waits and how many slots it would take at once (the fleet's
   * fairness); reads refused by band (member `<priority>:<self>`: a later band waits for an earlier one).
   */
  private get keys(): [string, string, string, string, string] {
    return takeKeys(this.key);
  }

  /** The account's registry of live terminals (terminal-registry.ts). */
  get registryKey(): string {
    return `${this.key}:terminals`;
  }

  /** Fails with why, rather than with the client's complaint about its disabled offline queue. */
  private ready(): void {
    if (!this.reachable) throw new Error(`Redis not connected (${this.lastError ?? this.redis.status})`);
  }

  /** This process: its slots and its punch-waiting mark are named so. */
  get self(): string {
    return `${this.opts.terminalId}:${this.instanceId}`;
  }

  private member(slotId: number): string {
    return `${this.self}:${slotId}`;
  }

  /** Runs a command and checks its answer; an error reply is an answer of the wrong kind (redis-answers.ts). */
  private async call<T>(command: string, run: () => Promise<unknown>, check: (v: unknown) => T): Promise<T> {
    this.ready();
    let v: unknown;
    try {
      v = await run();
    } catch (e) {
      throw asBadAnswer(e, command);
    }
    return check(v);
  }

  take(priority: Priority, slotId: number, windowMs: number, waiting: PunchWaiting | null = null): Promise<SharedTake> {
    const { limit, inFlightMs } = this.opts;
    const holdMs = this.opts.holdMs ?? 500;
    // A slot frees within a window and the request timeout; a mark expires within that and its hold.
    const maxWaitMs = 2 * (windowMs + inFlightMs + holdMs) + 1_000;
    return this.call(
      'the take script',
      () =>
        this.cmds.timeclockRateTake(
          ...this.keys,
          limit,
          windowMs,
          inFlightMs,
          this.member(slotId),
          priority,
          this.self,
          holdMs,
          // What anything but a punch leaves free (fillLimit): the script takes it as slots to leave.
          limit -
            fillLimit(
              priority,
              limit,
              this.opts.punchReserve ?? 0,
              this.opts.selfServiceShare ?? DEFAULT_SELF_SERVICE_SHARE,
            ),
          age(waiting?.oldestMs ?? 0),
          waiting === null ? -2 : waiting.nextMs === null ? -1 : age(waiting.nextMs),
          Math.min(Math.max(0, Math.floor(waiting?.more ?? (waiting?.nextMs == null ? 0 : 1))), limit),
        ),
      (v) => takeAnswer(v, maxWaitMs),
    );
  }

  async release(slotId: number, windowMs: number): Promise<void> {
    await this.call(
      'the release script',
      () => this.cmds.timeclockRateRelease(this.key, this.member(slotId), windowMs),
      (v) => countAnswer(v, 'the release script', 1, 1),
    );
  }

  async forget(slotId: number): Promise<void> {
    await this.call(
      'ZREM',
      () => this.redis.zrem(this.key, this.member(slotId)),
      (v) => countAnswer(v, 'ZREM', 0, 1),
    );
  }

  async restore(slots: readonly HeldSlot[]): Promise<void> {
    // Run even with nothing to put back: the answer shows Redis answers again (a rejoin is a probe).
    // A slot an earlier run took keeps the member it has there (a restart must not count it twice).
    const argv = slots.flatMap((s) => [
      s.owner ? `${s.owner}:${s.slotId}` : this.member(s.slotId),
      Math.ceil(s.countsForMs),
    ]);
    await this.call(
      'the restore script',
      () => this.cmds.timeclockRateRestore(this.key, ...argv),
      (v) => countAnswer(v, 'the restore script', 0, slots.length),
    );
  }

  /** Puts `entry` in the account's registry for `ttlMs` (Redis time) and answers every live entry. */
  announce(entry: string, ttlMs: number): Promise<string[]> {
    return this.call(
      'the registry script',
      () => this.cmds.timeclockAnnounce(this.registryKey, entry, ttlMs),
      (v) => stringsAnswer(v, 'the registry script', 10_000, 1_000),
    );
  }

  /** Takes `entry` out of the registry (this terminal stops). */
  async withdraw(entry: string): Promise<void> {
    await this.call(
      'ZREM',
      () => this.redis.zrem(this.registryKey, entry),
      (v) => countAnswer(v, 'ZREM', 0, 1),
    );
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
        const [, waiting, oldest, want, reads] = this.keys;
        await this.redis.zrem(waiting, this.self);
        await this.redis.zrem(oldest, this.self);
        await this.redis.hdel(want, this.self);
        await this.redis.zrem(reads, ...READ_BANDS.map((b) => `${b}:${this.self}`));
        await this.redis.quit();
      }
    } catch {
      // Unreachable while stopping: the mark expires on its own.
    } finally {
      this.redis.disconnect();
    }
  }
}
