import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, Sleep } from '../../src/domain/time/clock.js';
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { Priority, RateBudget, type SlotTicket } from '../../src/sync/window/rate-budget.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Fake time: `sleep(ms)` lets everything else queued run first (one macrotask turn), then moves
 * the clock forward by `ms` and resolves; if its signal aborts before that it resolves at once
 * and the clock does not move. No real timer is involved.
 */
class FakeTime {
  t = 0;
  readonly sleeps: number[] = [];
  readonly clock: Clock = { now: () => this.t };
  readonly sleep: Sleep = (ms, signal) => {
    this.sleeps.push(ms);
    return new Promise<void>((resolve) => {
      let done = false;
      const finish = (advance: boolean): void => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', onAbort);
        if (advance) this.t += ms;
        resolve();
      };
      const onAbort = (): void => finish(false);
      if (signal?.aborted) return finish(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      setImmediate(() => finish(true));
    });
  };
}

/** One macrotask turn: lets the budget's fake sleeps fire. */
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await turn();
}

let dir: string;
let cleanup: () => void;
let db: Db;
let time: FakeTime;
let stop: AbortController;
const open: Db[] = [];

beforeEach(() => {
  ({ dir, cleanup } = tempDir('timeclock-rate-'));
  db = openDatabase(dir);
  open.push(db);
  time = new FakeTime();
  stop = new AbortController();
});

afterEach(async () => {
  stop.abort(); // every waiter a test left behind resolves null, so each pump loop ends
  await turns(3);
  for (const d of open.splice(0)) if (d.open) d.close();
  cleanup();
});

/** `adapt` false: a 429 neither cuts the limit nor spaces requests (tests of pausing alone). */
function budget(rule: WindowRule, database: Db = db, adapt = true): RateBudget {
  return new RateBudget({
    store: new RateSlots(database),
    clock: time.clock,
    sleep: time.sleep,
    rule,
    adaptive: { adapt },
  });
}

/** Acquires and records when (fake time) the slot was granted. */
function acquire(
  b: RateBudget,
  priority: Priority,
  purpose: string,
  extra: { standAside?: () => boolean; signal?: AbortSignal } = {},
): { ticket: Promise<SlotTicket | null>; grantedAt: () => number | null } {
  let grantedAt: number | null = null;
  const ticket = b
    .acquire(priority, purpose, { signal: extra.signal ?? stop.signal, standAside: extra.standAside })
    .then((t) => {
      if (t) grantedAt = time.t;
      return t;
    });
  return { ticket, grantedAt: () => grantedAt };
}

async function take(b: RateBudget, purpose = 'punch'): Promise<SlotTicket> {
  const t = await b.acquire(Priority.punch, purpose, { signal: stop.signal });
  if (!t) throw new Error('no ticket');
  return t;
}

type Row = { id: number; taken_at: number; released_at: number | null; purpose: string };
const rows = (d: Db): Row[] =>
  d.prepare('SELECT id, taken_at, released_at, purpose FROM rate_slots ORDER BY id').all() as Row[];

describe('RateBudget', () => {
  it('grants `limit` slots at once, the next only when the earliest released slot is a window old', async () => {
    const b = budget({ limit: 3, windowMs: 1_000 });
    const tickets = [await take(b), await take(b), await take(b)];
    expect(time.t).toBe(0);
    expect(time.sleeps).toEqual([]);
    expect(b.inUse()).toBe(3);

    time.t = 100;
    b.release(tickets[1] as SlotTicket);
    time.t = 200;
    b.release(tickets[0] as SlotTicket);
    b.release(tickets[2] as SlotTicket, 250);

    time.t = 300;
    const fourth = acquire(b, Priority.punch, 'fourth');
    expect(await fourth.ticket).not.toBeNull();
    expect(fourth.grantedAt()).toBe(1_100);
    expect(rows(db).map((r) => r.taken_at)).toEqual([0, 0, 0, 1_100]);
  });

  it('never expires a slot whose request is still in flight', async () => {
    const b = budget({ limit: 1, windowMs: 1_000 });
    const first = await take(b);
    const second = acquire(b, Priority.punch, 'second');
    while (time.t < 10 * 3_600_000) await turn(); // hours of fake time pass
    expect(second.grantedAt()).toBeNull();

    const releasedAt = time.t;
    b.release(first);
    await second.ticket;
    expect(second.grantedAt()).toBe(releasedAt + 1_000);
  });

  it('serves a punch before a roster page that queued earlier', async () => {
    const b = budget({ limit: 1, windowMs: 1_000 });
    b.release(await take(b), 0);
    const order: string[] = [];
    const roster = acquire(b, Priority.roster, 'roster');
    const punch = acquire(b, Priority.punch, 'punch');
    void roster.ticket.then(() => order.push('roster'));
    const p = await punch.ticket;
    order.push('punch');
    expect(p?.purpose).toBe('punch');
    expect(punch.grantedAt()).toBe(1_000);
    expect(roster.grantedAt()).toBeNull();

    b.release(p as SlotTicket);
    const r = await roster.ticket;
    expect(r?.purpose).toBe('roster');
    expect(roster.grantedAt()).toBe(2_000);
    expect(order).toEqual(['punch', 'roster']);
  });

  it("serves a read of who is on site before a self-service prefetch that queued earlier (both in the lowest band's one slot)", async () => {
    const b = budget({ limit: 10, windowMs: 1_000 });
    const first = await b.acquire(Priority.selfService, 'self_service', { signal: stop.signal });
    b.release(first as SlotTicket, 0);
    const prefetch = acquire(b, Priority.selfService, 'self_service');
    const presence = acquire(b, Priority.presence, 'presence');
    expect((await presence.ticket)?.purpose).toBe('presence');
    expect(presence.grantedAt()).toBe(1_000);
    expect(prefetch.grantedAt()).toBeNull();
  });

  it('a roster waiter that stands aside is served only once it stops and the budget is poked', async () => {
    const b = budget({ limit: 5, windowMs: 1_000 });
    let punchesDue = true;
    const roster = acquire(b, Priority.roster, 'roster', { standAside: () => punchesDue });
    await turns(5);
    expect(roster.grantedAt()).toBeNull();

    // a punch is not held up by the roster waiter standing aside
    const punch = acquire(b, Priority.punch, 'punch');
    await punch.ticket;
    expect(punch.grantedAt()).not.toBeNull();
    await turns(5);
    expect(roster.grantedAt()).toBeNull();

    punchesDue = false;
    const pokedAt = time.t;
    b.poke();
    await roster.ticket;
    expect(roster.grantedAt()).toBe(pokedAt);
  });

  it('pauseUntil holds every waiter, punch and roster, until the pause ends', async () => {
    const b = budget({ limit: 5, windowMs: 1_000 }, db, false);
    b.pauseUntil(5_000, 'retry_after');
    expect(b.pause()).toEqual({ until: 5_000, reason: 'retry_after' });
    const punch = acquire(b, Priority.punch, 'punch');
    const roster = acquire(b, Priority.roster, 'roster');
    await Promise.all([punch.ticket, roster.ticket]);
    expect(punch.grantedAt()).toBe(5_000);
    expect(roster.grantedAt()).toBe(5_000);
    expect(b.pause()).toBeNull();
  });

  it('giveBack returns a slot that was never used', async () => {
    const b = budget({ limit: 1, windowMs: 60_000 });
    const unused = await take(b);
    b.giveBack(unused);
    expect(b.inUse()).toBe(0);
    const next = acquire(b, Priority.punch, 'next');
    await next.ticket;
    expect(next.grantedAt()).toBe(0);
    expect(time.sleeps).toEqual([]);
    expect(rows(db).map((r) => r.purpose)).toEqual(['next']);
  });

  it('resolves a waiter with null when its signal aborts', async () => {
    const b = budget({ limit: 1, windowMs: 1_000 });
    await take(b);
    const ac = new AbortController();
    const waiting = b.acquire(Priority.punch, 'x', { signal: ac.signal });
    await turns(2);
    ac.abort();
    expect(await waiting).toBeNull();
    expect(await b.acquire(Priority.punch, 'y', { signal: ac.signal })).toBeNull();
    expect(rows(db)).toHaveLength(1);
  });

  it('after a restart counts the slots taken before, closing in-flight ones at restart time', async () => {
    const rule = { limit: 3, windowMs: 1_000 };
    const before = budget(rule);
    const a = await take(before);
    const b = await take(before);
    await take(before); // still in flight when the process dies
    before.release(a, 100);
    before.release(b, 100);
    db.close();

    time.t = 500;
    const db2 = openDatabase(dir);
    open.push(db2);
    const after = budget(rule, db2);
    expect(rows(db2).map((r) => r.released_at)).toEqual([100, 100, 500]);
    expect(after.inUse()).toBe(3);

    const next = [1, 2, 3].map((i) => acquire(after, Priority.punch, `after-${i}`));
    await Promise.all(next.map((n) => n.ticket));
    expect(next.map((n) => n.grantedAt())).toEqual([1_100, 1_100, 1_500]);
  });
});

describe('RateBudget rule changes (admin screen)', () => {
  it('a lower limit holds the next waiter at once; slots already held stay counted', async () => {
    const b = budget({ limit: 5, windowMs: 1_000 });
    const held = [await take(b), await take(b)];
    b.setRule({ limit: 2, windowMs: 1_000 });
    expect(b.limit).toBe(2);
    expect(b.inUse()).toBe(2);
    const next = acquire(b, Priority.punch, 'next');
    await turns(5);
    expect(next.grantedAt()).toBeNull();
    time.t = 100;
    for (const t of held) b.release(t);
    await next.ticket;
    expect(next.grantedAt()).toBe(1_100);
  });

  it('a longer window brings back, from the persisted log, slots the shorter one had let go', async () => {
    const b = budget({ limit: 2, windowMs: 1_000 });
    b.release(await take(b), 0);
    b.release(await take(b), 0);
    time.t = 1_500; // out of a 1 s window, inside a 5 s one
    const free = await take(b);
    b.giveBack(free);
    b.setRule({ limit: 2, windowMs: 5_000 });
    expect(b.inUse()).toBe(2);
    const next = acquire(b, Priority.punch, 'next');
    await next.ticket;
    expect(next.grantedAt()).toBe(5_000);
  });

  it('a refused token holds everybody but the check of a new token', async () => {
    const b = budget({ limit: 5, windowMs: 1_000 }, db, false);
    b.pauseUntil(60_000, 'auth');
    const punch = acquire(b, Priority.punch, 'punch');
    const check = b.acquire(Priority.punch, 'token-check', { signal: stop.signal, duringAuthPause: true });
    expect(await check).not.toBeNull();
    expect(time.t).toBe(0);
    expect(punch.grantedAt()).toBeNull();
    b.pauseUntil(60_000, 'retry_after');
    b.resume();
    await punch.ticket;
    expect(punch.grantedAt()).toBe(0);
  });

  it('a 429 pause holds even the check of a new token', async () => {
    const b = budget({ limit: 5, windowMs: 1_000 });
    b.pauseUntil(2_000, 'retry_after');
    let at: number | null = null;
    await b
      .acquire(Priority.punch, 'token-check', { signal: stop.signal, duringAuthPause: true })
      .then(() => (at = time.t));
    expect(at).toBe(2_000);
  });
});
