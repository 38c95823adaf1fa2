/**
 * What the admin connection tab says about the fleet (issue 24): this terminal's id with its host,
 * where its requests' slots come from (the account's window in Redis, or its own share and why),
 * and another live terminal under its id. Pure: status in, words out.
 */
import type { StatusView } from '../../src/contract.js';
import { t, type Lang } from './i18n.js';

export type WindowView = {
  text: string;
  tone: 'good' | 'bad' | 'muted';
  mode: NonNullable<StatusView['rate']>['shared'];
};

/** "tc-ab12cd34 on host caixa-3" (the id alone from an agent that does not say its host). */
export function terminalText(s: Pick<StatusView, 'terminalId' | 'fleet'>, lang: Lang): string {
  return s.fleet ? t(lang, 'fleet.terminalValue', { id: s.terminalId, host: s.fleet.host }) : s.terminalId;
}

/** The shared window's mode; null when the agent did not say. */
export function windowView(s: Pick<StatusView, 'rate'>, lang: Lang): WindowView | null {
  const r = s.rate;
  if (!r) return null;
  switch (r.shared) {
    case 'local':
      return { text: t(lang, 'fleet.mode.local'), tone: 'muted', mode: r.shared };
    case 'redis':
      return { text: t(lang, 'fleet.mode.redis'), tone: 'good', mode: r.shared };
    case 'joining':
      return { text: t(lang, 'fleet.mode.joining'), tone: 'muted', mode: r.shared };
    case 'fallback-local':
      return {
        text: t(lang, 'fleet.mode.fallback', { why: t(lang, `fleet.why.${r.reason ?? 'error'}`) }),
        tone: 'bad',
        mode: r.shared,
      };
  }
}

/** The alert about another live terminal under this id, or null. */
export function conflictView(
  s: Pick<StatusView, 'terminalId' | 'fleet'>,
  lang: Lang,
): { title: string; body: string } | null {
  const c = s.fleet?.conflict;
  if (!c || c.others.length === 0) return null;
  const others = c.others.map((o) => t(lang, 'fleet.conflictOther', { host: o.host, instance: o.instance })).join(', ');
  return { title: t(lang, 'fleet.conflictTitle'), body: t(lang, 'fleet.conflictBody', { id: s.terminalId, others }) };
}
