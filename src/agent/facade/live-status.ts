/** The status the running agent answers: what status.ts reads from the database, with its parts' live state. */
import type { AgentParts } from './agent-parts.js';
import { readStatus, type AgentStatus } from '../status/status.js';

export function liveStatus(p: AgentParts, running: boolean): AgentStatus {
  const s = readStatus({
    ...p,
    rule: p.settings.currentRule,
    settings: p.settings.view(),
    now: p.clock.now(),
    rosterRefreshMs: p.rosterRefreshMs,
    retention: p.retention.policy,
  });
  s.sendingPaused = p.budget.pause();
  // The limit in force: below the configured one while it adapts to 429s (sync/window/adaptive-limit.ts).
  s.rateWindow.limit = p.budget.limit;
  s.rate = p.budget.sharing();
  s.fleet = p.fleet();
  s.roster.progress = p.rosterSync.progress;
  s.agentRunning = running;
  if (p.readers.length > 0) s.readers = p.readers.map((r) => r.status());
  return s;
}
