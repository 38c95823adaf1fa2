/**
 * The employee's day on the result screen (renderer/src/day-view.ts): entry or exit, the day's punches, hours bank,
 * leave.
 */
export const enDay = {
  'result.entry': 'Entry registered',
  'result.exit': 'Exit registered',
  'day.mark.entry': 'In',
  'day.mark.exit': 'Out',
  'day.word.entry': 'entry',
  'day.word.exit': 'exit',
  'day.punches': 'Today’s punches',
  'day.chip': '{time} {direction}',
  'day.chipElsewhere': '{time} {direction}, registered elsewhere',
  'day.elsewhere': 'registered elsewhere',
  'day.bank': 'Hours bank: {balance} (updated {date} at {time})',
  'day.vacation': 'You are on vacation today; the punch was registered.',
  'day.leave': 'You have a leave of absence today ({type}); the punch was registered.',
  'day.leaveUntyped': 'You have a leave of absence today; the punch was registered.',
  // The result's second line (renderer/src/result-line.ts): never the time again.
  'result.workedToday': 'Worked today: {worked}',
  'result.previousPunch': 'Previous punch: {direction} at {time}',
  'result.firstToday': 'First punch of the day',
} as const;
