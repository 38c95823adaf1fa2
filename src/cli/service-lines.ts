/**
 * `timeclock status`'s words for whether the service answers and for the read routes it lacks
 * (the wording of the latter is the catalogue's, as the admin screen's).
 */
import type { AgentStatus } from '../agent/status.js';
import { absentRouteLine } from '../messages/route-text.js';

/** YYYY-MM-DD HH:MM in this machine's zone (the terminal's own): status is read on the terminal. */
export function localMinute(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** online, SERVICE ANSWERING ERRORS (why), OFFLINE (why), or no request yet. */
export function connectionWord(s: Pick<AgentStatus, 'online' | 'service'>): string {
  const sv = s.service;
  if (sv?.state === 'errors') return `SERVICE ANSWERING ERRORS${sv.reason ? ` (${sv.reason})` : ''}: punches are kept, sending backs off`;
  if (s.online === null) return 'no request yet';
  if (s.online) return 'online';
  return `OFFLINE${sv?.state === 'offline' && sv.reason ? ` (${sv.reason})` : ''}`;
}

export function absentRouteLines(s: Pick<AgentStatus, 'absentRoutes' | 'now'>): string[] {
  return s.absentRoutes.map((a) => `not on service: ${absentRouteLine('en', a, s.now, localMinute)}`);
}
