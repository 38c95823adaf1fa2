import type { Clock } from '../domain/clock.js';
import { checkCode } from '../domain/credential.js';
import { resolveCredential, type IdentityRules } from '../domain/identity.js';
import type { AuditLog } from '../store/audit-log.js';
import type { Identities } from '../store/identities.js';
import type { RosterEmployee } from '../store/roster.js';

export type EnrollResult = { ok: true; message: string; employeeId: string; previousOwner: string | null } | { ok: false; message: string };
export type AdminResult = { ok: boolean; message: string };

/** What a manager types to name an employee: any key, whatever the terminal's input rules. */
const ADMIN_RULES: IdentityRules = {
  order: ['external_id', 'registration_number', 'cpf'],
  allowed: { badge: [], id: ['external_id', 'registration_number', 'cpf'] },
};

export type PinAdmin = {
  set(employeeId: string, pin: string): Promise<void>;
  clear(employeeId: string): boolean;
  verify(employeeId: string, pin: string): Promise<{ ok: boolean }>;
  has(employeeId: string): boolean;
};

/**
 * The admin screen's PIN lives in the PIN store (scrypt, lockout, audit) under an id no employee
 * can have: API ids are 24 hexadecimal characters.
 */
export const ADMIN_PIN_ID = 'admin:terminal';

/**
 * Enrollment and PIN administration. Used by the agent (admin screen) and by the CLI, which may
 * run beside a live terminal: it needs only the database, not the agent's lock or the network.
 */
export class IdentityAdmin {
  constructor(
    private readonly identities: Identities,
    private readonly pins: PinAdmin,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** An employee by external id, registration number, CPF (masked or not) or API _id. */
  findEmployee(query: string): RosterEmployee | null {
    const q = query.trim();
    const r = resolveCredential(q, 'id', ADMIN_RULES, this.identities.lookups);
    return r.kind === 'found' ? r.employee : this.identities.employee(q);
  }

  enrollBadge(rawCode: string, employeeQuery: string, via: 'cli' | 'scan' | 'admin'): EnrollResult {
    const check = checkCode(rawCode);
    if (!check.ok) return { ok: false, message: `badge code refused: ${check.reason}` };
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return { ok: false, message: `no employee ${employeeQuery} in the roster (by external id, registration number or CPF)` };
    return this.enrollFor(check.code, employee, via);
  }

  enrollFor(code: string, employee: RosterEmployee, via: 'cli' | 'scan' | 'admin'): EnrollResult {
    const now = this.clock.now();
    const { previousOwner } = this.identities.enroll(code, employee.id, now, via);
    this.audit.record(now, 'badge_enrolled', employee.id, `via ${via}${previousOwner ? `; taken from ${previousOwner}` : ''}`);
    const moved = previousOwner ? ` (it belonged to ${this.identities.employee(previousOwner)?.full_name ?? previousOwner} before)` : '';
    return { ok: true, message: `badge enrolled for ${employee.full_name}${moved}`, employeeId: employee.id, previousOwner };
  }

  unenrollBadge(rawCode: string): AdminResult {
    const code = rawCode.trim();
    const owner = this.identities.enrollment(code);
    if (!this.identities.unenroll(code)) return { ok: false, message: `badge ${code} was not enrolled` };
    this.audit.record(this.clock.now(), 'badge_unenrolled', owner?.employee_id ?? null, null);
    return { ok: true, message: `badge ${code} unenrolled` };
  }

  async setPin(employeeQuery: string, pin: string): Promise<AdminResult> {
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return { ok: false, message: `no employee ${employeeQuery} in the roster` };
    try {
      await this.pins.set(employee.id, pin);
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    return { ok: true, message: `PIN set for ${employee.full_name}` };
  }

  async setAdminPin(pin: string): Promise<AdminResult> {
    try {
      await this.pins.set(ADMIN_PIN_ID, pin);
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
    return { ok: true, message: 'admin PIN set' };
  }

  /** For the bridges' admin login. */
  hasAdminPin(): boolean {
    return this.pins.has(ADMIN_PIN_ID);
  }

  async verifyAdminPin(pin: string): Promise<boolean> {
    return (await this.pins.verify(ADMIN_PIN_ID, pin)).ok;
  }

  clearPin(employeeQuery: string): AdminResult {
    const employee = this.findEmployee(employeeQuery);
    if (!employee) return { ok: false, message: `no employee ${employeeQuery} in the roster` };
    return this.pins.clear(employee.id) ? { ok: true, message: `PIN cleared for ${employee.full_name}` } : { ok: false, message: `${employee.full_name} had no PIN` };
  }
}
