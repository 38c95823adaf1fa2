/** A worker who forgot the PIN, the reset requests, and the shift lead (issue 29). */
export const enPinHelp = {
  'keypad.forgotPin': 'I forgot my PIN',
  'resets.title': 'New PIN requests',
  'resets.none': 'No one is waiting for a new PIN.',
  'resets.row': '{name} ({employee}), asked {when}',
  'resets.newPin': 'New PIN for {name}',
  'resets.save': 'Set PIN',
  'lead.pinTitle': 'Shift lead’s PIN',
  'lead.pinHelp': 'The shift lead may only confirm punches held for an unverified PIN and set a worker’s new PIN.',
  'lead.save': 'Save',
  'lead.title': 'Shift lead',
  'lead.heldTitle': 'Punches to confirm',
  'lead.heldNone': 'No punch is waiting for confirmation.',
  'lead.heldRow': '{name} ({employee}), {date} {time}',
  'lead.confirm': 'Confirm',
} as const;
