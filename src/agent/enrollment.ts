import { checkCode } from '../domain/credential.js';
import type { AuditLog } from '../store/audit-log.js';
import type { Identities } from '../store/identities.js';
import type { RosterEmployee } from '../store/roster.js';

export type EnrollResult = { ok: true; message: string; employeeId: string; previousOwner: string | null } | { ok: false; message: string };

/** Links a badge code to an employee found by external id, registration number or CPF. */
export function enrollBadge(
  identities: Identities,
  audit: AuditLog,
  findEmployee: (query: string) => RosterEmployee | null,
  now: number,
  rawCode: string,
  employeeQuery: string,
  via: string,
): EnrollResult {
  const check = checkCode(rawCode);
  if (!check.ok) return { ok: false, message: `badge code refused: ${check.reason}` };
  const employee = findEmployee(employeeQuery);
  if (!employee) return { ok: false, message: `no employee ${employeeQuery} in the roster (by external id, registration number or CPF)` };
  const { previousOwner } = identities.enroll(check.code, employee.id, now, via);
  audit.record(now, 'badge_enrolled', employee.id, `via ${via}${previousOwner ? `; taken from ${previousOwner}` : ''}`);
  const moved = previousOwner ? ` (it belonged to ${identities.employee(previousOwner)?.full_name ?? previousOwner} before)` : '';
  return { ok: true, message: `badge enrolled for ${employee.full_name}${moved}`, employeeId: employee.id, previousOwner };
}

export function unenrollBadge(identities: Identities, audit: AuditLog, now: number, rawCode: string): boolean {
  const code = rawCode.trim();
  const owner = identities.enrollment(code);
  const removed = identities.unenroll(code);
  if (removed) audit.record(now, 'badge_unenrolled', owner?.employee_id ?? null, null);
  return removed;
}
