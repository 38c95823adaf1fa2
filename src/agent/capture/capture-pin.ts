/**
 * The PIN step of a punch: what a wrong, missing or locked-out PIN answers. Apart from Capture so
 * the policy (refuse, or hold the punch for the manager: Portaria 671 forbids refusing a punch)
 * reads in one place.
 */
import { localDateTime } from '../../domain/time/local-time.js';
import { PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '../../domain/people/pin-policy.js';
import type { PunchResult } from '../../domain/punch/punch.js';
import type { PinCheck } from '../../store/roster/pin-attempts.js';
import type { RosterEmployee } from '../../store/roster/roster.js';
import { refusal } from './punch-refusal.js';

/** What capture needs of the PIN store. */
export type PinChecker = {
  verify(employeeId: string, pin: string): Promise<PinCheck>;
  /**
   * Compared without counting as an attempt (store/roster/pins.ts): is a known ID typed at a PIN prompt this person's
   * PIN?
   */
  isPinOf(employeeId: string, pin: string): Promise<boolean>;
};

/** checkPin's answer when the PIN could not be checked and the policy is to hold, not refuse. */
export const HOLD_UNVERIFIED = Symbol('hold: PIN not verified');

/**
 * Null when `pin` is the employee's; else the refusal to answer, or HOLD_UNVERIFIED when the
 * employee is locked out (or slowed down) and `onLockout` is 'hold'. `zoneFor`: the zone the
 * lockout's end is shown in.
 */
export async function checkPin(
  pins: PinChecker,
  onLockout: 'hold' | 'refuse',
  employee: RosterEmployee,
  pin: string | undefined,
  zoneFor: (employee: RosterEmployee) => string,
): Promise<PunchResult | typeof HOLD_UNVERIFIED | null> {
  const ext = employee.external_id;
  if (pin === undefined || pin === '') return { ...refusal('pin_required', {}, ext), employeeName: employee.full_name };
  const v = await pins.verify(employee.id, pin);
  if (v.ok) return null;
  switch (v.reason) {
    case 'bad_format':
      return refusal('pin_wrong', { min: String(PIN_MIN_DIGITS), max: String(PIN_MAX_DIGITS) }, ext);
    case 'no_pin':
      return { ...refusal('no_pin', {}, ext), employeeName: employee.full_name };
    case 'wrong':
      return { ...refusal('pin_wrong', { n: String(v.remaining) }, ext), employeeName: employee.full_name };
    case 'locked':
      if (onLockout === 'hold') return HOLD_UNVERIFIED;
      return refusal('pin_locked', { until: localDateTime(v.until, zoneFor(employee)).time }, ext);
    case 'throttled':
      if (onLockout === 'hold') return HOLD_UNVERIFIED;
      return refusal('pin_throttled', { seconds: String(Math.ceil(v.waitMs / 1000)) }, ext);
  }
}
