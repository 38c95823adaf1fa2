/**
 * Accessibility of a punch's result: its text (headline, name, time, message) announced through the
 * page's one aria-live="assertive" region, and, when the screen settings ask for it (`speech`), a
 * spoken confirmation in the screen's language: the first name and "entry registered", or the
 * refusal's headline. Does nothing where the browser has no speechSynthesis.
 */
import { shortText } from './format.js';
import type { ResultView } from './result-view.js';
import type { Lang } from './i18n.js';

/** The voice's language for the screen's language. */
export const SPEECH_LANG: Record<Lang, string> = { 'pt-BR': 'pt-BR', es: 'es', en: 'en-US' };

/** A line read aloud is at most this long: a name from the service may be any length. */
export const ANNOUNCED_LINE_MAX = 200;

/**
 * What a screen reader is told: the result's lines that have text, in reading order, each at most ANNOUNCED_LINE_MAX
 * characters.
 */
export function announcementText(
  v: Pick<ResultView, 'headline' | 'name' | 'time' | 'message'>,
  extra: ReadonlyArray<string | null> = [],
): string {
  const lines = [v.headline, v.name, v.time, v.message, ...extra]
    .filter((s): s is string => s !== null && s.trim() !== '')
    .map((s) => shortText(s.trim(), ANNOUNCED_LINE_MAX));
  return lines.map((s) => (/[.!?…]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`)).join(' ');
}

/** What is said aloud: "Ana, entrada registrada" (first name, lower-cased headline), or the headline alone. */
export function speechText(v: Pick<ResultView, 'ok' | 'headline' | 'name'>, lang: Lang): string {
  const first = shortText(v.name.trim().split(/\s+/)[0] ?? '', 40);
  if (!v.ok || first === '') return v.headline;
  return `${first}, ${v.headline.toLocaleLowerCase(lang)}`;
}

const LIVE_ID = 'live-announcer';

/** The page's one assertive live region, outside the screen's root (which is redrawn), made on first use. */
function liveRegion(): HTMLElement {
  const found = document.getElementById(LIVE_ID);
  if (found) return found;
  const el = document.createElement('div');
  el.id = LIVE_ID;
  el.className = 'sr-only';
  el.dataset.testid = 'live';
  el.setAttribute('aria-live', 'assertive');
  el.setAttribute('aria-atomic', 'true');
  document.body.append(el);
  return el;
}

/** Tells screen readers `text` now (emptied first, so the same words twice are announced twice). */
export function announce(text: string): void {
  const el = liveRegion();
  el.textContent = '';
  setTimeout(() => (el.textContent = text), 50);
}

type SpeechGlobals = { speechSynthesis?: SpeechSynthesis; SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance };

/** Says `text` in `lang`, cutting off what was still being said; false where the browser cannot speak. */
export function speak(text: string, lang: Lang): boolean {
  const g = globalThis as unknown as SpeechGlobals;
  if (!g.speechSynthesis || !g.SpeechSynthesisUtterance || text === '') return false;
  try {
    const u = new g.SpeechSynthesisUtterance(text);
    u.lang = SPEECH_LANG[lang];
    g.speechSynthesis.cancel();
    g.speechSynthesis.speak(u);
    document.body.dataset.lastSpeech = text;
    return true;
  } catch {
    return false;
  }
}
