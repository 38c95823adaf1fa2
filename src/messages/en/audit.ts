/**
 * The admin screen's comparison of the evidence journal with the service (screens/admin-audit.ts,
 * audit-view.ts).
 */
import type { Text } from '../text.js';

export const enAudit = {
  'audit.title': 'Punches against the service',
  'audit.hint':
    'Compares the punches of this terminal (by NSR) on those days with the records the service holds. Its requests wait for punches and the employee list.',
  'audit.range': 'Days (from, to)',
  'audit.run': 'Compare',
  'audit.badRange': 'Choose two dates, the first not after the second, at most 366 days apart.',
  'audit.runningLabel': 'Under way',
  'audit.running': 'Days {from} to {to}: {done} of {total} requests.',
  'audit.runningUnknown': 'Days {from} to {to}: starting.',
  'audit.last': 'Last comparison',
  'audit.never': 'None yet.',
  'audit.lastValue': '{when} — days {from} to {to}',
  'audit.result': 'Result',
  'audit.counts': {
    count: 'marks',
    one: '{marks} punch: {found} found, {missing} missing, {unchecked} not checked.',
    other: '{marks} punches: {found} found, {missing} missing, {unchecked} not checked.',
  },
  'audit.missingLabel': 'Missing (NSR)',
  'audit.missingDelivered': '{n} of the missing punches had been delivered: ask the service what became of them.',
  'audit.note': 'Note',
  'audit.unexplained': {
    one: '{n} record of the service on those days matches no punch of this terminal (another terminal or integration on the same account may have made it).',
    other:
      '{n} records of the service on those days match no punch of this terminal (another terminal or integration on the same account may have made them).',
  },
  'audit.stopped': 'Stopped before the end (the terminal stopped): compare again.',
  'audit.done': {
    count: 'marks',
    one: 'Comparison done: {found} of {marks} punch found on the service.',
    other: 'Comparison done: {found} of {marks} punches found on the service.',
  },
} as const satisfies Record<string, Text>;
