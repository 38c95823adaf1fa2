/**
 * Dates, times and durations as the screens show them. Pure: every function takes the instant and
 * the locale/time zone it needs, so tests pin them down.
 */
import type { Lang } from './i18n.js';

/** The browser's own zone when the site has none (or an invalid one). */
export function effectiveTimeZone(siteZone: string | null | undefined): string | undefined {
  if (siteZone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: siteZone });
      return siteZone;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HH:MM (24 h) in the zone. */
/**
 * The idle clock, HH:MM:SS: people compare the terminal with their phone, and Portaria 671
 * (Annex IX) asks a collector to show hours, minutes and seconds.
 */
export function formatClock(at: number, lang: Lang, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(lang, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(at);
}

/** "quarta-feira, 5 de março de 2025" / "Wednesday, March 5, 2025". */
export function formatLongDate(at: number, lang: Lang, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(lang, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone,
  }).format(at);
}

/** A punch's local date (YYYY-MM-DD, already in the punch's zone) in words, without shifting it. */
export function formatLocalDate(localDate: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  if (!m) return localDate;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  return new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(at);
}

/** A short local date (dd/mm/yyyy or mm/dd/yyyy) from YYYY-MM-DD, for admin lists. */
export function formatShortLocalDate(localDate: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  if (!m) return localDate;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
  return new Intl.DateTimeFormat(lang, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    at,
  );
}

/** An instant as date and time (admin screens). */
export function formatDateTime(at: number, lang: Lang, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat(lang, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(at);
}

/**
 * A duration the way a person says it, largest unit first, at most two units:
 * 45 s, 3 min, 2 h 5 min, 3 d 4 h. Negative durations are shown as 0 s.
 */
export function formatDuration(ms: number, lang: Lang): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3_600);
  const m = Math.floor((s % 3_600) / 60);
  const unit = (n: number, u: 'day' | 'hour' | 'minute' | 'second'): string =>
    new Intl.NumberFormat(lang, { style: 'unit', unit: u, unitDisplay: 'short' }).format(n);
  if (d > 0) return h > 0 ? `${unit(d, 'day')} ${unit(h, 'hour')}` : unit(d, 'day');
  if (h > 0) return m > 0 ? `${unit(h, 'hour')} ${unit(m, 'minute')}` : unit(h, 'hour');
  if (m > 0) return unit(m, 'minute');
  return unit(s, 'second');
}

/** Clock skew, signed, in seconds with one decimal below a minute. */
export function formatSkew(ms: number, lang: Lang): string {
  const sign = ms > 0 ? '+' : ms < 0 ? '−' : '';
  const abs = Math.abs(ms);
  if (abs < 60_000) return `${sign}${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(abs / 1000)} s`;
  return `${sign}${formatDuration(abs, lang)}`;
}

/**
 * `text` cut to `max` characters with "…" when longer, never ending on half of a surrogate pair:
 * for text from the service that goes inside a sentence (a leave's type), where a CSS clamp would
 * hide the sentence's end. Names on their own are shortened by CSS, their whole text kept in the
 * page. (src/domain/people/long-text.ts `cutText` is the agent's same rule; the screen cannot import it.)
 */
export function shortText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, Math.max(0, end))}…`;
}
