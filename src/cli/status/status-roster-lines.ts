/**
 * `timeclock status` on the roster beyond its size: what a manager must know, each line (with its
 * list of employees under it) only when it applies.
 */
import type { AgentStatus } from '../../agent/status/status.js';
import { inParens, type Say } from './status-say.js';

type Roster = AgentStatus['roster'];

export function rosterLines(say: Say, s: AgentStatus, at: (t: number) => string): string[] {
  const r = s.roster;
  return [
    ...(r.complete ? [] : [say.text('status.employeeList')]),
    ...nextSyncLines(say, r, at),
    ...heldShrinkLines(say, r, at),
    ...siteFilterLines(say, r),
    ...skippedLines(say, r),
    ...notAllowedLines(say, r),
    ...healthLines(say, r),
    ...noCpfLines(say, r),
    ...noEmployerLines(say, r),
    ...unmatchedLines(say, s),
  ];
}

function nextSyncLines(say: Say, r: Roster, at: (t: number) => string): string[] {
  if (r.nextSyncAt === null) return [];
  const changes = r.refreshBy === 'changes' ? say.text('status.nextSync.changes') : '';
  return [say.label('status.label.nextSync') + at(r.nextSyncAt) + changes];
}

function heldShrinkLines(say: Say, r: Roster, at: (t: number) => string): string[] {
  const h = r.heldShrink;
  if (!h) return [];
  const recheck = h.recheckAt ? ` (${at(h.recheckAt)})` : '';
  return [say.text('status.heldShrink', { n: String(h.employees), inUse: String(h.inUse), recheck })];
}

/** The service may ignore the site filter: as many employees with it as without. */
function siteFilterLines(say: Say, r: Roster): string[] {
  if (r.siteFilter !== 'suspect') return [];
  const said = say.text('status.siteFilter', { setting: 'api.dialect.siteFilterParam' });
  return [say.label('status.label.siteFilter') + said];
}

function skippedLines(say: Say, r: Roster): string[] {
  const k = r.skipped;
  if (!k || k.count <= 0) return [];
  return [
    say.label('status.label.skipped') + say.text('status.skipped', { n: String(k.count) }),
    ...k.examples.map((e) => {
      const why = say.text(e.reason === 'no_ids' ? 'status.skipped.no_ids' : 'status.skipped.other');
      return `${say.listIndent}#${e.position}${inParens(e.id)}: ${why}`;
    }),
  ];
}

function notAllowedLines(say: Say, r: Roster): string[] {
  const n = r.notAllowed;
  if (n.count <= 0) return [];
  return [
    say.label('status.label.notAllowed') + say.text('status.notAllowed', { n: String(n.count) }),
    ...n.employees.map((e) => {
      const held = say.text('status.notAllowed.held', { n: String(e.heldPunches) });
      return `${say.listIndent}${e.name}${inParens(e.externalId)}: ${held}`;
    }),
  ];
}

function healthLines(say: Say, r: Roster): string[] {
  const h = r.health;
  if (h.missingWorkSchedule + h.missingEmployer + h.badTimeZone <= 0) return [];
  const counts = {
    schedule: String(h.missingWorkSchedule),
    employer: String(h.missingEmployer),
    zone: String(h.badTimeZone),
  };
  const and = say.text('status.health.and');
  return [
    say.label('status.label.rosterHealth') + say.text('status.health', counts),
    ...h.employees.map((e) => {
      const what = e.missing.map((m) => say.text(`status.missing.${m}`)).join(and);
      return `${say.listIndent}${e.name}${inParens(e.externalId)}: ${say.text('status.health.missing', { what })}`;
    }),
  ];
}

function noCpfLines(say: Say, r: Roster): string[] {
  const g = r.health.evidence?.noCpf;
  if (!g || g.count <= 0) return [];
  return [
    say.label('status.label.noCpf') + say.text('status.noCpf', { n: String(g.count) }),
    ...g.employees.map((e) => `${say.listIndent}${e.name}${inParens(e.externalId)}`),
  ];
}

function noEmployerLines(say: Say, r: Roster): string[] {
  const g = r.health.evidence?.noEmployer;
  if (!g || g.count <= 0) return [];
  return [
    say.label('status.label.noEmployer') + say.text('status.noEmployer', { n: String(g.count) }),
    ...g.employees.map((e) => {
      const why = say.text(e.reason === 'unread' ? 'status.noEmployer.unread' : 'status.noEmployer.unknown');
      return `${say.listIndent}${e.name}${inParens(e.externalId)}: ${why}`;
    }),
  ];
}

function unmatchedLines(say: Say, s: AgentStatus): string[] {
  const u = s.unresolved;
  if (u.count <= 0) return [];
  const oldest = u.oldestAt === null ? say.text('status.na') : say.since(u.oldestAt);
  return [say.label('status.label.unmatched') + say.text('status.unmatched', { n: String(u.count), oldest })];
}
