/**
 * `timeclock status`'s words for whether the service answers and for the read routes it lacks
 * (the wording of the latter is the catalogue's, as the admin screen's).
 */
import type { AgentStatus } from '../../agent/status/status.js';
import { t } from '../../messages/catalogue.js';
import type { Lang } from '../../messages/lang.js';
import { absentRouteLine } from '../../messages/route-text.js';

/** YYYY-MM-DD HH:MM in this machine's zone (the terminal's own): status is read on the terminal. */
export function localMinute(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** online, SERVICE ANSWERING ERRORS (why), OFFLINE (why), or no request yet. */
export function connectionWord(s: Pick<AgentStatus, 'online' | 'service'>, lang: Lang = 'en'): string {
  const sv = s.service;
  if (sv?.state === 'errors') {
    return sv.reason ? t(lang, 'status.conn.errorsWhy', { why: sv.reason }) : t(lang, 'status.conn.errors');
  }
  if (s.online === null) return t(lang, 'status.conn.none');
  if (s.online) return t(lang, 'status.conn.online');
  const why = sv?.state === 'offline' ? sv.reason : null;
  return why ? t(lang, 'status.conn.offlineWhy', { why }) : t(lang, 'status.conn.offline');
}

export function absentRouteLines(s: Pick<AgentStatus, 'absentRoutes' | 'now'>, lang: Lang = 'en'): string[] {
  return s.absentRoutes.map((a) => {
    const line = absentRouteLine(lang, a, s.now, localMinute);
    return t(lang, 'status.notOnService', { line });
  });
}
