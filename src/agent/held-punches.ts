import type { AuditLog } from '../store/audit-log.js';
import type { Outbox } from '../store/outbox.js';

export type HeldDecision = 'resend' | 'delivered';

/**
 * A person's decision on a held punch, written to the audit log: send it again (the service may
 * then hold it twice) or take it as delivered (nothing more is sent). The agent and the command
 * line (beside a running agent: the database alone) both decide through here.
 */
export function decideHeldPunch(outbox: Outbox, audit: AuditLog, id: number, decision: HeldDecision, by: string, now: number): boolean {
  const row = outbox.get(id);
  if (!row || !outbox.decideHeld(id, now, decision)) return false;
  audit.record(
    now,
    decision === 'resend' ? 'held_resend' : 'held_marked_delivered',
    row.employee_key,
    `punch ${id} ${row.local_date} ${row.local_time} (${row.held_reason ?? '?'}) by ${by}`,
  );
  return true;
}
