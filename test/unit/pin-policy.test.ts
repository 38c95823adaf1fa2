import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  afterSuccess,
  checkPinFormat,
  DEFAULT_THROTTLE,
  lockState,
  remainingAttempts,
  throttleMemory,
  throttleWait,
  type AttemptState,
  type PinPolicy,
  type ThrottlePolicy,
} from '../../src/domain/people/pin-policy.js';

const policy: PinPolicy = { maxFailures: 5, lockoutMs: 15 * 60_000 };
const T0 = 1_795_000_000_000;
const fresh: AttemptState = { failures: 0, lockedUntil: null };

function failTimes(n: number, now: number, p: PinPolicy = policy, start: AttemptState = fresh): AttemptState {
  let s = start;
  for (let i = 0; i < n; i++) s = afterFailure(s, now, p);
  return s;
}

describe('checkPinFormat', () => {
  it.each(['0000', '1234', '739146', '12345678', '00000000'])('accepts %j', (pin) => {
    expect(checkPinFormat(pin)).toEqual({ ok: true });
  });

  it.each([
    ['', /empty/],
    ['123', /at least 4/],
    ['123456789', /at most 8/],
    ['12a4', /only the digits/],
    ['12 34', /only the digits/],
    [' 1234', /only the digits/],
    ['1234\n', /only the digits/],
    ['-123', /only the digits/],
    ['１２３４', /only the digits/], // full-width digits
    ['١٢٣٤', /only the digits/], // Arabic-Indic digits
    ['12.4', /only the digits/],
  ])('refuses %j with a clear reason', (pin, reason) => {
    const r = checkPinFormat(pin);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('per-employee lockout', () => {
  it('the 5th wrong PIN in a row locks until now + lockoutMs, and not before', () => {
    let s = fresh;
    for (let i = 1; i <= 4; i++) {
      s = afterFailure(s, T0 + i, policy);
      expect(s).toEqual({ failures: i, lockedUntil: null });
      expect(lockState(s, T0 + i)).toEqual({ locked: false, until: null });
      expect(remainingAttempts(s, T0 + i, policy)).toBe(5 - i);
    }
    s = afterFailure(s, T0 + 5, policy);
    expect(s).toEqual({ failures: 5, lockedUntil: T0 + 5 + policy.lockoutMs });
    expect(lockState(s, T0 + 5)).toEqual({ locked: true, until: T0 + 5 + policy.lockoutMs });
    expect(remainingAttempts(s, T0 + 5, policy)).toBe(0);
  });

  it('stays locked up to the last millisecond and is unlocked at lockedUntil', () => {
    const s = failTimes(5, T0);
    expect(lockState(s, T0 + policy.lockoutMs - 1).locked).toBe(true);
    expect(lockState(s, T0 + policy.lockoutMs)).toEqual({ locked: false, until: null });
  });

  it('a failure while locked changes nothing (neither counts nor extends the lock)', () => {
    const s = failTimes(5, T0);
    expect(afterFailure(s, T0 + 1_000, policy)).toEqual(s);
  });

  it('an expired lock gives a fresh count', () => {
    const locked = failTimes(5, T0);
    const later = T0 + policy.lockoutMs + 1;
    expect(remainingAttempts(locked, later, policy)).toBe(5);
    const s = afterFailure(locked, later, policy);
    expect(s).toEqual({ failures: 1, lockedUntil: null });
    expect(failTimes(4, later, policy, s)).toEqual({ failures: 5, lockedUntil: later + policy.lockoutMs });
  });

  it('success resets the count', () => {
    const s = failTimes(4, T0);
    expect(remainingAttempts(s, T0, policy)).toBe(1);
    const reset = afterSuccess();
    expect(reset).toEqual(fresh);
    expect(remainingAttempts(reset, T0, policy)).toBe(5);
    // after a success, four more wrong ones still do not lock; the fifth does
    expect(failTimes(4, T0, policy, reset).lockedUntil).toBeNull();
    expect(failTimes(5, T0, policy, reset).lockedUntil).toBe(T0 + policy.lockoutMs);
  });

  it('maxFailures = 1 locks on the first wrong PIN', () => {
    expect(afterFailure(fresh, T0, { maxFailures: 1, lockoutMs: 1_000 })).toEqual({
      failures: 1,
      lockedUntil: T0 + 1_000,
    });
  });

  it('property: no more than maxFailures wrong PINs in a row are ever checked before a lock', () => {
    type Step = { gapMs: number; right: boolean };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 120_000 }), right: fc.boolean() }), { maxLength: 200 }),
        (maxFailures, lockoutMs, steps: Step[]) => {
          const p: PinPolicy = { maxFailures, lockoutMs };
          let s: AttemptState = fresh;
          let now = T0;
          let checkedWrongInARow = 0;
          for (const step of steps) {
            now += step.gapMs;
            if (lockState(s, now).locked) {
              // refused without a check: state must not move
              expect(afterFailure(s, now, p)).toEqual(s);
              continue;
            }
            if (step.right) {
              s = afterSuccess();
              checkedWrongInARow = 0;
              continue;
            }
            s = afterFailure(s, now, p);
            checkedWrongInARow++;
            expect(checkedWrongInARow).toBeLessThanOrEqual(maxFailures);
            if (lockState(s, now).locked) {
              expect(checkedWrongInARow).toBe(maxFailures);
              expect(s.lockedUntil).toBe(now + lockoutMs);
              checkedWrongInARow = 0; // a lock must run out before any further check
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('throttleWait (terminal-wide slow-down)', () => {
  const p: ThrottlePolicy = { windowMs: 60_000, freeFailures: 10, stepMs: 2_000, maxWaitMs: 30_000 };
  const at = (n: number, t: number): number[] => Array.from({ length: n }, () => t);

  it('the default is 60 s window, 10 free failures, +2 s each beyond, at most 30 s', () => {
    expect(DEFAULT_THROTTLE).toEqual(p);
  });

  it('no failures, or exactly freeFailures, costs nothing', () => {
    expect(throttleWait([], T0, p)).toBe(0);
    expect(throttleWait(at(10, T0), T0, p)).toBe(0);
  });

  it('one beyond the allowance waits stepMs after the latest failure', () => {
    expect(throttleWait(at(11, T0), T0, p)).toBe(2_000);
    expect(throttleWait(at(12, T0), T0, p)).toBe(4_000);
  });

  it('counts down from the latest failure', () => {
    const times = [...at(10, T0 - 5_000), T0];
    expect(throttleWait(times, T0 + 500, p)).toBe(1_500);
    expect(throttleWait(times, T0 + 2_000, p)).toBe(0);
    expect(throttleWait(times, T0 + 9_000, p)).toBe(0);
  });

  it('is capped at maxWaitMs', () => {
    expect(throttleWait(at(25, T0), T0, p)).toBe(30_000);
    expect(throttleWait(at(1_000, T0), T0, p)).toBe(30_000);
  });

  it('never more than maxWaitMs even when the failures lie in the future (clock stepped back)', () => {
    expect(throttleWait(at(100, T0 + 3_600_000), T0, p)).toBe(30_000);
  });

  it('ignores failures older than the window', () => {
    const old = at(50, T0 - 60_000); // exactly one window ago: out
    expect(throttleWait(old, T0, p)).toBe(0);
    expect(throttleWait([...old, ...at(10, T0)], T0, p)).toBe(0);
    expect(throttleWait([...at(50, T0 - 59_999), ...at(1, T0)], T0, p)).toBe(30_000);
    expect(throttleWait([...at(1, T0 - 59_999), ...at(10, T0)], T0, p)).toBe(2_000);
  });

  it('property: keeping only the latest throttleMemory() failures never changes the answer', () => {
    fc.assert(
      fc.property(
        fc.record({
          windowMs: fc.integer({ min: 1, max: 120_000 }),
          freeFailures: fc.integer({ min: 0, max: 20 }),
          stepMs: fc.integer({ min: 0, max: 10_000 }),
          maxWaitMs: fc.integer({ min: 0, max: 60_000 }),
        }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 200_000 }),
        (tp, offsets, nowOffset) => {
          const times = offsets.map((o) => T0 + o).sort((a, b) => a - b);
          const now = T0 + Math.max(nowOffset, times.length ? (times[times.length - 1] as number) - T0 : 0);
          const keep = throttleMemory(tp);
          const wait = throttleWait(times, now, tp);
          expect(throttleWait(times.slice(Math.max(0, times.length - keep)), now, tp)).toBe(wait);
          expect(wait).toBeGreaterThanOrEqual(0);
          expect(wait).toBeLessThanOrEqual(tp.maxWaitMs);
        },
      ),
      { numRuns: 300 },
    );
  });
});
