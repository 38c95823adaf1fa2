/**
 * The answers of the admin calls, one per code of src/contract/admin-codes.ts (the compiler checks
 * every code has one, and no more), filled with the answer's params.
 */
import type { AnswerTexts } from '../text.js';

export const enAnswers = {
  'answer.retry_queued': 'Punch {id} queued to be sent again.',
  'answer.retry_not_rejected': 'Punch {id} is not a rejected punch (any more).',
  'answer.employee_not_found': 'No employee {query} in the roster (by ID, registration number or CPF).',
  'answer.badge_invalid': 'This badge code is not valid; nothing was enrolled.',
  'answer.badge_enrolled': 'Badge enrolled for {name}.',
  'answer.badge_moved': 'Badge enrolled for {name} (it belonged to {previousName} before).',
  'answer.badge_unenrolled': 'Badge {badge} removed.',
  'answer.badge_not_enrolled': 'Badge {badge} was not enrolled.',
  'answer.enroll_timeout': 'No badge was scanned in time for {employee}. Try again.',
  'answer.enroll_replaced': 'Replaced by a newer badge enrollment request.',
  'answer.pin_set': 'PIN set for {name}.',
  'answer.pin_cleared': 'PIN removed for {name}.',
  'answer.pin_not_set': '{name} had no PIN.',
  'answer.pin_bad_format': 'A PIN has {min} to {max} digits (0-9 only); nothing was changed.',
  'answer.pin_save_failed': 'The PIN for {name} could not be saved ({error}).',
  'answer.admin_pin_set': 'Manager PIN set.',
  'answer.settings_busy': 'Another settings change is under way; try again in a moment.',
  'answer.token_saved': 'API token saved ({store}); the service accepted it and sending resumes.',
  'answer.token_saved_unchecked':
    'API token saved ({store}), not checked: the service could not be reached ({reason}); it is used from now on.',
  'answer.token_invalid':
    'The token must not be empty, longer than {max} characters, or contain spaces or line breaks; nothing was changed.',
  'answer.token_demo':
    'Demo mode: the demo always uses its own token, so nothing was saved. Configure the real API address and set the token again there.',
  'answer.token_refused':
    'The service refused this token ({reason}); it was not saved and the current token stays in use.',
  'answer.token_save_failed': 'The token could not be saved ({error}); nothing was changed.',
  'answer.site_set':
    'Site set to {name} ({siteId}); its roster is being fetched, the current roster stays in use until the new one is complete.',
  'answer.site_set_unchecked':
    'Site set to {siteId}, not checked: the service could not be reached ({reason}); its roster is fetched when it can be, the current roster stays in use until then.',
  'answer.site_same': 'The terminal already uses site {siteId}.',
  'answer.site_invalid':
    'A site ID is 24 hexadecimal characters (0-9, a-f), as the service shows it; nothing was changed.',
  'answer.site_unknown': 'The service has no site {siteId}; nothing was changed.',
  'answer.site_refused': 'The service refused site {siteId} ({reason}); nothing was changed.',
  'answer.site_needs_token':
    'The service refuses the API token, so the site cannot be checked: set a working token first; nothing was changed.',
  'answer.site_save_failed': 'The site could not be saved ({error}); nothing was changed.',
  'answer.budget_set':
    'Request budget set to {limit} per {window} s (was {previousLimit} per {previousWindow} s); requests already made still count.',
  'answer.budget_invalid':
    'Requests must be a whole number from 1 to 10000 and the window from 1 s to 1 h; nothing was changed.',
  'answer.budget_save_failed': 'The request budget could not be saved ({error}); nothing was changed.',
  'answer.roster_shrink_applied':
    'Confirmed: the smaller employee list is applied (fetched again first when needed, whatever its size).',
  'answer.roster_shrink_none':
    'There is no held employee list to apply (a later sync may have settled it); nothing was changed.',
  'answer.retry_all_queued': 'Rejected punches queued to be sent again: {n}.',
  'answer.held_resend_queued': 'Held punch {id} queued to be sent again.',
  'answer.held_marked_delivered': 'Held punch {id} marked as delivered; nothing more is sent for it.',
  'answer.held_not_held': 'Punch {id} is not held (any more); nothing was changed.',
  'answer.held_disputed': 'Punch {id} disputed: it stays kept on this terminal and will not be sent.',
  'answer.held_reason_required': 'Write the reason for the dispute.',
  'answer.admin_pin_unlocked':
    'Manager PIN unlocked: the wrong-PIN count is cleared and the admin screen takes the PIN again now.',
  'answer.admin_pin_not_locked': 'The manager PIN was not locked; the wrong-PIN count is cleared.',
  'answer.lead_pin_set': "Shift lead's PIN set: it opens only held punches to confirm and workers' PIN resets.",
} as const satisfies AnswerTexts;
