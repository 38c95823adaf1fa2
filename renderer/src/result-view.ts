/**
 * A punch answer as the employee sees it: headline, name, time, message, colour and sound. Pure.
 */
import type { PunchResultView } from '../../src/contract.js';
import { dayHeadline, dayOfResult } from './day-view.js';
import { dayLine } from './result-line.js';
import { formatLocalDate } from './format.js';
import { refusalText, t, type Lang, type MessageKey } from './i18n.js';
import type { Shown } from './machine.js';

type PunchNote = NonNullable<Extract<PunchResultView, { ok: true }>['note']>;

export type Tone = 'ok' | 'repeat' | 'error' | 'info';

export type ResultView = {
  ok: boolean;
  /** data-reason: the refusal reason, 'repeat', 'ok', or 'no_answer' when the call itself failed. */
  reason: string;
  tone: Tone;
  sound: 'success' | 'error';
  headline: string;
  name: string;
  time: string;
  date: string;
  message: string;
  queued: boolean;
  /**
   * data-note: why a kept punch is not (yet) on its way (contract `punchNoteSchema`), or 'none'.
   * awaiting_roster and unknown_code still look and sound like a success (the worker is never
   * turned away); held_not_allowed and held_pin_unverified are neutral notices (info), with the
   * success sound and the employee's name.
   */
  note: PunchNote | 'none';
  /** "horário a confirmar" beside the time while the terminal's clock is not confirmed by the service; '' otherwise. */
  timeNote: string;
};

export function resultView(shown: Shown, lang: Lang): ResultView {
  const r = shown.result;
  if (!r) {
    return {
      ok: false,
      reason: 'no_answer',
      tone: 'error',
      sound: 'error',
      headline: t(lang, 'result.refused'),
      name: '',
      time: '',
      date: '',
      message: t(lang, 'reason.no_answer'),
      queued: false,
      note: 'none',
      timeNote: '',
    };
  }
  if (r.ok) {
    const queued = shown.queued;
    const date = formatLocalDate(r.localDate, lang);
    if (r.repeat) {
      return {
        ok: true,
        reason: 'repeat',
        tone: 'repeat',
        sound: 'success',
        headline: t(lang, 'result.repeat'),
        name: r.employeeName ?? '',
        time: r.localTime,
        date,
        message: t(lang, 'result.repeatAt', { time: r.localTime }),
        queued,
        note: r.note ?? 'none',
        timeNote: r.timeToConfirm ? t(lang, 'result.timeToConfirm') : '',
      };
    }
    const note = r.note ?? 'none';
    const timeNote = r.timeToConfirm ? t(lang, 'result.timeToConfirm') : '';
    const base = {
      ok: true,
      reason: 'ok',
      sound: 'success',
      name: r.employeeName ?? '',
      time: r.localTime,
      date,
      note,
      timeNote,
    } as const;
    if (note === 'held_not_allowed') {
      // Kept here, not sent until HR allows it: neither "sent" nor "waiting for the connection".
      return {
        ...base,
        tone: 'info',
        headline: t(lang, 'result.ok'),
        message: t(lang, 'result.heldNotAllowed', { time: r.localTime }),
        queued: false,
      };
    }
    if (note === 'held_pin_unverified') {
      // Taken while locked out after wrong PINs: kept here until the manager confirms it.
      return {
        ...base,
        tone: 'info',
        headline: t(lang, 'result.ok'),
        message: t(lang, 'result.heldPinUnverified', { time: r.localTime }),
        queued: false,
      };
    }
    if (note === 'awaiting_roster') {
      return {
        ...base,
        tone: 'ok',
        headline: t(lang, 'result.unresolved'),
        message: t(lang, 'result.awaitingRoster', { time: r.localTime }),
        queued,
      };
    }
    // The second line says something new (issue 29): kept for later, or the worked time / previous punch; never the
    // time again.
    const day = dayOfResult(r);
    return {
      ...base,
      tone: 'ok',
      headline:
        dayHeadline(r, lang) ??
        t(lang, r.employeeName === null || note === 'unknown_code' ? 'result.unresolved' : 'result.ok'),
      message: queued ? t(lang, 'result.queued') : day ? dayLine(day, lang) : '',
      queued,
    };
  }
  if (r.reason === 'enrollment') {
    const failed = !r.enrollment?.ok;
    return {
      ok: false,
      reason: 'enrollment',
      tone: failed ? 'error' : 'info',
      sound: failed ? 'error' : 'success',
      headline: t(lang, 'result.enrollment'),
      name: r.employeeName ?? '',
      time: '',
      date: '',
      // Worded as the admin screen words the same answer.
      message: refusalText(lang, r),
      queued: false,
      note: 'none',
      timeNote: '',
    };
  }
  const key: MessageKey = `reason.${r.reason}`;
  return {
    ok: false,
    reason: r.reason,
    tone: 'error',
    sound: 'error',
    headline: t(lang, 'result.refused'),
    name: r.employeeName ?? '',
    time: '',
    date: '',
    message: t(lang, key),
    queued: false,
    note: 'none',
    timeNote: '',
  };
}
