/**
 * The keypad's title and entry field: what may be typed (from the screen settings' `idKinds`),
 * a CPF shown with its mask as it is typed, and the whole input always visible (the font shrinks
 * to fit the field, so a CPF's 14 characters fit the 800×480 keypad).
 */
import type { ScreenSettings } from '../../src/contract.js';
import { cpfDisplay } from './cpf-mask.js';
import { t, type Lang } from './i18n.js';

export type IdKinds = NonNullable<ScreenSettings['idKinds']>;

/** What an agent that does not say allows: the configuration's default (identity.allowed.id). */
export const DEFAULT_ID_KINDS: IdKinds = ['external_id', 'registration_number', 'cpf'];

/** "Digite sua matrícula ou CPF"; without CPF when the terminal does not take one; "Digite seu CPF" when only a CPF. */
export function idTitle(kinds: IdKinds | undefined, lang: Lang): string {
  const k = kinds ?? DEFAULT_ID_KINDS;
  const cpf = k.includes('cpf');
  if (cpf && k.every((x) => x === 'cpf' || x === 'badge')) return t(lang, 'keypad.titleCpf');
  return cpf ? t(lang, 'keypad.titleIdOrCpf') : t(lang, 'keypad.titleId');
}

/** The typed ID as the field shows it: with the CPF mask where a CPF may be typed. */
export function displayedId(value: string, kinds: IdKinds | undefined): string {
  return (kinds ?? DEFAULT_ID_KINDS).includes('cpf') ? cpfDisplay(value) : value;
}

/** The smallest font, in px, before the field gives up shrinking (never reached below 32 characters at 800×480). */
const MIN_FONT_PX = 10;

/** Shows `shown` in the field, its font shrunk (never grown past the style's) until all of it fits. */
export function showValue(field: HTMLElement, text: HTMLElement, shown: string): void {
  if (text.textContent === shown && text.dataset.fitted === String(field.clientWidth)) return;
  text.textContent = shown;
  text.style.fontSize = '';
  const cs = getComputedStyle(field);
  const room = field.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const width = text.scrollWidth;
  text.dataset.fitted = String(field.clientWidth);
  if (room <= 0 || width <= room) return;
  const base = parseFloat(getComputedStyle(text).fontSize);
  // Letter spacing is in em: the width scales with the font. A little margin for rounding.
  text.style.fontSize = `${Math.max(MIN_FONT_PX, Math.floor(base * (room / width) * 0.97 * 10) / 10)}px`;
}
