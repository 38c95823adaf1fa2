/**
 * What the presence board says about where its facts come from (issue 30): the site's stream (live,
 * cut off since when, or none), the service's records of the day, this terminal's entries not yet
 * shared, and a gap in the stream being read again from the service. Pure: the board's sources in,
 * lines out.
 */
import type { PresenceBoardView } from '../../src/contract.js';
import { t, type Lang } from './i18n.js';

/** HH:MM in the site's zone. */
export const clockText = (at: number, lang: string, timeZone: string | undefined): string =>
  new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(at);

export function presenceSourceLines(b: PresenceBoardView, lang: Lang, timeZone: string | undefined): string[] {
  const s = b.sources;
  return [
    s.stream.state === 'cut_off'
      ? t(lang, 'presence.stream.cut_off', { time: clockText(s.stream.since ?? b.at, lang, timeZone) })
      : t(lang, s.stream.state === 'live' ? 'presence.stream.live' : 'presence.stream.off'),
    s.service.at !== null ? t(lang, 'presence.service', { time: clockText(s.service.at, lang, timeZone) }) : null,
    s.unpublished.count > 0 ? t(lang, 'presence.unpublished', { n: s.unpublished.count }) : null,
    s.stream.gap
      ? t(lang, 'presence.streamGap', { time: clockText(s.stream.gap.at, lang, timeZone), n: s.stream.gap.people })
      : null,
  ].filter((x): x is string => x !== null);
}
