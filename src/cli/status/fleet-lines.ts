/** `timeclock status`: where the terminal's request slots come from, and another live terminal under its id. */
import { conflictSentence, rateModeSentence } from '../../agent/status/status-sentences.js';
import type { AgentStatus } from '../../agent/status/status.js';
import { wordsOf, type Say } from './status-say.js';

export function fleetLines(s: AgentStatus, say: Say): string[] {
  const lines: string[] = [];
  // Read from the database with no agent running, nothing is known of a window: said only when one is configured.
  if (s.rate || s.agentRunning) lines.push(say.label('status.label.sharedWindow') + rateModeValue(say, s));
  const wk = s.fleet?.windowKey;
  if (wk)
    lines.push(say.label('status.label.windowKey') + say.text('status.windowKey', { key: wk.key, from: wk.from }));
  const conflict = conflictValue(say, s);
  if (conflict) lines.push(say.label('status.label.idConflict') + conflict);
  return lines;
}

function rateModeValue(say: Say, s: AgentStatus): string {
  const rate = s.rate;
  const at = rate?.since != null && rate.shared !== 'local' ? rate.since : null;
  const since = at === null ? '' : say.text('status.since', { ago: say.since(at) });
  return rateModeSentence(wordsOf(say), rate) + since;
}

/** Other live terminals under this id, or null when there are none. */
function conflictValue(say: Say, s: AgentStatus): string | null {
  return conflictSentence(wordsOf(say), s.terminalId, s.fleet);
}
