/**
 * Instants and spans as a person reads them on the command line and in human log lines: the
 * site's wall time ("01:45", a date when it is not today) with how far it is from now
 * ("em 5 h 59 min"), instead of UTC ISO with milliseconds or a raw epoch. Pure: `now` and the zone
 * are given.
 */
import { localDateTime } from './local-time.js';

/** The terminal's languages (messages/lang.ts Lang; spelled out here: domain imports only domain). */
type Lang = 'pt-BR' | 'es' | 'en';

const WORDS: Record<Lang, { in: string; ago: string; now: string }> = {
  'pt-BR': { in: 'em', ago: 'há', now: 'agora' },
  es: { in: 'en', ago: 'hace', now: 'ahora' },
  en: { in: 'in', ago: 'ago', now: 'now' },
};

/** "5 h 59 min", "12 min", "40 s", "2 d 3 h": the two largest units, rounded down. */
export function spanText(ms: number): string {
  const s = Math.floor(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** "in 5 h 59 min", "há 3 min": a span before or after now, in the language's word order. */
export function relativeText(at: number, now: number, lang: Lang): string {
  const w = WORDS[lang];
  if (Math.abs(at - now) < 1000) return w.now;
  const span = spanText(at - now);
  if (at > now) return `${w.in} ${span}`;
  return lang === 'en' ? `${span} ${w.ago}` : `${w.ago} ${span}`;
}

/** "01:45 (em 5 h 59 min)"; "2026-11-30 01:45 (in 1 d 2 h)" when it is not today in that zone. */
export function localWhen(at: number, now: number, zone: string, lang: Lang): string {
  const then = localDateTime(at, zone);
  const today = localDateTime(now, zone).date;
  return `${then.date === today ? '' : `${then.date} `}${then.time} (${relativeText(at, now, lang)})`;
}
