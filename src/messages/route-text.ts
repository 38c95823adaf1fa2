/**
 * A read route the service lacks, worded once for every place that says it (the admin connection
 * tab, `timeclock status`, doctor): what is missing, since when, what the terminal does without
 * it, and when it asks again. The caller formats times in its own zone.
 */
import { t } from './catalogue.js';
import type { Lang } from './lang.js';

export type AbsentRouteFacts = { route: string; status: number; since: number; nextAt: number };

const LACKS = {
  'GET /timesheets': 'route.lacks.timesheets',
  'GET /work-leaves': 'route.lacks.workLeaves',
  'GET /times': 'route.lacks.times',
  'GET /sites': 'route.lacks.sites',
} as const;

export type AbsentRouteWords = { absent: string; lacks: string | null; next: string };

export function absentRouteWords(
  lang: Lang,
  a: AbsentRouteFacts,
  now: number,
  time: (ms: number) => string,
): AbsentRouteWords {
  const key = (LACKS as Record<string, (typeof LACKS)[keyof typeof LACKS]>)[a.route];
  return {
    absent: t(lang, 'route.absent', { route: a.route, status: String(a.status), time: time(a.since) }),
    lacks: key ? t(lang, key) : null,
    next: a.nextAt > now ? t(lang, 'route.next', { time: time(a.nextAt) }) : t(lang, 'route.nextNow'),
  };
}

/** One line: "The service has no GET /timesheets (404 since 10:02): …; asked again at 11:02". */
export function absentRouteLine(lang: Lang, a: AbsentRouteFacts, now: number, time: (ms: number) => string): string {
  const w = absentRouteWords(lang, a, now, time);
  return `${w.absent}${w.lacks ? `: ${w.lacks}` : ''}; ${w.next}`;
}
