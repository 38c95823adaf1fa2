import type { AdminCode, AdminParams } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { checkCode } from '../../domain/people/credential.js';
import { resolveCredential, type IdentityRules } from '../../domain/people/identity.js';
import { checkPinFormat, PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '../../domain/people/pin-policy.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { AdminPinCheck } from './admin-session.js';
import type { Identities } from '../../store/roster/identities.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import { checkStaffPin, SHIFT_LEAD_PIN_ID } from './shift-lead.js';

/**
 * What an admin call answers. `code` and `params` (src/contract.ts `adminCodeSchema`) let the screen
 * word it in its language; `message` is the English text for the CLI and logs. Required here, so
 * no answer the agent makes goes without a code; params never hold a token or a PIN.
 */
type Answered = { code: AdminCode; params?: AdminParams };
export type EnrollResult =
  ({ ok: true; employeeId: string; previousOwner: string | null } & Answered) | ({ ok: false } & Answered);
export type AdminResult = { ok: boolean } & Answered;

/** The answer to an employee query that matched nobody. */
export const employeeNotFound = (query: string): { ok: false } & Answered => ({
  ok: false,
  code: 'employee_not_found',
  params: { query },
});

/** What a manager types to name an employee: any key, whatever the terminal's input rules. */
const ADMIN_RULES: IdentityRules = {
  order: ['external_id', 'registration_number', 'cpf'],
  allowed: { badge: [], id: ['external_id', 'registration_number', 'cpf'] },
};

export type PinAdmin = {
  set(employeeId: string, pin: string): Promise<void>;
  clear(employeeId: string): boolean;
  verify(employeeId: string, pin: string): Promise<{ ok: boolean; reason?: string; until?: number; waitMs?: number }>;
  has(employeeId: string): boolean;
  unlock(employeeId: string, by: string): boolean;
  isPinOf(employeeId: string, pin: string): Promise<boolean>;
};

/**
 * The admin screen's PIN lives in the PIN store (scrypt, lockout, audit) under an id no employee
 * can have: API ids are 24 hexadecimal characters.
 */
export const ADMIN_PIN_ID = 'admin:terminal';

/** What identity administration is built from (build-agent.ts, build-identity-admin.ts). */
export type IdentityAdminDeps = {
  identities: Identities;
  pins: PinAdmin;
  audit: AuditLog;
  clock: Clock;
};

/**
 * Enrollment and PIN administration. Used by the agent (admin screen) and by the CLI, which may
 * run beside a live terminal: it needs only the database, not the agent's lock or the network.
 */
export class IdentityAdmin {
  private readonly identities: Identities;
  private readonly pins: PinAdmin;
  private readonly audit: AuditLog;
  private readonly clock: Clock;

  constructor(d: IdentityAdminDeps) {
    this.identities = d.identities;
    this.pins = d.pins;
    this.audit = d.audit;
    this.clock = d.clock;
  }

  /** An employee by external id, registration number, CPF (masked or not) or API _id. */
  findEmployee(query: string): RosterEmployee | null {
    const q = query.trim();
    const r = resolveCredential(q, 'id', ADMIN_RULES, this.identities.lookups);
    return r.kind === 'found' ? r.employee : this.identities.employee(q);
  }

  enrollBadge(rawCode: string, employeeQuery: string, via: 'cli' | 'scan' | 'admin'): EnrollResult {
    const check = checkCode(rawCode);
    if (!check.ok) return { ok: false, code: 'badge_invalid' };
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return employeeNotFound(employeeQuery);
    return this.enrollFor(check.code, employee, via);
  }

  enrollFor(code: string, employee: RosterEmployee, via: 'cli' | 'scan' | 'admin'): EnrollResult {
    const now = this.clock.now();
    const { previousOwner } = this.identities.enroll(code, employee.id, now, via);
    this.audit.record(
      now,
      'badge_enrolled',
      employee.id,
      `via ${via}${previousOwner ? `; taken from ${previousOwner}` : ''}`,
    );
    const previousName = previousOwner ? (this.identities.employee(previousOwner)?.full_name ?? previousOwner) : null;
    return {
      ok: true,
      code: previousName ? 'badge_moved' : 'badge_enrolled',
      params: { name: employee.full_name, ...(previousName ? { previousName } : {}) },
      employeeId: employee.id,
      previousOwner,
    };
  }

  unenrollBadge(rawCode: string): AdminResult {
    const code = rawCode.trim();
    const owner = this.identities.enrollment(code);
    if (!this.identities.unenroll(code)) return { ok: false, code: 'badge_not_enrolled', params: { badge: code } };
    this.audit.record(this.clock.now(), 'badge_unenrolled', owner?.employee_id ?? null, null);
    return { ok: true, code: 'badge_unenrolled', params: { badge: code } };
  }

  async setPin(employeeQuery: string, pin: string): Promise<AdminResult> {
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return employeeNotFound(employeeQuery);
    const name = employee.full_name;
    const format = checkPinFormat(pin);
    if (!format.ok) return badPinFormat({ name });
    try {
      await this.pins.set(employee.id, pin);
    } catch (e) {
      // The PIN store's errors never contain the PIN (src/store/roster/pins.ts).
      return { ok: false, code: 'pin_save_failed', params: { name, error: (e as Error).message } };
    }
    return { ok: true, code: 'pin_set', params: { name } };
  }

  async setAdminPin(pin: string): Promise<AdminResult> {
    const format = checkPinFormat(pin);
    if (!format.ok) return badPinFormat({});
    try {
      await this.pins.set(ADMIN_PIN_ID, pin);
    } catch (e) {
      return { ok: false, code: 'pin_save_failed', params: { name: 'admin', error: (e as Error).message } };
    }
    return { ok: true, code: 'admin_pin_set' };
  }

  /** For the bridges' admin login. */
  hasAdminPin(): boolean {
    return this.pins.has(ADMIN_PIN_ID);
  }

  async verifyAdminPin(pin: string): Promise<boolean> {
    return (await this.pins.verify(ADMIN_PIN_ID, pin)).ok;
  }

  /**
   * The admin login's check: right, wrong, or locked (until when), so the screen never calls a locked-out right PIN
   * wrong.
   */
  async checkAdminPin(pin: string): Promise<AdminPinCheck> {
    const r = await this.pins.verify(ADMIN_PIN_ID, pin);
    if (r.ok) return { ok: true };
    if (r.reason === 'locked' && r.until !== undefined) return { ok: false, lockedForMs: r.until - this.clock.now() };
    // Throttled: the PIN was not checked either; a short lock, not "wrong".
    if (r.reason === 'throttled' && r.waitMs !== undefined) return { ok: false, lockedForMs: r.waitMs };
    return { ok: false };
  }

  /** The shift lead's PIN (issue 29): set by the manager, stored as the admin PIN is. */
  async setShiftLeadPin(pin: string): Promise<AdminResult> {
    if (!checkPinFormat(pin).ok) return badPinFormat({});
    try {
      await this.pins.set(SHIFT_LEAD_PIN_ID, pin);
    } catch (e) {
      return { ok: false, code: 'pin_save_failed', params: { name: 'lead', error: (e as Error).message } };
    }
    return { ok: true, code: 'lead_pin_set' };
  }

  /** The admin login's check with the shift lead's PIN too (shift-lead.ts): right (whose), wrong, or locked. */
  checkLoginPin(pin: string): Promise<AdminPinCheck> {
    return checkStaffPin(this.pins, ADMIN_PIN_ID, pin, (r) => {
      if (r.reason === 'locked' && r.until !== undefined) return { ok: false, lockedForMs: r.until - this.clock.now() };
      if (r.reason === 'throttled' && r.waitMs !== undefined) return { ok: false, lockedForMs: r.waitMs };
      return { ok: false };
    });
  }

  /**
   * `timeclock pin unlock`: the manager PIN's lockout lifted on the box itself (audited), so a passer-by's wrong PINs
   * cannot keep the manager out.
   */
  unlockAdminPin(by: string): AdminResult {
    return { ok: true, code: this.pins.unlock(ADMIN_PIN_ID, by) ? 'admin_pin_unlocked' : 'admin_pin_not_locked' };
  }

  clearPin(employeeQuery: string): AdminResult {
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return employeeNotFound(employeeQuery);
    const params = { name: employee.full_name };
    return this.pins.clear(employee.id)
      ? { ok: true, code: 'pin_cleared', params }
      : { ok: false, code: 'pin_not_set', params };
  }
}

function badPinFormat(params: AdminParams): AdminResult {
  return {
    ok: false,
    code: 'pin_bad_format',
    params: { ...params, min: String(PIN_MIN_DIGITS), max: String(PIN_MAX_DIGITS) },
  };
}
