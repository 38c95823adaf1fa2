/**
 * A punch answer as the employee sees it: headline, name, time, message, colour and sound. Pure.
 */
import { formatLocalDate } from './format.js';
import { answerText, t, type Lang, type MessageKey } from './i18n.js';
import type { Shown } from './machine.js';

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
};

export function resultView(shown: Shown, lang: Lang): ResultView {
  const r = shown.result;
  if (!r) {
    return { ok: false, reason: 'no_answer', tone: 'error', sound: 'error', headline: t(lang, 'result.refused'), name: '', time: '', date: '', message: t(lang, 'reason.no_answer'), queued: false };
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
      };
    }
    return {
      ok: true,
      reason: 'ok',
      tone: 'ok',
      sound: 'success',
      headline: t(lang, r.employeeName === null ? 'result.unresolved' : 'result.ok'),
      name: r.employeeName ?? '',
      time: r.localTime,
      date,
      message: queued ? t(lang, 'result.queued') : t(lang, 'result.saved', { time: r.localTime }),
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
      // Worded as the admin screen words the same answer; the agent's English without a code.
      message: r.enrollment ? answerText(lang, { message: r.message, code: r.enrollment.code, ...(r.enrollment.params ? { params: r.enrollment.params } : {}) }) : r.message,
      queued: false,
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
  };
}
