/**
 * The audit's reads (sync/reads/audit-compare.ts) in the one rate budget: after punches and roster
 * pages, never into the punch reserve, standing aside while punches are due; and how its requests
 * are planned (one per employee and run of days, never more than one per employee-day).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock, Sleep } from '../../src/domain/time/clock.js';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { planRequests } from '../../src/sync/reads/audit-compare.js';
import { Priority, RateBudget, type SlotTicket } from '../../src/sync/window/rate-budget.js';
import { tempDir } from '../helpers/temp.js';

/** Fake time: a sleep moves the clock by its length one macrotask later (nothing real waits). */
class FakeTime {
  t = 0;
  readonly clock: Clock = { now: () => this.t };
  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = (): void => resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
      setImmediate(() => {
        signal?.removeEventListener('abort', onAbort);
        if (!signal?.aborted) this.t += ms;
        resolve();
      });
    });
}

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

let db: Db;
let cleanup: () => void;
let time: FakeTime;
let stop: AbortController;

beforeEach(() => {
  const t = tempDir('timeclock-audit-rate-');
  cleanup = t.cleanup;
  db = openDatabase(t.dir);
  time = new FakeTime();
  stop = new AbortController();
});

afterEach(async () => {
  stop.abort();
  await turns(3);
  db.close();
  cleanup();
});

function budget(limit: number, reserveShare = 0): RateBudget {
  return new RateBudget({
    store: new RateSlots(db),
    clock: time.clock,
    sleep: time.sleep,
    rule: { limit, windowMs: 1_000 },
    adaptive: { adapt: false },
    reserveShare,
  });
}

function acquire(
  b: RateBudget,
  priority: Priority,
  purpose: string,
  order: string[],
  standAside?: () => boolean,
): Promise<SlotTicket | null> {
  return b.acquire(priority, purpose, { signal: stop.signal, ...(standAside ? { standAside } : {}) }).then((t) => {
    if (t) order.push(`${purpose}@${time.t}`);
    return t;
  });
}

describe('the audit priority', () => {
  it('is served last: after a roster page and a punch that queued after it', async () => {
    const b = budget(1);
    const first = await b.acquire(Priority.punch, 'first', { signal: stop.signal });
    b.release(first as SlotTicket, 0);
    const order: string[] = [];
    const audit = acquire(b, Priority.audit, 'audit', order);
    const roster = acquire(b, Priority.roster, 'roster', order);
    const punch = acquire(b, Priority.punch, 'punch', order);
    b.release((await punch) as SlotTicket);
    b.release((await roster) as SlotTicket);
    await audit;
    expect(order).toEqual(['punch@1000', 'roster@2000', 'audit@3000']);
  });

  it('never takes the punch reserve: with 4 slots and a quarter kept, the fourth waits for a window', async () => {
    const b = budget(4, 0.25);
    const order: string[] = [];
    for (const n of [1, 2, 3, 4]) void acquire(b, Priority.audit, `audit${n}`, order);
    await turns(10);
    expect(order).toEqual(['audit1@0', 'audit2@0', 'audit3@0']);
    // The reserved slot is there for a punch at once; the fourth read still waits.
    const at = time.t;
    await acquire(b, Priority.punch, 'punch', order);
    expect(order).toEqual(['audit1@0', 'audit2@0', 'audit3@0', `punch@${at}`]);
  });

  it('stands aside while punches are due, and goes once poked after they left', async () => {
    const b = budget(5);
    let due = true;
    const order: string[] = [];
    const audit = acquire(b, Priority.audit, 'audit', order, () => due);
    await turns(10);
    expect(order).toEqual([]);
    due = false;
    b.poke();
    await audit;
    expect(order).toHaveLength(1);
  });
});

describe('planning the audit’s requests', () => {
  const group = (days: string[]) => ({
    ref: { kind: 'external_id' as const, value: '1001' },
    label: '1001',
    days: new Map(days.map((d) => [d, []])),
  });

  it('one request for an employee’s days within the span, a new one past it; never more than the days', () => {
    const g = group(['2026-03-02', '2026-03-03', '2026-03-20', '2026-04-05']);
    expect(planRequests([g], 31).map((r) => r.days)).toEqual([
      ['2026-03-02', '2026-03-03', '2026-03-20'],
      ['2026-04-05'],
    ]);
    expect(planRequests([g], 1).map((r) => r.days)).toEqual([
      ['2026-03-02'],
      ['2026-03-03'],
      ['2026-03-20'],
      ['2026-04-05'],
    ]);
    expect(planRequests([g, group(['2026-03-02'])], 7)).toHaveLength(4);
  });
});

describe('the self-service priority (the employee’s day)', () => {
  it('goes only while the window is nearly empty: with 20 slots and a tenth for it, the third read waits while a punch still goes at once', async () => {
    const b = new RateBudget({
      store: new RateSlots(db),
      clock: time.clock,
      sleep: time.sleep,
      rule: { limit: 20, windowMs: 1_000 },
      adaptive: { adapt: false },
      reserveShare: 0,
      selfServiceShare: 0.1,
    });
    const order: string[] = [];
    for (const n of [1, 2, 3]) void acquire(b, Priority.selfService, `self${n}`, order);
    await turns(10);
    expect(order).toEqual(['self1@0', 'self2@0']);
    const at = time.t;
    await acquire(b, Priority.punch, 'punch', order);
    expect(order).toEqual(['self1@0', 'self2@0', `punch@${at}`]);
  });

  it('counts every slot in the window, not only its own: after 2 punches, no read until they leave the window', async () => {
    const b = new RateBudget({
      store: new RateSlots(db),
      clock: time.clock,
      sleep: time.sleep,
      rule: { limit: 20, windowMs: 1_000 },
      adaptive: { adapt: false },
      reserveShare: 0,
      selfServiceShare: 0.1,
    });
    const order: string[] = [];
    for (const p of ['p1', 'p2'])
      b.release((await b.acquire(Priority.punch, p, { signal: stop.signal })) as SlotTicket, 0);
    await acquire(b, Priority.selfService, 'self', order);
    expect(order).toEqual(['self@1000']);
  });
});
