/**
 * PIN rules, pure: the format a PIN must have, the per-employee lockout after repeated wrong PINs,
 * and the terminal-wide slow-down of repeated failures. No I/O, no clock: every `now` is passed in
 * (docs/DESIGN.md "Floors"); src/store/roster/pins.ts keeps the state and does the hashing (the
 * per-employee counts in pin-attempts.ts).
 */

export type PinFormatCheck = { ok: true } | { ok: false; reason: string };

export const PIN_MIN_DIGITS = 4;
export const PIN_MAX_DIGITS = 8;

const PIN_RE = /^[0-9]{4,8}$/;

/** A PIN is 4 to 8 ASCII digits (0-9 only: no spaces, signs, or other scripts' digits). */
export function checkPinFormat(pin: string): PinFormatCheck {
  if (PIN_RE.test(pin)) return { ok: true };
  if (pin.length === 0) return { ok: false, reason: 'the PIN is empty' };
  if (!/^[0-9]*$/.test(pin)) return { ok: false, reason: 'a PIN may contain only the digits 0-9' };
  if (pin.length < PIN_MIN_DIGITS) return { ok: false, reason: `a PIN has at least ${PIN_MIN_DIGITS} digits` };
  return { ok: false, reason: `a PIN has at most ${PIN_MAX_DIGITS} digits` };
}

/** Per-employee lockout: `maxFailures` wrong PINs in a row lock the employee for `lockoutMs`. */
export type PinPolicy = { maxFailures: number; lockoutMs: number };

/** What is kept per employee: wrong PINs in a row, and the end of the current lock (UTC ms). */
export type AttemptState = { failures: number; lockedUntil: number | null };

export const FRESH_ATTEMPTS: AttemptState = Object.freeze({ failures: 0, lockedUntil: null });

/** Locked while `now` is before `lockedUntil`; an expired lock counts as no lock at all. */
export function lockState(state: AttemptState, now: number): { locked: boolean; until: number | null } {
  if (state.lockedUntil !== null && now < state.lockedUntil) return { locked: true, until: state.lockedUntil };
  return { locked: false, until: null };
}

/**
 * The state as the next attempt sees it: once a lock has run out, the count starts afresh (a lock
 * is the price of `maxFailures` wrong PINs; after it, the employee gets the full allowance again).
 */
export function currentAttempts(state: AttemptState, now: number): AttemptState {
  if (state.lockedUntil !== null && now >= state.lockedUntil) return { failures: 0, lockedUntil: null };
  return state;
}

/** Wrong PINs still allowed before the next one locks (0 while locked). */
export function remainingAttempts(state: AttemptState, now: number, policy: PinPolicy): number {
  if (lockState(state, now).locked) return 0;
  return Math.max(0, policy.maxFailures - currentAttempts(state, now).failures);
}

/**
 * After a wrong PIN that was actually checked. The `maxFailures`-th in a row locks until
 * `now + lockoutMs`. While a lock holds nothing changes: a refused attempt is not checked, so it
 * neither counts nor extends the lock.
 */
export function afterFailure(state: AttemptState, now: number, policy: PinPolicy): AttemptState {
  if (lockState(state, now).locked) return state;
  const failures = currentAttempts(state, now).failures + 1;
  if (failures >= policy.maxFailures) return { failures, lockedUntil: now + policy.lockoutMs };
  return { failures, lockedUntil: null };
}

/** After the right PIN: the count of wrong ones in a row is back to zero. */
export function afterSuccess(): AttemptState {
  return { failures: 0, lockedUntil: null };
}

/**
 * Terminal-wide slow-down, whatever the employee: with more than `freeFailures` failed PIN
 * checks inside the last `windowMs`, each failure beyond the allowance makes the terminal wait
 * `stepMs` more after the latest failure before it checks another PIN, up to `maxWaitMs`.
 */
export type ThrottlePolicy = { windowMs: number; freeFailures: number; stepMs: number; maxWaitMs: number };

export const DEFAULT_THROTTLE: ThrottlePolicy = Object.freeze({
  windowMs: 60_000,
  freeFailures: 10,
  stepMs: 2_000,
  maxWaitMs: 30_000,
});

/** Failures inside the window ending at `now`: those at `t > now - windowMs`. */
export function recentFailureCount(recentFailureTimes: readonly number[], now: number, p: ThrottlePolicy): number {
  let n = 0;
  for (const t of recentFailureTimes) if (t > now - p.windowMs) n++;
  return n;
}

/**
 * Milliseconds from `now` until the terminal may check another PIN: 0 while the failures in the
 * window are within the free allowance; otherwise the required gap after the latest failure
 * (`(count - freeFailures) * stepMs`, at most `maxWaitMs`) minus the time already gone since it.
 * Never more than `maxWaitMs`, even if the clock stepped backwards.
 */
export function throttleWait(recentFailureTimes: readonly number[], now: number, p: ThrottlePolicy): number {
  let count = 0;
  let latest = Number.NEGATIVE_INFINITY;
  for (const t of recentFailureTimes) {
    if (t > now - p.windowMs) {
      count++;
      if (t > latest) latest = t;
    }
  }
  if (count <= p.freeFailures) return 0;
  const gap = Math.min(p.maxWaitMs, (count - p.freeFailures) * p.stepMs);
  return Math.max(0, Math.min(gap, latest + gap - now));
}

/**
 * How many of the latest failure times can matter to `throttleWait`: once that many are in the
 * window the wait is already at its cap, so older ones may be forgotten (bounded memory).
 */
export function throttleMemory(p: ThrottlePolicy): number {
  const steps = p.stepMs > 0 ? Math.ceil(p.maxWaitMs / p.stepMs) : 0;
  return Math.max(1, p.freeFailures + steps + 1);
}

/**
 * How long after its last wrong PIN an employee's next attempt must wait: nothing after the first
 * (a typo), then 1 s, 2 s, 4 s… up to 30 s. Slows guessing; a person retyping barely notices.
 */
export function attemptDelayMs(failures: number): number {
  if (failures < 2) return 0;
  return Math.min(30_000, 1_000 * 2 ** Math.min(failures - 2, 15));
}
