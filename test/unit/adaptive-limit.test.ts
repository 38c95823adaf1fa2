import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, Sleep } from '../../src/domain/time/clock.js';
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { silentLogger } from '../../src/log.js';
import { AdaptiveLimit, type AdaptiveOptions } from '../../src/sync/window/adaptive-limit.js';
import { Priority, RateBudget, type SlotTicket } from '../../src/sync/window/rate-budget.js';
import type { SharedTake, SharedWindow } from '../../src/sync/window/shared-window.js';
import { SharedWindowLink } from '../../src/sync/window/shared-window-link.js';
import { tempDir } from '../helpers/temp.js';

/** `sleep(ms)` moves the clock by `ms` one macrotask turn later, unless its signal aborts first. */
class StepTime {
  t = 0;
  readonly clock: Clock = { now: () => this.t };
  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = (): void => {
        clearImmediate(timer);
        resolve();
      };
      const timer = setImmediate(() => {
        signal?.removeEventListener('abort', onAbort);
        this.t += ms;
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

const W = 1_000;
let db: Db;
let cleanup: () => void;
let time: StepTime;
let stop: AbortController;

beforeEach(() => {
  const d = tempDir('timeclock-adaptive-');
  cleanup = d.cleanup;
  db = openDatabase(d.dir);
  time = new StepTime();
  stop = new AbortController();
});

afterEach(async () => {
  stop.abort();
  await new Promise((r) => setImmediate(r));
  db.close();
  cleanup();
});

function budget(rule: WindowRule, opts: AdaptiveOptions = {}, link: SharedWindowLink | null = null): RateBudget {
  return new RateBudget({ store: new RateSlots(db), clock: time.clock, sleep: time.sleep, rule, link, adaptive: opts });
}

/** A fleet window that grants every slot, reachable until `drop()`. */
class OpenWindow implements SharedWindow {
  readonly self = 'T:open';
  reachable = true;
  private listeners: ((reachable: boolean, error: string | null) => void)[] = [];
  take(): Promise<SharedTake> {
    return Promise.resolve({ ok: true });
  }
  release(): Promise<void> {
    return Promise.resolve();
  }
  forget(): Promise<void> {
    return Promise.resolve();
  }
  restore(): Promise<void> {
    return Promise.resolve();
  }
  onChange(fn: (reachable: boolean, error: string | null) => void): void {
    this.listeners.push(fn);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  drop(): void {
    this.reachable = false;
    for (const fn of this.listeners) fn(false, 'connection lost');
  }
}

async function take(b: RateBudget): Promise<SlotTicket> {
  const t = await b.acquire(Priority.punch, 'punch', { signal: stop.signal });
  if (!t) throw new Error('no ticket');
  return t;
}

describe('RateBudget adapting to 429s (no shared window)', () => {
  it('a 429 at the configured limit halves it, and the window then paces its requests: one every window / limit', async () => {
    const b = budget({ limit: 4, windowMs: W });
    for (const t of [await take(b), await take(b)]) b.release(t, 0);
    b.pauseUntil(0, 'retry_after'); // a 429 whose Retry-After is already over
    expect(b.limit).toBe(2);
    // Two slots held: at the configured 4 the next would go now; at 2 it waits out the window.
    b.release(await take(b), W);
    expect(time.t).toBe(W);
    // One slot free, but paced: half a window after the last request, not at once.
    await take(b);
    expect(time.t).toBe(W + W / 2);
  });

  it("the next 429 sets the limit to what got through since the pause: this terminal's share of the account", async () => {
    const b = budget({ limit: 60, windowMs: W });
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(30);
    for (let i = 0; i < 12; i++) {
      const t = await take(b);
      b.release(t, time.t);
    }
    expect(time.t).toBeGreaterThanOrEqual(W); // nothing went out during the pause
    b.pauseUntil(time.t + W, 'retry_after');
    expect(b.limit).toBe(12);
  });

  it('a burst of 429s is one cut; without a 429 to measure with, earning back starts after the pause and a window, doubling', () => {
    const b = budget({ limit: 60, windowMs: W });
    b.pauseUntil(W, 'retry_after');
    time.t = 10;
    b.pauseUntil(W, 'retry_after');
    time.t = 999;
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(30);
    const seen = [1_999, 2_000, 3_000, 4_000, 5_000, 6_000].map((t) => {
      time.t = t;
      return b.limit;
    });
    expect(seen).toEqual([30, 31, 33, 37, 45, 60]);
  });

  it('a refused token is no 429: no cut', () => {
    const b = budget({ limit: 10, windowMs: W });
    b.pauseUntil(60_000, 'auth');
    expect(b.limit).toBe(10);
  });

  it('a new configured limit (admin screen) starts the controller over from it', () => {
    const b = budget({ limit: 10, windowMs: W });
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(5);
    b.setRule({ limit: 8, windowMs: W });
    expect(b.limit).toBe(8);
    // And the guard against the 429s of requests in flight started over too: a 429 now cuts at once.
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(4);
  });

  it('a step of the wall clock back does not let a straggler of the same burst cut again', () => {
    const b = budget({ limit: 16, windowMs: W });
    b.pauseUntil(W, 'retry_after');
    b.clockStepped(-3_600_000);
    time.t = -3_600_000 + 100;
    b.pauseUntil(time.t + W, 'retry_after');
    expect(b.limit).toBe(8);
  });

  it('with adaptation off the limit stays the configured one', () => {
    const b = budget({ limit: 10, windowMs: W }, { adapt: false });
    b.pauseUntil(W, 'retry_after');
    time.t = 5 * W;
    b.pauseUntil(6 * W, 'retry_after');
    expect(b.limit).toBe(10);
  });
});

describe('AdaptiveLimit and the shared window', () => {
  it('a RateBudget on the fleet window in Redis does not cut on a 429; once Redis is out of reach it does', async () => {
    const window = new OpenWindow();
    const link = new SharedWindowLink({
      window,
      clock: time.clock,
      sleep: time.sleep,
      log: silentLogger,
      opts: { inFlightMs: 500 },
    });
    const b = budget({ limit: 20, windowMs: W }, {}, link);
    await new Promise((r) => setImmediate(r)); // the link joins the window
    expect(b.sharing().shared).toBe('redis');
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(20);
    window.drop();
    link.stop();
    expect(b.sharing().shared).toBe('fallback-local');
    time.t = W;
    b.pauseUntil(2 * W, 'retry_after');
    expect(b.limit).toBe(10);
  });

  it('cuts while the terminal runs its own window (local, Redis out of reach), never while the fleet window in Redis rules', () => {
    const cuts: [number, number][] = [];
    const a = new AdaptiveLimit({ limit: 20, windowMs: W }, { onCut: (limit, was) => cuts.push([limit, was]) });
    const none = { count: 0, since: -W };
    a.rateLimited(0, 'redis', none, W);
    expect(a.current(0)).toBe(20);
    expect(a.spacingMs(0)).toBe(0);
    a.rateLimited(0, 'fallback-local', none, W);
    expect(a.current(0)).toBe(10);
    expect(a.spacingMs(0)).toBe(W / 10);
    a.rateLimited(W, 'local', { count: 5, since: W }, W);
    expect(a.current(W)).toBe(5);
    expect(cuts).toEqual([
      [10, 20],
      [5, 10],
    ]);
  });

  it('429 answers in the window are not counted as got through', () => {
    const a = new AdaptiveLimit({ limit: 60, windowMs: W });
    a.rateLimited(0, 'local', { count: 0, since: -W }, 10);
    // Another answer of the first burst, answered after the short pause: the same signal, and not admitted.
    a.rateLimited(500, 'local', { count: 0, since: 10 }, 10);
    expect(a.current(500)).toBe(30);
    a.rateLimited(1_005, 'local', { count: 9, since: 10 }, 10);
    expect(a.current(1_005)).toBe(8);
  });
});
