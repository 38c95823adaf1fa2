/**
 * The AFD export panel's words (admin screen, src/agent/exports/afd-admin.ts). `afd.error.<code>` has one
 * text per code of the contract's afdErrorCodeSchema.
 */
import type { Text } from '../text.js';

export const enAfd = {
  'tab.afd': 'AFD',
  'afd.title': 'Export the AFD (Portaria 671)',
  'afd.period': 'Marks dated',
  'afd.from': 'from',
  'afd.to': 'to',
  'afd.where': 'Save to',
  'afd.download': 'Download in this browser',
  'afd.drive': '{label} (USB drive, {free} free)',
  'afd.driveNoFree': '{label} (USB drive)',
  'afd.driveReadOnly': '{label} (read-only)',
  'afd.noDrives': 'No USB drive found. Plug one in and tap “Look again”.',
  'afd.rescan': 'Look again',
  'afd.export': 'Export AFD',
  'afd.exporting': 'Exporting…',
  'afd.signedNote': 'Files are signed with the employer’s certificate: a .p7s file goes beside each one.',
  'afd.unsignedNote':
    'No signing certificate is configured: files are exported unsigned. Ask the technician to install the certificate.',
  'afd.missing': 'The AFD names the employer: set {keys} in the configuration first.',
  'afd.badRange': 'Choose a start and an end date, the start not after the end.',
  'afd.pickTarget': 'Choose where to save the file.',
  'afd.doneDrive': 'AFD written to {label} and flushed to the drive; marks: {marks}.',
  'afd.doneDownload': 'AFD ready, marks: {marks}. Download it below.',
  'afd.result.file': 'File',
  'afd.result.marks': 'Marks',
  'afd.result.nsr': 'NSR',
  'afd.result.nsrRange': '{first} to {last}',
  'afd.result.none': 'none on these days',
  'afd.result.signed': 'Signed',
  'afd.result.signedYes': 'yes (.p7s beside the file)',
  'afd.result.signedNo': 'no',
  'afd.result.where': 'Saved to',
  'afd.result.folder': '{label}, folder {folder}',
  'afd.result.terminal': 'Terminal',
  'afd.result.terminalValue': '{terminal} (its own NSR sequence, named in the file name)',
  'afd.downloadFile': 'Download the AFD file',
  'afd.downloadP7s': 'Download the signature (.p7s)',
  'afd.downloaded': 'Downloaded: {file}',
  'afd.downloadFailed': 'The download failed (HTTP {status}); export again.',
  'afd.error.bad_range': 'These dates cannot be exported: {from} to {to} (at most {max} days).',
  'afd.error.employer_missing': 'The AFD cannot be written: the configuration lacks {keys}.',
  'afd.error.config_invalid': 'The AFD header cannot be written from the configuration (check {key}).',
  'afd.error.signing_failed': 'The file could not be signed ({error}); nothing was written.',
  'afd.error.exists': 'A file of that name is already there: {file}.',
  'afd.error.journal_invalid':
    'The evidence journal has a damaged mark (NSR {nsr}); nothing was written. Call support.',
  'afd.error.write_failed': 'The file could not be written ({error}). Is the drive full, or was it removed?',
  'afd.error.drive_unknown': 'That drive is not there any more; look again.',
  'afd.error.drive_read_only': 'The drive {drive} is read-only.',
  'afd.error.busy': 'Another export is under way; wait for it to end.',
  'afd.error.target_unsafe':
    'Something that is not a file is already there under the name {file} (a link or a folder): nothing was written. Remove it or use another drive.',
  // After an export to a drive: unmounting it (bridge call unmountDrive) so it can be pulled out.
  'afd.unmount': 'Remove the drive safely',
  'afd.unmounting': 'Removing…',
  'afd.unmounted': 'You can pull out the drive {label} now.',
  'afd.unmountFailed':
    'The drive {drive} could not be removed safely ({error}). Wait a moment and try again, or shut the terminal down before pulling it out.',
} as const satisfies Record<string, Text>;
