/**
 * The second line of a registered punch's result (issue 29): something the worker does not see
 * already, never the time again (it is on the screen in large type and in the day's list). On an
 * exit, the time worked today so far; on an entry, the punch before it ("Registro anterior: saída
 * às 12:01"), or that this is the day's first. Pure: from the day's punches the agent sent.
 */
import type { PunchDayView } from '../../src/contract.js';
import { t, type Lang } from './i18n.js';

type DayPunch = PunchDayView['punches'][number];

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Minutes worked over the day's punches in order, the new one included: each entry to the exit
 * after it (an exit earlier on the clock than its entry crossed midnight). Null when no entry has
 * an exit yet.
 */
export function workedMinutes(punches: readonly DayPunch[]): number | null {
  let total = 0;
  let closed = false;
  let open: number | null = null;
  for (const p of punches) {
    const at = minutesOf(p.time);
    if (p.direction === 'entry') open = at;
    else if (open !== null) {
      total += at >= open ? at - open : at + 24 * 60 - open;
      closed = true;
      open = null;
    }
  }
  return closed ? total : null;
}

/** 8h05: hours and minutes, as the hours bank is written. */
export function formatWorked(minutes: number): string {
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}`;
}

/** The line under the name and time of a registered punch that shows the employee's day. */
export function dayLine(day: PunchDayView, lang: Lang): string {
  const at = day.punches.findIndex((p) => p.isNew);
  const upToNew = at < 0 ? day.punches : day.punches.slice(0, at + 1);
  if (day.direction === 'exit') {
    const worked = workedMinutes(upToNew);
    if (worked !== null) return t(lang, 'result.workedToday', { worked: formatWorked(worked) });
  }
  const before = at > 0 ? day.punches[at - 1] : undefined;
  if (before)
    return t(lang, 'result.previousPunch', {
      direction: t(lang, before.direction === 'entry' ? 'day.word.entry' : 'day.word.exit'),
      time: before.time,
    });
  return t(lang, 'result.firstToday');
}
