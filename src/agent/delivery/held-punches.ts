import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Outbox } from '../../store/punches/outbox.js';

export type HeldDecision = 'resend' | 'delivered' | 'dispute';

const AUDIT_EVENT: Record<HeldDecision, string> = {
  resend: 'held_resend',
  delivered: 'held_marked_delivered',
  dispute: 'held_disputed',
};

/**
 * A person's decision on a held punch, written to the audit log: send it (again, or a punch whose
 * PIN was not verified, confirmed), take it as delivered (nothing more is sent), or dispute it
 * (kept here, never sent, with the reason). The agent and the command line (beside a running
 * agent: the database alone) both decide through here. A dispute without a reason is refused.
 */
export function decideHeldPunch(
  outbox: Outbox,
  audit: AuditLog,
  id: number,
  decision: HeldDecision,
  by: string,
  now: number,
  reason = '',
): boolean {
  const row = outbox.get(id);
  if (decision === 'dispute' && reason.trim() === '') return false;
  if (!row || !outbox.decideHeld(id, now, decision, reason.trim())) return false;
  const why = decision === 'dispute' ? `: ${reason.trim()}` : '';
  audit.record(
    now,
    AUDIT_EVENT[decision],
    row.employee_key,
    `punch ${id} ${row.local_date} ${row.local_time} (${row.held_reason ?? '?'}) by ${by}${why}`,
  );
  return true;
}
