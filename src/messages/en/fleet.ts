/**
 * The admin screen's connection tab on the fleet (issue 24): this terminal's id with its host,
 * where its requests' slots come from (the account's window in Redis, or its own share and why),
 * and another live terminal under its id.
 */
import type { Text } from '../text.js';

export const enFleet = {
  'fleet.terminalValue': '{id} on host {host}',
  'fleet.window': 'Shared window',
  'fleet.mode.local': 'This terminal alone (no Redis configured)',
  'fleet.mode.redis': 'Shared with the account’s terminals in Redis',
  'fleet.mode.joining': 'Joining the account’s window in Redis…',
  'fleet.mode.fallback': 'On its own share: {why}',
  'fleet.why.connecting': 'Redis has not answered since the start',
  'fleet.why.unreachable': 'Redis is unreachable',
  'fleet.why.auth': 'Redis refused the password',
  'fleet.why.timeout': 'Redis stopped answering in time',
  'fleet.why.bad_answer': 'Redis answers what it never should (is it a Redis?)',
  'fleet.why.error': 'Redis answered with an error',
  'fleet.conflictTitle': 'Another terminal uses this terminal’s ID',
  'fleet.conflictBody':
    'ID {id} is also in use on {others}. Each terminal needs its own ID: on the copy, delete the file terminal-id in its data directory and restart it, or set a different terminalId.',
  'fleet.conflictOther': 'host {host} (instance {instance})',
} as const satisfies Record<string, Text>;
