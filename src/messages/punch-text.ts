/**
 * A punch's outcome worded from the catalogue: the agent's result carries codes and details only
 * (reason, note, params), never text.
 */
import type { PunchResultView } from '../contract/punch.js';
import { answerText, t, type MessageKey } from './catalogue.js';
import type { Lang } from './lang.js';

type Refusal = Extract<PunchResultView, { ok: false }>;
type Registered = Extract<PunchResultView, { ok: true }>;

/** The refusal's sentence, e.g. "Wrong PIN (2 tries left). Punch NOT registered." */
export function refusalText(lang: Lang, r: Refusal): string {
  const p: Record<string, string> = { ...r.params };
  if (r.employeeName !== undefined) p['name'] ??= r.employeeName;
  if (p['what'] === 'badge' || p['what'] === 'id') p['what'] = t(lang, `what.${p['what']}`);
  if (r.reason === 'enrollment' && r.enrollment) return answerText(lang, r.enrollment);
  let key: MessageKey = `refusal.${r.reason}`;
  if (r.reason === 'pin_wrong' && p['n'] !== undefined) key = 'refusal.pin_wrong_left';
  else if (r.reason === 'pin_wrong' && p['min'] !== undefined) key = 'refusal.pin_bad_format';
  return t(lang, key, p);
}

const REGISTERED_KEYS = {
  punch: {
    repeat: 'punch.repeat',
    awaitingRoster: 'punch.awaitingRoster',
    unknownCode: 'punch.unknownCode',
    heldNotAllowed: 'punch.heldNotAllowed',
    heldPinUnverified: 'punch.heldPinUnverified',
    registered: 'punch.registered',
  },
  console: {
    repeat: 'console.repeat',
    awaitingRoster: 'console.awaitingRoster',
    unknownCode: 'console.unknownCode',
    heldNotAllowed: 'console.heldNotAllowed',
    heldPinUnverified: 'console.heldPinUnverified',
    registered: 'console.registered',
  },
} as const satisfies Record<string, Record<string, MessageKey>>;

function registeredKey(r: Registered, where: keyof typeof REGISTERED_KEYS): MessageKey {
  const keys = REGISTERED_KEYS[where];
  if (r.repeat) return keys.repeat;
  if (r.employeeName === null) return r.note === 'awaiting_roster' ? keys.awaitingRoster : keys.unknownCode;
  if (r.note === 'held_not_allowed') return keys.heldNotAllowed;
  if (r.note === 'held_pin_unverified') return keys.heldPinUnverified;
  return keys.registered;
}

/** The outcome in one sentence: what a script reads in `timeclock punch --json` and the admin screen's notice. */
export function punchText(lang: Lang, r: PunchResultView): string {
  if (!r.ok) return refusalText(lang, r);
  return t(lang, registeredKey(r, 'punch'), { name: r.employeeName ?? '', time: r.localTime });
}

/**
 * One line per punch for the headless terminal: what the employee would read on screen, with the NSR of their receipt.
 */
export function consoleLine(lang: Lang, r: PunchResultView): string {
  if (!r.ok) {
    return r.reason === 'pin_required'
      ? t(lang, 'console.pin', { name: r.employeeName ?? '' })
      : t(lang, 'console.refused', { reason: refusalText(lang, r) });
  }
  const line = t(lang, registeredKey(r, 'console'), { name: r.employeeName ?? '', time: r.localTime });
  const nsr = typeof r.nsr === 'number' ? ` — ${t(lang, 'console.nsr', { nsr: String(r.nsr).padStart(9, '0') })}` : '';
  // Entry or exit, as the screen says it (a label, never a choice); not for a repeat.
  const direction =
    r.day && !r.repeat ? ` — ${t(lang, r.day.direction === 'entry' ? 'console.entry' : 'console.exit')}` : '';
  const unconfirmed = r.timeToConfirm ? ` (${t(lang, 'result.timeToConfirm')})` : '';
  return `${line}${unconfirmed}${nsr}${direction}`;
}
