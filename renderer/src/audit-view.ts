/**
 * What the admin screen says of the comparison of the journal with the service (agent/delivery/audit-runner.ts):
 * the one under way and the last one's summary, as label/value rows. Pure, so tests pin the words.
 */
import type { AuditState } from '../../src/contract.js';
import { formatDateTime, formatShortLocalDate } from './format.js';
import { t, type Lang } from './i18n.js';

export type AuditRow = {
  key: 'running' | 'last' | 'result' | 'missing' | 'delivered' | 'unexplained' | 'stopped';
  label: string;
  value: string;
};

/** The site's today as YYYY-MM-DD (the date inputs' form). */
export function localToday(now: number, timeZone: string | undefined): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone,
  }).formatToParts(now);
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Two calendar days, the first not after the second, at most 366 days apart (the contract's own rule). */
export function auditRangeOk(from: string, to: string): boolean {
  const day = (s: string): number =>
    /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) / 86_400_000 : Number.NaN;
  const a = day(from);
  const b = day(to);
  return Number.isFinite(a) && Number.isFinite(b) && a <= b && b - a < 366;
}

export function auditRows(s: AuditState, lang: Lang, timeZone: string | undefined): AuditRow[] {
  const rows: AuditRow[] = [];
  const day = (d: string): string => formatShortLocalDate(d, lang);
  const r = s.running;
  if (r) {
    const range = { from: day(r.from), to: day(r.to) };
    const value =
      r.requestsTotal === null
        ? t(lang, 'audit.runningUnknown', range)
        : t(lang, 'audit.running', { ...range, done: r.requestsDone, total: r.requestsTotal });
    rows.push({ key: 'running', label: t(lang, 'audit.runningLabel'), value });
  }
  const l = s.last;
  if (!l) {
    if (!r) rows.push({ key: 'last', label: t(lang, 'audit.last'), value: t(lang, 'audit.never') });
    return rows;
  }
  rows.push({
    key: 'last',
    label: t(lang, 'audit.last'),
    value: t(lang, 'audit.lastValue', { when: formatDateTime(l.at, lang, timeZone), from: day(l.from), to: day(l.to) }),
  });
  rows.push({
    key: 'result',
    label: t(lang, 'audit.result'),
    value: t(lang, 'audit.counts', { marks: l.marks, found: l.found, missing: l.missing, unchecked: l.unchecked }),
  });
  if (l.firstMissing.length > 0) {
    const more = l.missing > l.firstMissing.length ? ' …' : '';
    rows.push({
      key: 'missing',
      label: t(lang, 'audit.missingLabel'),
      value: l.firstMissing.map((n) => String(n).padStart(9, '0')).join(', ') + more,
    });
  }
  const note = t(lang, 'audit.note');
  if (l.missingDelivered > 0)
    rows.push({ key: 'delivered', label: note, value: t(lang, 'audit.missingDelivered', { n: l.missingDelivered }) });
  if (l.unexplained > 0)
    rows.push({ key: 'unexplained', label: note, value: t(lang, 'audit.unexplained', { n: l.unexplained }) });
  if (l.stopped) rows.push({ key: 'stopped', label: note, value: t(lang, 'audit.stopped') });
  return rows;
}
