import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, Sleep } from '../../src/domain/clock.js';
import type { WindowRule } from '../../src/domain/sliding-window.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { RateSlots } from '../../src/store/rate-slots.js';
import { silentLogger } from '../../src/log.js';
import { AdaptiveLimit, type AdaptiveOptions } from '../../src/sync/adaptive-limit.js';
import { Priority, RateBudget, type SlotTicket } from '../../src/sync/rate-budget.js';
import type { SharedTake, SharedWindow } from '../../src/sync/shared-window.js';
import { SharedWindowLink } from '../../src/sync/shared-window-link.js';
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
  return new RateBudget(new RateSlots(db), time.clock, time.sleep, rule, link, opts);
}

/** A fleet window that grants every slot, reachable until `drop()`. */
class OpenWindow implements SharedWindow {
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
  it('a 429 halves the limit in force, and the window grants only that many', async () => {
    const b = budget({ limit: 4, windowMs: W });
    for (const t of [await take(b), await take(b)]) b.release(t, 0);
    b.pauseUntil(0, 'retry_after'); // a 429 whose Retry-After is already over
    expect(b.limit).toBe(2);
    // Two slots held: at the configured 4 the next would go now; at 2 it waits out the window.
    await take(b);
    expect(time.t).toBe(W);
  });

  it('a burst of 429s is one cut; each calm window then earns back 1/60 of the configured limit', () => {
    const b = budget({ limit: 60, windowMs: W });
    b.pauseUntil(W, 'retry_after');
    time.t = 10;
    b.pauseUntil(W, 'retry_after');
    time.t = 999;
    b.pauseUntil(W, 'retry_after');
    expect(b.limit).toBe(30);
    time.t = 999 + 5 * W;
    expect(b.limit).toBe(35);
    time.t = 999 + 100 * W;
    expect(b.limit).toBe(60);
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
    // And the one-cut-per-window guard started over too: a 429 now cuts at once.
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
    const link = new SharedWindowLink(window, time.clock, time.sleep, silentLogger, { inFlightMs: 500 });
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
    const a = new AdaptiveLimit({ limit: 20, windowMs: W }, 0, { onCut: (limit, was) => cuts.push([limit, was]) });
    a.rateLimited(0, 'redis');
    expect(a.current(0)).toBe(20);
    a.rateLimited(0, 'fallback-local');
    expect(a.current(0)).toBe(10);
    a.rateLimited(W, 'local');
    expect(a.current(W)).toBe(5);
    expect(cuts).toEqual([
      [10, 20],
      [5, 10],
    ]);
  });
});
