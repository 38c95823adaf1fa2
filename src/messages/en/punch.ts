/**
 * A punch's outcome in one sentence, for the headless console, the command line's `message` and
 * the admin screen's notice (the kiosk screen's big result uses kiosk.ts's `result.*` and
 * `reason.*`). `refusal.<reason>` has one text per reason of the contract's punchRefusalSchema,
 * filled with the refusal's params.
 */
import type { Text } from '../text.js';

export const enPunch = {
  'console.registered': 'registered {name} {time}',
  'console.nsr': 'NSR {nsr}',
  'console.entry': 'entry',
  'console.exit': 'exit',
  'console.repeat': 'already registered {name} {time}',
  'console.heldNotAllowed': 'registered here {name} {time}: see HR to allow sending it',
  'console.heldPinUnverified': 'registered {name} {time}: the PIN was not verified, the manager will confirm it',
  'console.awaitingRoster': 'saved unmatched {time}: it will be confirmed when the terminal receives the employee list',
  'console.unknownCode':
    'saved unmatched {time}: this code is not known yet, it is matched when the employee list is next updated',
  'console.pin': 'pin: {name}, type your PIN',
  'console.refused': 'refused: {reason}',

  'punch.registered': 'Registered {name} at {time}.',
  'punch.repeat': '{name}: already registered at {time}.',
  'punch.heldNotAllowed': 'Registered {name} at {time} on this terminal; see HR to allow sending it.',
  'punch.heldPinUnverified': 'Registered {name} at {time}; the PIN was not verified: the manager will confirm it.',
  'punch.awaitingRoster': 'Registered at {time}. It will be confirmed when the terminal receives the employee list.',
  'punch.unknownCode':
    'Saved at {time}. This badge is not known yet: it will be matched when the roster is next updated.',

  'refusal.invalid_code': 'Not registered: {detail}.',
  'refusal.invalid_cpf': 'CPF inválido: the check digits do not match. Punch NOT registered.',
  'refusal.unknown_credential': '{what} not recognised. Punch NOT registered.',
  'refusal.ambiguous_credential': '{what} matches {n} employees; ask the manager. Punch NOT registered.',
  'refusal.pin_required': '{name}: type your PIN.',
  'refusal.pin_wrong': 'Wrong PIN. Punch NOT registered.',
  'refusal.pin_wrong_left': {
    one: 'Wrong PIN ({n} try left). Punch NOT registered.',
    other: 'Wrong PIN ({n} tries left). Punch NOT registered.',
  },
  'refusal.pin_bad_format': 'A PIN has {min} to {max} digits. Punch NOT registered.',
  'refusal.pin_locked': 'Too many wrong PINs: locked until {until}. Ask the manager. Punch NOT registered.',
  'refusal.pin_throttled': 'Too many wrong PINs at this terminal: wait {seconds} s and try again.',
  'refusal.no_pin': '{name}: no PIN is set for you; ask the manager. Punch NOT registered.',
  'refusal.pin_expired': 'Too late for that PIN: scan your badge again. Punch NOT registered.',
  'refusal.storage_failed': 'NOT registered: the terminal could not save the punch ({why}). Please tell the manager.',
  'refusal.shutting_down': 'Terminal is shutting down. Punch NOT registered.',
  'refusal.enrollment': 'Badge enrollment: no punch was registered.',
  'what.badge': 'Badge',
  'what.id': 'ID',
} as const satisfies Record<string, Text>;
