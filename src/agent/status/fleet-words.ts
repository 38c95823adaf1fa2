/**
 * The fleet's state in English words, for /healthz and the log (`timeclock status` says the same in
 * its language; the screen has its own): the catalogue's sentences (status-sentences.ts).
 */
import type { RateSharing } from '../../sync/window/shared-window-link.js';
import type { FleetStatus } from './fleet-status.js';
import type { AgentStatus } from './status.js';
import { conflictSentence, englishWords, rateModeSentence } from './status-sentences.js';

export { oneLine } from './status-sentences.js';

/** One line: where the request slots come from (`rate` is absent when read from the database with no agent running). */
export function rateModeLine(rate: RateSharing | undefined): string {
  return rateModeSentence(englishWords, rate);
}

/** One line naming the other live terminals under this id, or null when there are none. */
export function conflictLine(terminalId: string, fleet: FleetStatus | undefined): string | null {
  return conflictSentence(englishWords, terminalId, fleet);
}

/**
 * /healthz's lines after `ok` (issue 24): the shared window's mode and an id conflict, when there is a
 * fleet to speak of (Redis configured); nothing for a terminal alone, whose answer stays `ok`.
 */
export function fleetHealthLines(s: Pick<AgentStatus, 'terminalId' | 'rate' | 'fleet'>): string[] {
  if (!s.rate || s.rate.shared === 'local') return [];
  const lines = [`shared window: ${rateModeLine(s.rate)}`];
  const conflict = conflictLine(s.terminalId, s.fleet);
  if (conflict) lines.push(`terminal id conflict: ${conflict}`);
  return lines;
}
