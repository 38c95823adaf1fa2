/**
 * A registered punch as capture answers it: a new one, a repeat of one already taken, and what a new one's receipt is
 * made of (SealedPunch, agent/receipts/fresh-marks.ts).
 */
import type { PunchResult } from '../../domain/punch/punch.js';
import type { HeldReason, PunchRow } from '../../store/punches/outbox.js';
import type { RosterEmployee } from '../../store/roster/roster.js';

/** A punch just committed with its new mark: what its receipt is made of. */
export type SealedPunch = {
  nsr: number;
  /** The mark's AFD type 7 line and its employer chain. */
  line: string;
  chain: string;
  capturedAt: number;
  timeZone: string;
  employeeName: string;
  localDate: string;
  localTime: string;
  anchored: boolean;
  heldReason: HeldReason | null;
};

/** The answer of a punch just committed. */
export function registered(
  outcome: { id: number; nsr: number },
  employee: Pick<RosterEmployee, 'full_name' | 'external_id'>,
  local: { date: string; time: string },
  held: HeldReason | null,
  anchored: boolean,
): PunchResult {
  return {
    ok: true,
    punchId: outcome.id,
    nsr: outcome.nsr,
    employeeName: employee.full_name,
    employeeExternalId: employee.external_id,
    localDate: local.date,
    localTime: local.time,
    repeat: false,
    ...(held === 'pin_unverified'
      ? { note: 'held_pin_unverified' as const }
      : held
        ? { note: 'held_not_allowed' as const }
        : {}),
    ...(anchored ? {} : { timeToConfirm: true as const }),
  };
}

/** The answer of a punch the same employee already has in this minute (or the repeat window): the earlier one. */
export function repeatOf(row: PunchRow): PunchResult {
  return {
    ok: true,
    punchId: row.id,
    nsr: row.nsr,
    employeeName: row.employee_name,
    employeeExternalId: row.employee_external_id,
    localDate: row.local_date,
    localTime: row.local_time,
    repeat: true,
    ...(row.anchored === 0 ? { timeToConfirm: true as const } : {}),
  };
}
