/**
 * What the idle screen's connection line and the admin queue and connection tabs say about
 * delivery: the connection state in words, a set-up problem (the service answered from another
 * address, or not as the API) and the configuration warnings. Pure: status in, words out.
 */
import type { StatusView } from '../../src/contract.js';
import { connectionOf } from './connection.js';
import { formatDateTime, formatDuration } from './format.js';
import { t, type Lang } from './i18n.js';

export type SetupProblem = NonNullable<StatusView['setupProblem']>;

/**
 * redirect: the service answered from another address (a 3xx; `location` is where it points, when
 * it said); not_api: the address answered, but not as the API (an HTML page, a proxy's 404…).
 */
export type SetupKind = 'redirect' | 'not_api';

export type SetupProblemView = {
  kind: SetupKind;
  /** Where the redirect points, whole (for data-location); null when the service did not say. */
  location: string | null;
  /** The line itself: "Sending paused: … — check …". `location` shortened to `maxLocation` characters. */
  line: string;
  /** The service's own answer, for the admin screen ("Service answer: …"). */
  reason: string;
  /** Since when, and that capture goes on. */
  since: string;
};

/** The agent's reason for a redirect without a Location header starts this way (src/api/classify.ts). */
const REDIRECT_REASON = /another address/i;

export function setupKindOf(sp: SetupProblem): SetupKind {
  return sp.location !== null || REDIRECT_REASON.test(sp.reason) ? 'redirect' : 'not_api';
}

/** Keeps the start of a long text and marks the cut with "…". */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/** An address in at most `max` characters: without its query and fragment when too long, then cut. */
export function shortLocation(location: string, max: number): string {
  if (location.length <= max) return location;
  const bare = location.replace(/[?#].*$/s, '');
  return shorten(bare === '' ? location : bare, max);
}

export function setupProblemView(
  sp: SetupProblem,
  lang: Lang,
  timeZone: string | undefined,
  opts: { maxLocation?: number } = {},
): SetupProblemView {
  const kind = setupKindOf(sp);
  const location = sp.location === null || sp.location.trim() === '' ? null : sp.location;
  const line =
    kind === 'not_api'
      ? t(lang, 'conn.setupNotApi')
      : location === null
        ? t(lang, 'conn.setupNoLocation')
        : t(lang, 'conn.setup', {
            location: opts.maxLocation === undefined ? location : shortLocation(location, opts.maxLocation),
          });
  return {
    kind,
    location,
    line,
    reason: t(lang, 'setup.reason', { reason: sp.reason }),
    since: t(lang, 'setup.since', { time: formatDateTime(sp.at, lang, timeZone) }),
  };
}

/**
 * How much of a redirect's address the idle line shows, so the line (and "check the API address"
 * at its end) fits three lines of the footer at 800×480; the whole of it is on the admin screen.
 */
export const IDLE_LOCATION_CHARS = 40;
/** The admin alert's title: the full address is in the service's answer just below it. */
export const ADMIN_LOCATION_CHARS = 72;

/** The idle screen's connection line. */
export function connectionText(status: StatusView | null, lang: Lang): string {
  const { state, waiting } = connectionOf(status);
  switch (state) {
    case 'online':
      return waiting > 0 ? t(lang, 'conn.onlineSending', { n: waiting }) : t(lang, 'conn.online');
    case 'errors':
      return waiting > 0 ? t(lang, 'conn.errors', { n: waiting }) : t(lang, 'conn.errorsNone');
    case 'offline':
      return waiting > 0 ? t(lang, 'conn.offline', { n: waiting }) : t(lang, 'conn.offlineNone');
    case 'paused':
      return t(lang, 'conn.paused', { n: waiting });
    case 'setup':
      // connectionOf answers 'setup' only with a set-up problem.
      return status?.setupProblem
        ? setupProblemView(status.setupProblem, lang, undefined, { maxLocation: IDLE_LOCATION_CHARS }).line
        : t(lang, 'conn.unknown');
    case 'unknown':
      return t(lang, 'conn.unknown');
  }
}

export type WarningsView = { title: string; items: string[] };

/**
 * The configuration warnings (the agent's English text) under a heading in the screen's language; null when there are
 * none.
 */
export function warningsView(warnings: readonly string[], lang: Lang): WarningsView | null {
  const items = warnings.map((w) => w.trim()).filter((w) => w !== '');
  return items.length === 0 ? null : { title: t(lang, 'conn.warnings'), items };
}

/** The legal tolerance for a collector's clock (the agent's `clockSkewThresholdMs` default). */
export const CLOCK_TOLERANCE_MS = 30_000;

/**
 * The terminal's clock against the service's, said plainly when past the tolerance: how far and
 * which way (`skewMs` is service minus terminal: negative, the terminal is fast). Null within it.
 */
export function clockWarning(skewMs: number | null, lang: Lang): string | null {
  if (skewMs === null || Math.abs(skewMs) <= CLOCK_TOLERANCE_MS) return null;
  return t(lang, skewMs < 0 ? 'conn.clockFast' : 'conn.clockSlow', { by: formatDuration(Math.abs(skewMs), lang) });
}

/**
 * What the terminal makes of the service's clock (status `serviceClock`), said plainly when it is
 * not simply in use: off (this terminal's synchronised clock is kept), no usable Date, or a jump
 * waiting for a second answer. Null otherwise.
 */
export function serviceClockWarning(sc: StatusView['serviceClock'], lang: Lang): string | null {
  if (!sc) return null;
  switch (sc.state) {
    case 'ok':
      return null;
    case 'off': {
      const off = sc.offsetMs ?? 0;
      return t(lang, off > 0 ? 'conn.serviceClockAhead' : 'conn.serviceClockBehind', {
        by: formatDuration(Math.abs(off), lang),
      });
    }
    case 'no_date':
      return t(lang, 'conn.serviceNoDate');
    case 'unconfirmed':
      return t(lang, 'conn.serviceUnconfirmed', { by: formatDuration(Math.abs(sc.jumpMs ?? sc.offsetMs ?? 0), lang) });
  }
}
