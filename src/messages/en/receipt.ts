/**
 * The receipt's words ("Comprovante de registro", Portaria 671 Art. 79) on the result and admin
 * screens. The QR code's own text is the agent's (pt-BR only: the document is Brazilian, see
 * src/agent/receipts/receipt.ts).
 */
import type { Text } from '../text.js';

export const enReceipt = {
  'receipt.title': 'Punch receipt',
  'receipt.nsr': 'NSR',
  'receipt.when': 'Date and time',
  'receipt.employee': 'Employee',
  'receipt.noName': 'not identified',
  'receipt.nameGone': 'not available (punch deleted after its retention)',
  'receipt.cpf': 'CPF',
  'receipt.noCpf': 'not registered',
  'receipt.terminal': 'Terminal',
  'receipt.employer': 'Employer',
  'receipt.employerCnpj': 'CNPJ',
  'receipt.employerCpf': 'Employer CPF',
  'receipt.hash': 'Hash',
  'receipt.qr': 'QR code with the whole receipt, full hash included',
  'tab.receipt': 'Receipts',
  'receipt.lookupLabel': 'Receipt of the punch with NSR',
  'receipt.lookup': 'Show',
  'receipt.badNsr': 'An NSR is a whole number from 1 to 999999999.',
  'receipt.notFound': 'No punch with NSR {nsr} on this terminal.',
  'receipt.found': 'Receipt of NSR {nsr}: {name}.',
  'receipt.lookupHint': 'The NSR is on the worker’s receipt and on each punch of the AFD file.',
  'receipt.corrected': 'Correct time',
  'receipt.adjustment': 'clock adjustment, NSR {nsr}',
  'receipt.showWhole': 'Show it whole',
  'receipt.status': 'Status',
  'receipt.awaitingConfirmation': 'Awaiting the manager’s confirmation: PIN not verified',
  'receipt.timeToConfirm': 'Time to be confirmed (the terminal’s clock was not yet checked against the service)',
  'result.timeToConfirm': 'time to be confirmed',
  'receipt.downloadPdf': 'Download PDF',
  'archives.title': 'Journal archives',
  'archives.hint':
    'Marks and facts past the horizon leave the database for sealed monthly files beside it; receipts, the AFD export and verify read them as before.',
  'archives.months': 'Months archived',
  'archives.kept': { one: '{n} month ({from} to {to})', other: '{n} months ({from} to {to})' },
  'archives.none': 'None yet',
  'archives.size': 'Size on disk',
  'archives.lastRun': 'Last run',
  'archives.run': '{when}: {archives} written, {marks} marks',
  'archives.runFailed': '{when}: FAILED ({error})',
  'archives.neverRun': 'Not run yet',
  'archives.unknown': 'Not reported by the agent.',
} as const satisfies Record<string, Text>;
