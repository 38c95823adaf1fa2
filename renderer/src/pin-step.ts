/**
 * The employee's PIN step: whose PIN it asks for (first name, unless the terminal is set not to
 * name people), and a wrong PIN answered on the same screen (the ID kept, the field cleared, the
 * error under it) instead of the red refusal. A locked or throttled PIN still ends in the refusal.
 */
import type { PunchResultView } from '../../src/contract.js';
import { t, type Lang } from './i18n.js';

/**
 * Why the PIN is asked again: a wrong PIN (`left`: tries before the lockout, when the agent says) or one of the wrong
 * shape.
 */
export type PinError = { kind: 'wrong'; left: number | null } | { kind: 'format'; min: string; max: string };

/** What this needs of a screen (machine.ts `Screen`): structural, since machine.ts imports this file. */
type AnyScreen = { name: string };
type PinScreen = { name: 'pin'; value: string; for: object; employeeName: string | null; error?: PinError };
const isPin = (s: AnyScreen): s is PinScreen => s.name === 'pin';

/**
 * The PIN screen again, cleared and with the error, when `r` refuses a PIN typed on this PIN
 * screen for a credential the screen submitted (a reader's one-time challenge is spent by its
 * answer, so that one still shows the refusal). Null: not a retry.
 */
export function pinRetry<S extends AnyScreen>(s: S, r: PunchResultView): (S & PinScreen) | null {
  if (!isPin(s) || !('credential' in s.for) || r.ok || r.reason !== 'pin_wrong') return null;
  const p = r.params ?? {};
  const n = p['n'] === undefined ? NaN : Number(p['n']);
  const error: PinError =
    p['min'] !== undefined && p['max'] !== undefined
      ? { kind: 'format', min: p['min'], max: p['max'] }
      : { kind: 'wrong', left: Number.isFinite(n) ? n : null };
  return { ...s, value: '', error, employeeName: r.employeeName ?? s.employeeName };
}

export function pinErrorText(e: PinError, lang: Lang): string {
  if (e.kind === 'format') return t(lang, 'keypad.pinBadFormat', { min: e.min, max: e.max });
  return e.left === null ? t(lang, 'reason.pin_wrong') : t(lang, 'keypad.pinWrongLeft', { n: e.left });
}

/** The first name of "Ana Paula Ferreira da Silva": what the PIN step calls its employee. */
export function firstName(full: string): string {
  return full.trim().split(/\s+/)[0] ?? '';
}

/** The PIN step's title: "Ana, digite seu PIN", or without the name (unknown, or `pinShowName` false). */
export function pinTitle(employeeName: string | null, showName: boolean | undefined, lang: Lang): string {
  const name = employeeName && showName !== false ? firstName(employeeName) : '';
  return name !== '' ? t(lang, 'keypad.titlePinFor', { name }) : t(lang, 'keypad.titlePin');
}
