/**
 * The wrong-PIN count per employee (`pin_attempts`): read, cleared, and an attempt's outcome written
 * with its audit line in one transaction, with the lock once the count reaches the policy's maximum.
 * Apart from the PIN store (pins.ts), which keeps the hashes and the throttles held in memory.
 */
import {
  afterFailure,
  afterSuccess,
  currentAttempts,
  FRESH_ATTEMPTS,
  lockState,
} from '../../domain/people/pin-policy.js';
import type { AttemptState, PinPolicy } from '../../domain/people/pin-policy.js';
import type { WritableDb } from '../database.js';
import type { AuditLog } from './audit-log.js';

export type PinCheck =
  | { ok: true }
  | { ok: false; reason: 'bad_format' | 'no_pin' }
  | { ok: false; reason: 'wrong'; remaining: number }
  | { ok: false; reason: 'locked'; until: number }
  | { ok: false; reason: 'throttled'; waitMs: number };

type AttemptRow = { failures: number; locked_until: number | null };

export type PinAttemptsDeps = { db: WritableDb; policy: PinPolicy; audit: AuditLog };

/** The per-employee wrong-PIN counts: rows, so a restart does not unlock anyone. */
export class PinAttempts {
  private readonly stmts;

  constructor(private readonly d: PinAttemptsDeps) {
    const { db } = d;
    this.stmts = {
      attempts: db.prepare('SELECT failures, locked_until FROM pin_attempts WHERE employee_id = ?'),
      upsertAttempts: db.prepare(
        `INSERT INTO pin_attempts (employee_id, failures, locked_until) VALUES (?, ?, ?)
         ON CONFLICT (employee_id) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until`,
      ),
      deleteAttempts: db.prepare('DELETE FROM pin_attempts WHERE employee_id = ?'),
    };
  }

  /** The employee's attempt state as stored. */
  read(employeeId: string): AttemptState {
    const row = this.stmts.attempts.get(employeeId) as AttemptRow | undefined;
    return row ? { failures: row.failures, lockedUntil: row.locked_until } : FRESH_ATTEMPTS;
  }

  /** Forgets the employee's count and lock (in the caller's transaction, if any). */
  clear(employeeId: string): void {
    this.stmts.deleteAttempts.run(employeeId);
  }

  /** The attempt's outcome, written with its audit line in one transaction (it throws when the disk is full). */
  record(employeeId: string, match: boolean, now: number): PinCheck {
    return this.d.db.transaction((): PinCheck => {
      // Read again: another connection (or process) may have counted a failure meanwhile.
      const state = currentAttempts(this.read(employeeId), now);
      const again = lockState(state, now);
      if (again.locked && again.until !== null) return this.refuseLocked(employeeId, now, again.until);
      if (match) {
        this.save(employeeId, afterSuccess());
        this.d.audit.record(now, 'pin_ok', employeeId, null);
        return { ok: true };
      }
      const next = afterFailure(state, now, this.d.policy);
      this.save(employeeId, next);
      if (next.lockedUntil !== null) {
        this.d.audit.record(
          now,
          'pin_locked',
          employeeId,
          `${next.failures} wrong PINs in a row; locked until ${new Date(next.lockedUntil).toISOString()}`,
        );
        return { ok: false, reason: 'locked', until: next.lockedUntil };
      }
      this.d.audit.record(
        now,
        'pin_wrong',
        employeeId,
        `wrong PIN ${next.failures} of ${this.d.policy.maxFailures} in a row`,
      );
      return { ok: false, reason: 'wrong', remaining: Math.max(0, this.d.policy.maxFailures - next.failures) };
    })();
  }

  /** A lock in force: the attempt is refused, and audited as such. */
  refuseLocked(employeeId: string, now: number, until: number): PinCheck {
    this.d.audit.record(now, 'pin_refused_locked', employeeId, `locked until ${new Date(until).toISOString()}`);
    return { ok: false, reason: 'locked', until };
  }

  private save(employeeId: string, state: AttemptState): void {
    if (state.failures === 0 && state.lockedUntil === null) this.stmts.deleteAttempts.run(employeeId);
    else this.stmts.upsertAttempts.run(employeeId, state.failures, state.lockedUntil);
  }
}
