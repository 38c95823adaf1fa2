import crypto from 'node:crypto';
import type { Clock } from '../../domain/time/clock.js';
import {
  attemptDelayMs,
  checkPinFormat,
  currentAttempts,
  DEFAULT_THROTTLE,
  lockState,
  throttleMemory,
  throttleWait,
  type AttemptState,
  type PinPolicy,
  type ThrottlePolicy,
} from '../../domain/people/pin-policy.js';
import type { AuditLog } from './audit-log.js';
import { PinAttempts, type PinCheck } from './pin-attempts.js';
import {
  DEFAULT_SCRYPT_PARAMS,
  isInt,
  PIN_SALT_BYTES,
  parseStoredParams,
  scrypt,
  validScryptParams,
  type ScryptParams,
  type StoredParams,
} from './pin-hash.js';
import type { Db, WritableDb } from '../database.js';

const HAS_PIN = 'SELECT 1 FROM employee_pins WHERE employee_id = ?';

/** Whether `employeeId` has a PIN set: a read, on any connection (`timeclock doctor`'s is read-only). */
export function hasPin(db: Db, employeeId: string): boolean {
  return db.prepare(HAS_PIN).get(employeeId) !== undefined;
}

export { DEFAULT_SCRYPT_PARAMS, PIN_SALT_BYTES, type ScryptParams } from './pin-hash.js';

/**
 * `attemptDelay`: the wait an employee's next attempt needs after `failures` wrong PINs in a row (default
 * `attemptDelayMs`).
 */
export type PinsOptions = {
  throttle?: ThrottlePolicy;
  scryptParams?: ScryptParams;
  attemptDelay?: (failures: number) => number;
};

type PinRow = { salt: Buffer; hash: Buffer; params: string };
/** What the PIN store is built from, with its options. */
export type PinsDeps = PinsOptions & { db: WritableDb; clock: Clock; policy: PinPolicy; audit: AuditLog };

/**
 * Employees' PINs, the second factor after their ID. Only scrypt hashes with a per-employee
 * random salt are stored (never the PIN); checks compare in constant time. Wrong PINs count per
 * employee in `pin_attempts` (so a restart does not unlock anyone); the terminal-wide slow-down
 * keeps its recent failure times in memory. Every set, clear and attempt goes to the audit log,
 * with the employee id and never the PIN.
 *
 * Checks run one at a time (a queue), so concurrent guesses can neither slip past the throttle
 * nor race the per-employee count.
 */
export class Pins {
  private readonly stmts;
  /** The wrong-PIN count and lock per employee, in `pin_attempts` (pin-attempts.ts). */
  private readonly counts: PinAttempts;
  private readonly throttle: ThrottlePolicy;
  private readonly params: ScryptParams;
  /** Salt of the decoy hash computed when an employee has no PIN, so timing does not tell. */
  private readonly dummySalt = crypto.randomBytes(PIN_SALT_BYTES);
  private recentFailures: number[] = [];
  /** The last wrong PIN per employee (in memory: a restart forgets it, the failure count stays). Bounded below. */
  private readonly lastFailureAt = new Map<string, number>();
  private readonly attemptDelay: (failures: number) => number;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly d: PinsDeps) {
    const { db, policy } = d;
    if (
      !isInt(policy.maxFailures, 1, Number.MAX_SAFE_INTEGER) ||
      !isInt(policy.lockoutMs, 0, Number.MAX_SAFE_INTEGER)
    ) {
      throw new Error(`invalid PIN policy: maxFailures must be an integer >= 1 and lockoutMs an integer >= 0`);
    }
    this.throttle = d.throttle ?? DEFAULT_THROTTLE;
    this.attemptDelay = d.attemptDelay ?? attemptDelayMs;
    const params = d.scryptParams ?? DEFAULT_SCRYPT_PARAMS;
    if (!validScryptParams(params)) {
      throw new Error(
        `invalid scrypt parameters ${JSON.stringify(params)}: N must be a power of two (2..2^22), r 1..32, p 1..16, keylen 16..64`,
      );
    }
    this.params = { N: params.N, r: params.r, p: params.p, keylen: params.keylen };
    this.counts = new PinAttempts({ db, policy, audit: d.audit });
    this.stmts = {
      pin: db.prepare('SELECT salt, hash, params FROM employee_pins WHERE employee_id = ?'),
      hasPin: db.prepare(HAS_PIN),
      upsertPin: db.prepare(
        `INSERT INTO employee_pins (employee_id, salt, hash, params, set_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (employee_id) DO UPDATE SET salt = excluded.salt, hash = excluded.hash, params = excluded.params,
           set_at = excluded.set_at`,
      ),
      deletePin: db.prepare('DELETE FROM employee_pins WHERE employee_id = ?'),
    };
  }

  /**
   * Sets (or replaces) an employee's PIN: a fresh random salt, an scrypt hash, the attempt count
   * reset. Throws with a clear message (never containing the PIN) when the PIN is malformed.
   */
  async set(employeeId: string, pin: string): Promise<void> {
    if (typeof employeeId !== 'string' || employeeId.trim() === '')
      throw new Error('cannot set a PIN: the employee id is empty');
    const format = checkPinFormat(pin);
    if (!format.ok) throw new Error(`cannot set the PIN of employee ${employeeId}: ${format.reason}`);
    const salt = crypto.randomBytes(PIN_SALT_BYTES);
    const hash = await scrypt(pin, salt, this.params);
    const stored: StoredParams = { alg: 'scrypt', ...this.params };
    const now = this.d.clock.now();
    this.d.db.transaction(() => {
      this.stmts.upsertPin.run(employeeId, salt, hash, JSON.stringify(stored), now);
      this.counts.clear(employeeId);
      this.d.audit.record(
        now,
        'pin_set',
        employeeId,
        `scrypt N=${this.params.N} r=${this.params.r} p=${this.params.p}`,
      );
    })();
  }

  /** Removes an employee's PIN (and their attempt count); false when there was none. */
  clear(employeeId: string): boolean {
    const now = this.d.clock.now();
    return this.d.db.transaction((): boolean => {
      const removed = this.stmts.deletePin.run(employeeId).changes > 0;
      this.counts.clear(employeeId);
      if (removed) this.d.audit.record(now, 'pin_cleared', employeeId, null);
      return removed;
    })();
  }

  /**
   * Clears an employee's wrong-PIN count and lock (`timeclock pin unlock` for the manager's), audited
   * with who asked. True when a lock was in force.
   */
  unlock(employeeId: string, by: string): boolean {
    const now = this.d.clock.now();
    return this.d.db.transaction((): boolean => {
      const before = this.attempts(employeeId);
      const wasLocked = lockState(before, now).locked;
      this.counts.clear(employeeId);
      this.lastFailureAt.delete(employeeId);
      this.d.audit.record(
        now,
        'pin_unlocked',
        employeeId,
        `${wasLocked ? 'lock lifted' : 'not locked'} (${before.failures} wrong PINs in a row cleared) by ${by}`,
      );
      return wasLocked;
    })();
  }

  has(employeeId: string): boolean {
    return this.stmts.hasPin.get(employeeId) !== undefined;
  }

  /** The employee's attempt state as stored (for status screens and tests). */
  attempts(employeeId: string): AttemptState {
    return this.counts.read(employeeId);
  }

  /**
   * Checks a PIN. In order: format (a typo of shape is not an attempt) → terminal-wide throttle →
   * the employee's lock → the hash, compared in constant time. The maxFailures-th wrong PIN in a
   * row answers 'locked' with the time the lock ends.
   */
  async verify(employeeId: string, pin: string): Promise<PinCheck> {
    if (!checkPinFormat(pin).ok) return { ok: false, reason: 'bad_format' };
    return this.serial(() => this.check(employeeId, pin));
  }

  /**
   * Whether `pin` is the employee's PIN, compared without counting as their attempt (issue 29: a
   * known ID typed at a PIN prompt is the next person's, unless it is this one's PIN). Not compared
   * (false) while the terminal is slowed down or the employee locked out. A mismatch counts toward
   * the terminal-wide slow-down, never the employee's lockout: known IDs probe a PIN no faster than
   * wrong PINs do.
   */
  async isPinOf(employeeId: string, pin: string): Promise<boolean> {
    if (!checkPinFormat(pin).ok) return false;
    return this.serial(async () => {
      const now = this.d.clock.now();
      this.forgetOldFailures(now);
      if (throttleWait(this.recentFailures, now, this.throttle) > 0 || lockState(this.attempts(employeeId), now).locked)
        return false;
      const row = this.stmts.pin.get(employeeId) as PinRow | undefined;
      if (!row) return false;
      const derived = await scrypt(pin, row.salt, parseStoredParams(row.params, employeeId));
      const match = derived.length === row.hash.length && crypto.timingSafeEqual(derived, row.hash);
      if (!match) this.recentFailures.push(now);
      return match;
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async check(employeeId: string, pin: string): Promise<PinCheck> {
    const now = this.d.clock.now();
    this.forgetOldFailures(now);

    const waitMs = throttleWait(this.recentFailures, now, this.throttle);
    if (waitMs > 0) {
      this.d.audit.record(now, 'pin_throttled', employeeId, `too many wrong PINs on this terminal; wait ${waitMs} ms`);
      return { ok: false, reason: 'throttled', waitMs };
    }

    const attempts = this.attempts(employeeId);
    const lock = lockState(attempts, now);
    if (lock.locked && lock.until !== null) return this.counts.refuseLocked(employeeId, now, lock.until);
    // Each wrong PIN in a row makes the next attempt for this employee wait longer.
    const last = this.lastFailureAt.get(employeeId);
    const delay = last === undefined ? 0 : last + this.attemptDelay(currentAttempts(attempts, now).failures) - now;
    if (delay > 0) {
      this.d.audit.record(now, 'pin_throttled', employeeId, `wrong PINs in a row for this employee; wait ${delay} ms`);
      return { ok: false, reason: 'throttled', waitMs: delay };
    }

    const row = this.stmts.pin.get(employeeId) as PinRow | undefined;
    if (!row) {
      await scrypt(pin, this.dummySalt, this.params);
      this.recentFailures.push(now);
      this.d.audit.record(now, 'pin_no_pin', employeeId, 'no PIN set for this employee');
      return { ok: false, reason: 'no_pin' };
    }

    const derived = await scrypt(pin, row.salt, parseStoredParams(row.params, employeeId));
    const match = derived.length === row.hash.length && crypto.timingSafeEqual(derived, row.hash);
    if (!match) {
      this.recentFailures.push(now);
      this.lastFailureAt.set(employeeId, now);
    } else this.lastFailureAt.delete(employeeId);

    try {
      return this.counts.record(employeeId, match, now);
    } catch {
      // A full disk (or a read-only file) must not lock the manager out of the screen that says so:
      // the answer stands on what can still be read; the in-memory throttle above still slows guessing.
      const again = lockState(currentAttempts(this.attempts(employeeId), now), now);
      if (again.locked && again.until !== null) return { ok: false, reason: 'locked', until: again.until };
      if (match) return { ok: true };
      return {
        ok: false,
        reason: 'wrong',
        remaining: Math.max(
          0,
          this.d.policy.maxFailures - currentAttempts(this.attempts(employeeId), now).failures - 1,
        ),
      };
    }
  }

  /** Keeps only the failure times the throttles can still see (bounded memory under attack). */
  private forgetOldFailures(now: number): void {
    if (this.lastFailureAt.size > 1_000)
      for (const [k, t] of this.lastFailureAt) if (now - t > 30_000) this.lastFailureAt.delete(k);
    const kept = this.recentFailures.filter((t) => t > now - this.throttle.windowMs);
    const max = throttleMemory(this.throttle);
    this.recentFailures = kept.length > max ? kept.slice(kept.length - max) : kept;
  }
}
