/**
 * The admin screen's "scan the badge to enroll": the next badge scan within a timeout is linked to
 * the employee instead of punching.
 */
import type { Clock } from '../../domain/time/clock.js';
import { checkCode, type Credential } from '../../domain/people/credential.js';
import { enrollmentCodes, type PunchResult } from '../../domain/punch/punch.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import { employeeNotFound, type EnrollResult, type IdentityAdmin } from './identity-admin.js';

export class EnrollArm {
  private armed: { employee: RosterEmployee; until: number; resolve: (r: EnrollResult) => void } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly admin: Pick<IdentityAdmin, 'findEmployee' | 'enrollFor'>,
  ) {}

  /** Arms for `employeeQuery` (a newer request replaces an older one); resolves with the enrollment or the timeout. */
  arm(employeeQuery: string, timeoutMs: number): Promise<EnrollResult> {
    const employee = this.admin.findEmployee(employeeQuery);
    if (!employee) return Promise.resolve(employeeNotFound(employeeQuery));
    this.armed?.resolve({ ok: false, code: 'enroll_replaced' });
    return new Promise((resolve) => {
      const arm = { employee, until: this.clock.now() + timeoutMs, resolve };
      this.armed = arm;
      setTimeout(() => {
        if (this.armed === arm) {
          this.armed = null;
          resolve({ ok: false, code: 'enroll_timeout', params: { employee: employee.full_name } });
        }
      }, timeoutMs).unref();
    });
  }

  /**
   * A badge scanned while armed is enrolled (the arm is spent): the screen's answer. Null: not armed, or not a badge.
   */
  takeScan(credential: Credential): PunchResult | null {
    const arm = this.armed;
    if (!arm || credential.kind !== 'badge' || this.clock.now() > arm.until) return null;
    this.armed = null;
    const check = checkCode(credential.value);
    const r: EnrollResult = check.ok
      ? this.admin.enrollFor(check.code, arm.employee, 'scan')
      : { ok: false, code: 'badge_invalid', params: { reason: check.reason } };
    arm.resolve(r);
    return {
      ok: false,
      reason: 'enrollment',
      enrollment: {
        ok: r.ok,
        code: enrollmentCodes.find((c) => c === r.code) ?? 'badge_invalid',
        ...(r.params ? { params: r.params } : {}),
      },
    };
  }
}
