/**
 * The PIN store (src/store/roster/pins.ts, its counts in pin-attempts.ts) counting wrong PINs: the
 * lock after maxFailures (per employee, kept across a restart, not fooled by concurrent attempts),
 * malformed PINs not counted, the terminal-wide throttle after many failures, and the wait between
 * attempts that grows with wrong PINs in a row. What the store keeps and audits: pins.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { attemptDelayMs, DEFAULT_THROTTLE, type ThrottlePolicy } from '../../src/domain/people/pin-policy.js';
import { attemptEntries, PIN, pinStores, POLICY, T0, WRONG } from '../helpers/pin-store.js';

const { setup, open } = pinStores();

describe('PIN store', () => {
  it('right PIN passes; 4 wrong leave one; the 5th locks for lockoutMs, even against the right PIN; then a fresh count', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });

    for (let i = 1; i <= 4; i++) {
      s.clock.advance(1_000);
      expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({
        ok: false,
        reason: 'wrong',
        remaining: 5 - i,
      });
    }
    s.clock.advance(1_000);
    const lockedAt = s.clock.now();
    expect(await s.pins.verify('emp-a', WRONG[1] as string)).toEqual({
      ok: false,
      reason: 'locked',
      until: lockedAt + POLICY.lockoutMs,
    });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 5, lockedUntil: lockedAt + POLICY.lockoutMs });

    // Locked: even the right PIN is refused, and refusals neither count nor extend the lock.
    expect(await s.pins.verify('emp-a', PIN)).toEqual({
      ok: false,
      reason: 'locked',
      until: lockedAt + POLICY.lockoutMs,
    });
    s.clock.advance(POLICY.lockoutMs - 1);
    expect(await s.pins.verify('emp-a', WRONG[2] as string)).toEqual({
      ok: false,
      reason: 'locked',
      until: lockedAt + POLICY.lockoutMs,
    });
    expect(await s.pins.verify('emp-a', PIN)).toEqual({
      ok: false,
      reason: 'locked',
      until: lockedAt + POLICY.lockoutMs,
    });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 5, lockedUntil: lockedAt + POLICY.lockoutMs });

    // The lock runs out: the right PIN works.
    s.clock.advance(1);
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 0, lockedUntil: null });
    // ...and the count is fresh: four more wrong ones do not lock.
    for (let i = 1; i <= 4; i++) {
      expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({
        ok: false,
        reason: 'wrong',
        remaining: 5 - i,
      });
    }
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it('after an expired lock, a wrong PIN starts the count afresh', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    for (let i = 0; i < 5; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    expect(s.pins.attempts('emp-a').lockedUntil).toBe(T0 + POLICY.lockoutMs);
    s.clock.advance(POLICY.lockoutMs + 60_000);
    expect(await s.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 4 });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 1, lockedUntil: null });
  });

  it('the lock of one employee does not touch another', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    await s.pins.set('emp-b', PIN);
    for (let i = 0; i < 5; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    expect(await s.pins.verify('emp-a', PIN)).toMatchObject({ reason: 'locked' });
    expect(await s.pins.verify('emp-b', PIN)).toEqual({ ok: true });
  });

  it('a restart does not unlock: the count and the lock live in the database', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    for (let i = 0; i < 3; i++) await s.pins.verify('emp-a', WRONG[0] as string);
    s.db.close();

    let r = open(s.dir, s.clock);
    expect(await r.pins.verify('emp-a', WRONG[0] as string)).toEqual({ ok: false, reason: 'wrong', remaining: 1 });
    expect(await r.pins.verify('emp-a', WRONG[0] as string)).toEqual({
      ok: false,
      reason: 'locked',
      until: T0 + POLICY.lockoutMs,
    });
    r.db.close();

    r = open(s.dir, s.clock);
    expect(await r.pins.verify('emp-a', PIN)).toEqual({ ok: false, reason: 'locked', until: T0 + POLICY.lockoutMs });
    s.clock.advance(POLICY.lockoutMs);
    expect(await r.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it("a malformed PIN answers 'bad_format' and is not counted, audited or throttled", async () => {
    const s = setup({ throttle: { windowMs: 60_000, freeFailures: 0, stepMs: 5_000, maxWaitMs: 30_000 } });
    await s.pins.set('emp-a', PIN);
    for (const bad of ['', '12', '123456789', '12a4', ' 7391', '７３９１４６']) {
      expect(await s.pins.verify('emp-a', bad)).toEqual({ ok: false, reason: 'bad_format' });
    }
    expect(await s.pins.verify('emp-nobody', '1')).toEqual({ ok: false, reason: 'bad_format' });
    expect(s.pins.attempts('emp-a')).toEqual({ failures: 0, lockedUntil: null });
    expect(attemptEntries(s.audit)).toEqual([]);
    // freeFailures is 0: had any of those counted, this would be throttled
    expect(await s.pins.verify('emp-a', PIN)).toEqual({ ok: true });
  });

  it('the terminal slows down after many failures across different employees, and eases off with time', async () => {
    const s = setup({ throttle: DEFAULT_THROTTLE });
    const ids = Array.from({ length: 14 }, (_, i) => `emp-${i}`);
    for (const id of ids) await s.pins.set(id, PIN);

    // 11 wrong PINs, one per employee (no per-employee lock involved): 10 are free, the 11th is checked too.
    for (let i = 0; i <= 10; i++) {
      expect(await s.pins.verify(ids[i] as string, WRONG[0] as string)).toEqual({
        ok: false,
        reason: 'wrong',
        remaining: 4,
      });
      s.clock.advance(100);
    }
    const lastFailure = s.clock.now() - 100;
    // One beyond the allowance: wait stepMs after the latest failure, whoever comes next, right PIN or not.
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 1_900 });
    expect(await s.pins.verify(ids[12] as string, WRONG[1] as string)).toEqual({
      ok: false,
      reason: 'throttled',
      waitMs: 1_900,
    });
    // a throttled attempt is not checked and does not count against the employee
    expect(s.pins.attempts(ids[12] as string)).toEqual({ failures: 0, lockedUntil: null });
    s.clock.t = lastFailure + 1_999;
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 1 });
    s.clock.t = lastFailure + 2_000;
    expect(await s.pins.verify(ids[11] as string, PIN)).toEqual({ ok: true });

    // Another failure: 12 in the window, so two steps.
    expect(await s.pins.verify(ids[12] as string, WRONG[1] as string)).toMatchObject({ reason: 'wrong' });
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 4_000 });
    // A "no PIN" answer is a failure too.
    s.clock.advance(4_000);
    expect(await s.pins.verify('emp-unknown', PIN)).toEqual({ ok: false, reason: 'no_pin' });
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: false, reason: 'throttled', waitMs: 6_000 });

    // Once the window has passed over those failures, nothing holds the terminal back.
    s.clock.advance(DEFAULT_THROTTLE.windowMs);
    expect(await s.pins.verify(ids[13] as string, PIN)).toEqual({ ok: true });
    expect(await s.pins.verify(ids[12] as string, PIN)).toEqual({ ok: true });

    const throttled = s.audit.recent().filter((e) => e.event === 'pin_throttled');
    expect(throttled).toHaveLength(5);
    expect(throttled.every((e) => e.employeeId !== null && /wait \d+ ms/.test(e.detail ?? ''))).toBe(true);
  });

  it('the throttle wait grows by stepMs per failure and is capped at maxWaitMs', async () => {
    const throttle: ThrottlePolicy = { windowMs: 600_000, freeFailures: 2, stepMs: 1_000, maxWaitMs: 3_000 };
    const s = setup({ throttle });
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await s.pins.verify(`nobody-${i}`, PIN);
      if (r.ok === false && r.reason === 'throttled') {
        waits.push(r.waitMs);
        s.clock.advance(r.waitMs);
        expect(await s.pins.verify(`nobody-${i}`, PIN)).toEqual({ ok: false, reason: 'no_pin' });
      } else {
        expect(r).toEqual({ ok: false, reason: 'no_pin' });
      }
    }
    expect(waits).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
  });

  it('concurrent wrong PINs for one employee cannot get past the lock', async () => {
    const s = setup();
    await s.pins.set('emp-a', PIN);
    const results = await Promise.all(Array.from({ length: 8 }, () => s.pins.verify('emp-a', WRONG[0] as string)));
    expect(results.filter((r) => r.ok === false && r.reason === 'wrong')).toHaveLength(4);
    expect(results.filter((r) => r.ok === false && r.reason === 'locked')).toHaveLength(4);
    const events = attemptEntries(s.audit).map((e) => e.event);
    expect(events.filter((e) => e === 'pin_locked')).toHaveLength(1);
    expect(events.filter((e) => e === 'pin_refused_locked')).toHaveLength(3);
  });
});

describe('PIN store: the wait between attempts grows with wrong PINs in a row', () => {
  it('the first retry is free (a typo); then 1 s, 2 s… before the next try counts; a right PIN resets it', async () => {
    const { pins, clock } = setup({ attemptDelay: attemptDelayMs });
    await pins.set('emp-d', '739146');
    expect(await pins.verify('emp-d', '000001')).toMatchObject({ reason: 'wrong' });
    // at once: no wait after one failure
    expect(await pins.verify('emp-d', '000002')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: false, reason: 'throttled', waitMs: 1_000 });
    clock.advance(1_000);
    expect(await pins.verify('emp-d', '000003')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: false, reason: 'throttled', waitMs: 2_000 });
    clock.advance(2_000);
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: true });
    expect(await pins.verify('emp-d', '000004')).toMatchObject({ reason: 'wrong' });
    expect(await pins.verify('emp-d', '739146')).toEqual({ ok: true }); // one failure: no wait
  });
});
