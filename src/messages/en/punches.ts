/**
 * The admin screen's punch lists (waiting punches, an employee's day, the CSV export), the
 * connection tab's last answer, and service errors worded for people (renderer/src/service-error.ts).
 */
import type { Text } from '../text.js';

export const enPunches = {
  'tab.punches': 'Punches',
  'waiting.title': 'Waiting to be sent',
  'waiting.none': 'Nothing is waiting: every punch was delivered.',
  'waiting.shown': 'The oldest {shown} of {total} are listed.',
  'waiting.nsr': 'NSR {nsr}',
  'punches.title': 'An employee’s punches',
  'punches.query': 'Employee: ID, registration, CPF or part of the name',
  'punches.date': 'Day',
  'punches.search': 'Search',
  'punches.tooShort': 'Type at least 2 characters.',
  'punches.nobody': 'Nobody matches “{query}”.',
  'punches.none': 'No punches on {date}.',
  'punches.more': 'More employees match; only the first ones are shown. Type more of the name.',
  'punches.sentAt': 'delivered {time}',
  'punches.state.pending': 'waiting',
  'punches.state.sending': 'sending',
  'punches.state.in_doubt': 'in doubt',
  'punches.state.sent': 'sent',
  'punches.state.rejected': 'rejected',
  'punches.state.held': 'held',
  'csv.title': 'Export punches (CSV spreadsheet)',
  'csv.period': 'Punches dated',
  'csv.export': 'Export CSV',
  'csv.exporting': 'Exporting…',
  'csv.badRange': 'Choose a start and an end date, the start not after the end, at most {max} days.',
  'csv.doneDrive': 'CSV written to {label}, folder {folder}: {rows} punches.',
  'csv.doneDownload': 'CSV ready: {rows} punches. Download it below.',
  'csv.downloadFile': 'Download the CSV',
  'conn.lastAnswered': 'Last answer from the service',
  'conn.lastError': 'Last service error',
  'svcerr.refused': 'The service’s server refused the connection: it may be down, or the address or port is wrong.',
  'svcerr.dns': 'The service’s address could not be found (DNS): check the address and this terminal’s network.',
  'svcerr.unreachable': 'The network has no route to the service: check this terminal’s cable or Wi-Fi and the router.',
  'svcerr.timeout': 'The service took too long to answer: the network is slow or the service is overloaded.',
  'svcerr.reset': 'The connection to the service was cut in the middle (a proxy, firewall or unstable network).',
  'svcerr.certificate':
    'The service’s security certificate was not accepted: check the address, this terminal’s date and any proxy that inspects HTTPS.',
  'svcerr.server': 'The service had an internal problem (HTTP {status}); sending is retried automatically.',
  'svcerr.unauthorized': 'The service refused the API token (401): set a valid token in Settings.',
  'svcerr.forbidden': 'The service refused permission (403): check what the token and the employee are allowed.',
  'svcerr.rateLimited':
    'The service asked to slow down (429, too many requests); sending continues at the allowed pace.',
} as const satisfies Record<string, Text>;
