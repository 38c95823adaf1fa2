/**
 * The employee's day beside a punch's result, in words (contract `punchDaySchema`): the headline
 * "Entry registered" / "Exit registered", the day's punches as chips ("07:00 E"), the hours bank
 * with when it was read, and a neutral note on a leave today. Pure: no DOM, no clock.
 */
import type { PunchDayView, PunchResultView } from '../../src/contract.js';
import { shortText } from './format.js';
import { t, type Lang, type MessageKey } from './i18n.js';

export type DayChip = {
  time: string;
  /** Short mark shown after the time: E / S, In / Out. */
  mark: string;
  /** What a screen reader says of it: "07:00 entry, registered elsewhere". */
  label: string;
  direction: PunchDayView['direction'];
  /** Seen only in the service's records (another terminal, the app). */
  fromService: boolean;
  isNew: boolean;
};

export type DayView = {
  direction: PunchDayView['direction'];
  /** The result's headline: "Entrada registrada" / "Saída registrada". */
  headline: string;
  chips: DayChip[];
  /** The chips' list label ("Today's punches"). */
  punchesLabel: string;
  /** The legend of the dot on the service's punches; null when none is from the service. */
  legend: string | null;
  /** "Banco de horas: +12h30 (atualizado em 24/11 às 10:05)"; null when unknown. */
  bank: string | null;
  /** A neutral note on a leave today (never an error); null when none. */
  leave: string | null;
};

/**
 * A leave's type inside the note's sentence: any length from the service, shown up to this many characters so the
 * sentence's end stays in sight.
 */
export const LEAVE_TYPE_SHOWN = 40;

const MARK: Record<PunchDayView['direction'], MessageKey> = { entry: 'day.mark.entry', exit: 'day.mark.exit' };
const WORD: Record<PunchDayView['direction'], MessageKey> = { entry: 'day.word.entry', exit: 'day.word.exit' };
const HEADLINE: Record<PunchDayView['direction'], MessageKey> = { entry: 'result.entry', exit: 'result.exit' };

/** A signed balance in minutes as hours and minutes: +12h30, −3h15 (a true minus sign), 0h00. */
export function formatBalance(minutes: number): string {
  const abs = Math.abs(Math.trunc(minutes));
  const sign = minutes > 0 ? '+' : minutes < 0 ? '−' : '';
  return `${sign}${Math.floor(abs / 60)}h${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The day and month ("28/11"; "11/28" in English) and the time ("19:42") in the zone: the date in
 * the language's own order, the one the receipt and the admin screens use (issue 29: one date
 * order per language on every screen).
 */
export function formatDayMonthTime(
  at: number,
  lang: Lang,
  timeZone: string | undefined,
): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const date = lang === 'en' ? `${part('month')}/${part('day')}` : `${part('day')}/${part('month')}`;
  return { date, time: `${part('hour')}:${part('minute')}` };
}

export function dayView(day: PunchDayView, lang: Lang, timeZone: string | undefined): DayView {
  const chips = day.punches.map((p): DayChip => {
    const direction = t(lang, WORD[p.direction]);
    return {
      time: p.time,
      mark: t(lang, MARK[p.direction]),
      label: t(lang, p.fromService ? 'day.chipElsewhere' : 'day.chip', { time: p.time, direction }),
      direction: p.direction,
      fromService: p.fromService,
      isNew: p.isNew,
    };
  });
  const bank = day.hoursBank
    ? t(lang, 'day.bank', {
        balance: formatBalance(day.hoursBank.minutes),
        ...formatDayMonthTime(day.hoursBank.at, lang, timeZone),
      })
    : null;
  const leave =
    day.leave === null
      ? null
      : day.leave.kind === 'vacation'
        ? t(lang, 'day.vacation')
        : day.leave.type
          ? t(lang, 'day.leave', { type: shortText(day.leave.type, LEAVE_TYPE_SHOWN) })
          : t(lang, 'day.leaveUntyped');
  return {
    direction: day.direction,
    headline: t(lang, HEADLINE[day.direction]),
    chips,
    punchesLabel: t(lang, 'day.punches'),
    legend: chips.some((c) => c.fromService) ? t(lang, 'day.elsewhere') : null,
    bank,
    leave,
  };
}

/**
 * The day to show with a result: only an ordinary registered punch of a known employee (not a
 * repeat, not held, not awaiting the roster, not an unknown code) that carries one.
 */
export function dayOfResult(r: PunchResultView | null | undefined): PunchDayView | null {
  if (!r || !r.ok || r.repeat || !r.day || r.employeeName === null) return null;
  if (r.note !== undefined) return null;
  return r.day;
}

/** "Entry registered" / "Exit registered" for a result that shows a day; null otherwise. */
export function dayHeadline(r: PunchResultView | null | undefined, lang: Lang): string | null {
  const day = dayOfResult(r);
  return day ? t(lang, HEADLINE[day.direction]) : null;
}
