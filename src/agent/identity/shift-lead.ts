/**
 * The shift lead (issue 29): a second PIN for the admin login, set by the manager and stored as the
 * manager's is (scrypt, in the PIN store under an id no employee can have), whose session may only
 * confirm punches held because their PIN was not verified and reset a worker's PIN. Every other
 * admin call answers `forbidden` (the dispatcher asks `leadMay` for each admin call).
 */
import type { AdminRole, CallInput, CallName } from '../../contract.js';
import type { AdminPinCheck } from './admin-session.js';

export const SHIFT_LEAD_PIN_ID = 'lead:terminal';

/** The admin calls a shift lead's session may make at all (and `leadMay` narrows decideHeld). */
export const SHIFT_LEAD_CALLS: ReadonlySet<CallName> = new Set<CallName>([
  'listHeld',
  'decideHeld',
  'setPin',
  'listPinResets',
]);

/** Whether a session of `role` may make admin call `name` at all (asked before its input is read). */
export function roleMayCall(role: AdminRole, name: CallName): boolean {
  return role === 'manager' || SHIFT_LEAD_CALLS.has(name);
}

/** Whether a session of `role` may make admin call `name` with `input` (already checked against the contract). */
export function roleMay(role: AdminRole, name: CallName, input: unknown, agent: HeldLister): boolean {
  if (!roleMayCall(role, name)) return false;
  if (role === 'manager' || name !== 'decideHeld') return true;
  // Confirm only: a punch held because its PIN was not verified, sent. Disputes and the rest are the manager's.
  const i = input as CallInput<'decideHeld'>;
  return (
    i.decision === 'resend' &&
    agent.listHeld(10_000).some((p) => p.id === i.punchId && p.held_reason === 'pin_unverified')
  );
}

/** What the decideHeld check needs of the agent (structural: identity-admin.ts imports this file). */
export type HeldLister = { listHeld(limit?: number): ReadonlyArray<{ id: number; held_reason: string | null }> };

/** What the login check needs of the PIN store. */
export type StaffPins = {
  verify(id: string, pin: string): Promise<{ ok: boolean; reason?: string; until?: number; waitMs?: number }>;
  isPinOf(id: string, pin: string): Promise<boolean>;
  has(id: string): boolean;
};

/**
 * The admin login's check with two PINs. Each is compared without counting first; the one that
 * matches is then verified (its lock and the terminal's slow-down apply, `pin_ok` audited). A PIN
 * that is neither counts as a wrong PIN against both, so guessing locks the shift lead's PIN as it
 * locks the manager's; the answer is the manager's (wrong, or locked for how long).
 */
export async function checkStaffPin(
  pins: StaffPins,
  managerId: string,
  pin: string,
  lockAnswer: (r: Awaited<ReturnType<StaffPins['verify']>>) => AdminPinCheck,
): Promise<AdminPinCheck> {
  const leadSet = pins.has(SHIFT_LEAD_PIN_ID);
  if (leadSet && !(await pins.isPinOf(managerId, pin)) && (await pins.isPinOf(SHIFT_LEAD_PIN_ID, pin))) {
    const r = await pins.verify(SHIFT_LEAD_PIN_ID, pin);
    return r.ok ? { ok: true, role: 'lead' } : lockAnswer(r);
  }
  const r = await pins.verify(managerId, pin);
  if (!r.ok && leadSet && r.reason === 'wrong') await pins.verify(SHIFT_LEAD_PIN_ID, pin);
  return r.ok ? { ok: true } : lockAnswer(r);
}
