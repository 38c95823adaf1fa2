/**
 * What the idle screen and the admin roster tab say about the employee list (status.roster) and
 * the punches kept for codes it did not know. Pure: status in, words out, so tests pin them down;
 * screens/admin-roster.ts only lays them out.
 */
import type { StatusView } from '../../src/contract.js';
import type { z } from 'zod';
import type { unresolvedPunchSchema } from '../../src/contract.js';
import { formatDateTime, formatDuration } from './format.js';
import { t, type Lang, type MessageKey } from './i18n.js';

type Roster = StatusView['roster'];
export type UnresolvedPunch = z.infer<typeof unresolvedPunchSchema>;

/** The idle screen's line when the terminal has no complete employee list; null when it has one (or no status yet). */
export function noRosterNotice(status: StatusView | null, lang: Lang): string | null {
  return status && !status.roster.complete ? t(lang, 'idle.noRoster') : null;
}

/** "complete" / "not complete — punches are kept and confirmed later". */
export function listState(ro: Roster, lang: Lang): { complete: boolean; text: string } {
  return { complete: ro.complete, text: t(lang, ro.complete ? 'roster.listComplete' : 'roster.listIncomplete') };
}

/** When the next sync is due: the time and how far off it is. */
export function nextSyncText(nextSyncAt: number | null, now: number, lang: Lang, timeZone: string | undefined): string {
  if (nextSyncAt === null) return t(lang, 'roster.nextSyncNone');
  const time = formatDateTime(nextSyncAt, lang, timeZone);
  // Within a second: due now (a sync about to start, or waiting for its turn behind punches).
  if (nextSyncAt - now < 1_000) return t(lang, 'roster.nextSyncDue', { time });
  return t(lang, 'roster.nextSyncAt', { time, age: formatDuration(nextSyncAt - now, lang) });
}

export type SiteFilterView = { state: NonNullable<Roster['siteFilter']>; value: string; warning: string | null };

/** The site filter's check; null without a site. `warning`: the suspect case, said in full. */
export function siteFilterView(sf: Roster['siteFilter'], lang: Lang): SiteFilterView | null {
  if (sf === null) return null;
  return {
    state: sf,
    value: t(lang, `roster.siteFilter.${sf}`),
    warning: sf === 'suspect' ? t(lang, 'roster.siteFilterWarning') : null,
  };
}

export type HeldShrinkView = { title: string; body: string; recheck: string | null; confirm: string };

/** A sync that would shrink the roster by more than half, held: what it brought, since when, what happens next. */
export function heldShrinkView(
  hs: Roster['heldShrink'],
  lang: Lang,
  timeZone: string | undefined,
): HeldShrinkView | null {
  if (hs === null) return null;
  const when = (at: number): string => formatDateTime(at, lang, timeZone);
  return {
    title: t(lang, 'roster.shrinkTitle'),
    body: t(lang, 'roster.shrinkBody', { employees: hs.employees, inUse: hs.inUse, since: when(hs.since) }),
    recheck: hs.recheckAt === null ? null : t(lang, 'roster.shrinkRecheck', { time: when(hs.recheckAt) }),
    confirm: t(lang, 'roster.shrinkConfirm'),
  };
}

export type SkippedView = { summary: string; examples: string[]; more: string | null };

/** Records of the last sync the terminal could not use: the count, the first ones, and how many more. */
export function skippedView(sk: Roster['skipped'], lang: Lang): SkippedView | null {
  if (sk === null || sk.count === 0) return null;
  const examples = sk.examples.map((e) =>
    e.id === null
      ? t(lang, 'roster.skippedExampleNoId', {
          position: String(e.position),
          reason: t(lang, `roster.skipReason.${e.reason}`),
        })
      : t(lang, 'roster.skippedExample', {
          position: String(e.position),
          id: e.id,
          reason: t(lang, `roster.skipReason.${e.reason}`),
        }),
  );
  const rest = sk.count - sk.examples.length;
  return {
    summary: t(lang, 'roster.skipped', { n: sk.count }),
    examples,
    more: rest > 0 ? t(lang, 'roster.andMore', { n: rest }) : null,
  };
}

export type NotAllowedView = {
  title: string;
  help: string;
  rows: { id: string; name: string; held: string; heldPunches: number }[];
  more: string | null;
};

/** Employees whose contract does not allow API records (their punches are held); null when there are none. */
export function notAllowedView(na: Roster['notAllowed'], lang: Lang): NotAllowedView | null {
  if (na.count === 0 && na.employees.length === 0) return null;
  const rest = na.count - na.employees.length;
  return {
    title: t(lang, 'roster.notAllowedTitle'),
    help: t(lang, 'roster.notAllowedHelp'),
    rows: na.employees.map((e) => ({
      id: e.id,
      name: e.externalId ? `${e.name} (${e.externalId})` : e.name,
      held: t(lang, 'roster.notAllowedHeld', { n: e.heldPunches }),
      heldPunches: e.heldPunches,
    })),
    more: rest > 0 ? t(lang, 'roster.andMore', { n: rest }) : null,
  };
}

export type UnresolvedRow = { id: number; when: string; code: string; kind: string; checked: string };

/** A punch kept for a code no roster knew, as its row reads: when, the code, badge or ID, last checked. */
export function unresolvedRow(p: UnresolvedPunch, lang: Lang, timeZone: string | undefined): UnresolvedRow {
  const kind =
    p.credential_kind === 'badge' || p.credential_kind === 'id'
      ? t(lang, `roster.kind.${p.credential_kind}`)
      : p.credential_kind;
  return {
    id: p.id,
    when: formatDateTime(p.captured_at, lang, timeZone),
    code: p.code,
    kind,
    checked:
      p.last_checked_at === null
        ? t(lang, 'roster.unresolvedNotChecked')
        : t(lang, 'roster.unresolvedChecked', { time: formatDateTime(p.last_checked_at, lang, timeZone) }),
  };
}

const MISSING: Record<Roster['health']['employees'][number]['missing'][number], MessageKey> = {
  work_schedule: 'roster.missingSchedule',
  employer: 'roster.missingEmployer',
  timezone: 'roster.missingTimeZone',
};

export type HealthView =
  | { ok: true; text: string }
  | { ok: false; counts: string; timeZone: string | null; employees: { id: string; name: string; missing: string }[] };

export type EvidenceGapsView = { lines: string[]; employees: { id: string; name: string; missing: string }[] } | null;

/**
 * Issue 26, before they punch: workers without a CPF (the AFD shows zeros for them) and those whose
 * employer the service does not name (receipts and AFD use the configured one). Null when none.
 */
export function evidenceGapsView(hl: Roster['health'], lang: Lang): EvidenceGapsView {
  const ev = hl.evidence;
  if (!ev || ev.noCpf.count + ev.noEmployer.count === 0) return null;
  const name = (e: { name: string; externalId: string | null }) =>
    e.externalId ? `${e.name} (${e.externalId})` : e.name;
  return {
    lines: [
      ev.noCpf.count > 0 ? t(lang, 'roster.noCpf', { n: ev.noCpf.count }) : null,
      ev.noEmployer.count > 0 ? t(lang, 'roster.noOwnEmployer', { n: ev.noEmployer.count }) : null,
    ].filter((l): l is string => l !== null),
    employees: [
      ...ev.noCpf.employees.map((e) => ({ id: e.id, name: name(e), missing: t(lang, 'roster.missingCpf') })),
      ...ev.noEmployer.employees.map((e) => ({
        id: e.id,
        name: name(e),
        missing: t(lang, e.reason === 'unread' ? 'roster.employerUnread' : 'roster.employerUnknown'),
      })),
    ],
  };
}

/** Incomplete employee records: counts (the time zone's only when some are bad) and who lacks what. */
export function healthView(hl: Roster['health'], lang: Lang): HealthView {
  if (hl.employees.length === 0 && hl.missingEmployer === 0 && hl.missingWorkSchedule === 0 && hl.badTimeZone === 0)
    return { ok: true, text: t(lang, 'roster.healthOk') };
  return {
    ok: false,
    counts: t(lang, 'roster.healthCounts', { schedule: hl.missingWorkSchedule, employer: hl.missingEmployer }),
    timeZone: hl.badTimeZone > 0 ? t(lang, 'roster.healthTimeZone', { n: hl.badTimeZone }) : null,
    employees: hl.employees.map((e) => ({
      id: e.id,
      name: e.externalId ? `${e.name} (${e.externalId})` : e.name,
      missing: e.missing.map((m) => t(lang, MISSING[m])).join(', '),
    })),
  };
}

/**
 * The last sync in a few words of the screen's language: the agent's own error text is English
 * (for logs and the CLI), so outcomes the screen knows are worded here; a failure keeps the
 * service's reason.
 */
export function lastSyncText(ro: Roster, lang: Lang): string {
  const s = ro.lastSync;
  if (s === null) return t(lang, 'roster.never');
  if (s.ok) return t(lang, 'roster.syncOk', { n: s.employees ?? ro.size });
  if (s.outcome === 'shrink_held') return t(lang, 'roster.syncHeld', { n: ro.heldShrink?.employees ?? '?' });
  if (s.outcome === 'incomplete') return t(lang, 'roster.syncIncomplete');
  return t(lang, 'roster.syncFailed', { error: s.error ?? '?' });
}
