/** `timeclock status`: where the terminal's request slots come from, and another live terminal under its id. */
import { conflictLine, rateModeLine } from '../agent/fleet-words.js';
import type { AgentStatus } from '../agent/status.js';

/** `ago`: format.ts's (passed in: format.ts imports this file). */
export function fleetLines(s: AgentStatus, ago: (ms: number) => string): string[] {
  const lines: string[] = [];
  // Read from the database with no agent running, nothing is known of a window: said only when one is configured.
  if (s.rate || s.agentRunning) {
    const since = s.rate?.since != null && s.rate.shared !== 'local' ? ` (since ${ago(s.now - s.rate.since)})` : '';
    lines.push(`shared window: ${rateModeLine(s.rate)}${since}`);
  }
  const wk = s.fleet?.windowKey;
  if (wk) lines.push(`window key:    ${wk.key} (from ${wk.from})`);
  const conflict = conflictLine(s.terminalId, s.fleet);
  if (conflict) lines.push(`ID CONFLICT:   ${conflict}`);
  return lines;
}
