/** The codes and details of an admin call's answer, which the screen words in its own language. */
import { z } from 'zod';

/**
 * What an admin call's answer says happened: the screen and the command line word it in their
 * language from the catalogue (src/messages, `answer.<code>`). Every answer the agent makes to an
 * admin call carries one, and no text.
 */
export const adminCodeSchema = z.enum([
  // retryRejected
  'retry_queued',
  'retry_not_rejected',
  // employees, badges, PINs
  'employee_not_found',
  'badge_invalid',
  'badge_enrolled',
  'badge_moved',
  'badge_unenrolled',
  'badge_not_enrolled',
  'enroll_timeout',
  'enroll_replaced',
  'pin_set',
  'pin_cleared',
  'pin_not_set',
  'pin_bad_format',
  'pin_save_failed',
  'admin_pin_set',
  // settings
  'settings_busy',
  'token_saved',
  'token_saved_unchecked',
  'token_invalid',
  'token_demo',
  'token_refused',
  'token_save_failed',
  'site_set',
  'site_set_unchecked',
  'site_same',
  'site_invalid',
  'site_unknown',
  'site_refused',
  'site_needs_token',
  'site_save_failed',
  'budget_set',
  'budget_invalid',
  'budget_save_failed',
  // roster
  'roster_shrink_applied',
  'roster_shrink_none',
  // held and rejected punches
  'retry_all_queued',
  'held_resend_queued',
  'held_marked_delivered',
  'held_not_held',
  'held_disputed',
  'held_reason_required',
  // the manager PIN's lockout cleared on the box (`timeclock pin unlock`)
  'admin_pin_unlocked',
  'admin_pin_not_locked',
  // the shift lead's PIN (issue 29)
  'lead_pin_set',
]);
export type AdminCode = z.infer<typeof adminCodeSchema>;

/** The details an answer's text is filled with (names, ids, the service's reason…); never a token or a PIN. */
export const adminParamsSchema = z.record(z.string(), z.string());
export type AdminParams = z.infer<typeof adminParamsSchema>;

/**
 * The answer to a manager's PIN: `opened`; `wrong_pin`; `too_many` (locked: for `lockedForMs`, or a minute);
 * `no_admin_pin`
 * (none is set: the keypad says how to set one); `disabled` (this screen has no administration).
 */
export const adminLoginCodeSchema = z.enum(['opened', 'wrong_pin', 'too_many', 'no_admin_pin', 'disabled']);
export type AdminLoginCode = z.infer<typeof adminLoginCodeSchema>;
