import { serviceClockSentence } from '../agent/service-clock.js';
import type { AgentStatus } from '../agent/status.js';
import { cutText } from '../domain/long-text.js';
import { chooseTimeZone } from '../domain/local-time.js';
import { localWhen } from '../domain/when-text.js';
import { fleetLines } from './fleet-lines.js';
import type { PunchResult } from '../domain/punch.js';
import type { Lang } from '../messages/lang.js';
import { consoleLine, punchText } from '../messages/punch-text.js';
import { cliLang } from './lang.js';
import { absentRouteLines, connectionWord } from './service-lines.js';

/** A name on the console's one line per punch: as the receipt's QR code keeps it (`--json` has it whole). */
export const CONSOLE_NAME_MAX = 120;

/** One line per punch for the headless terminal: what the employee would read on screen, with the receipt's NSR. */
export function punchLine(r: PunchResult, lang: Lang = cliLang()): string {
  const name = r.employeeName;
  return consoleLine(lang, typeof name === 'string' && name.length > CONSOLE_NAME_MAX ? { ...r, employeeName: cutText(name, CONSOLE_NAME_MAX) } : r);
}

/** "1 mark", "2 marks": the command line's own English lines (the catalogue words what employees and managers read). */
export function counted(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

export function punchJson(r: PunchResult): string {
  return JSON.stringify(
    r.ok
      ? {
          ok: true,
          repeat: r.repeat,
          punch_id: r.punchId,
          nsr: r.nsr,
          employee_name: r.employeeName,
          employee_external_id: r.employeeExternalId,
          local_date: r.localDate,
          local_time: r.localTime,
          message: punchText('en', r),
          note: r.note ?? null,
        }
      : { ok: false, reason: r.reason, employee_external_id: r.employeeExternalId ?? null, local_date: null, local_time: null, message: punchText('en', r) },
  );
}

export function ago(ms: number | null): string {
  if (ms === null) return 'never';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ago`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h ago`;
}

/**
 * An instant of status in the site's wall time with how far from now: "01:45 (in 5 h 59 min)".
 * The zone: the site's, else the configured one, else this machine's.
 */
function whenIn(s: AgentStatus, zone: string | undefined): (at: number) => string {
  const z = chooseTimeZone([s.site?.timezone, zone, Intl.DateTimeFormat().resolvedOptions().timeZone]);
  const lang = cliLang();
  return (at) => localWhen(at, s.now, z, lang);
}

export function statusText(s: AgentStatus, zone?: string): string {
  const q = s.queue;
  const when = whenIn(s, zone);
  const lines = [
    `version:       ${s.version}`,
    `terminal:      ${s.terminalId}${s.fleet ? ` on host ${s.fleet.host}` : ''}`,
    `agent:         ${s.agentRunning ? 'running' : 'not running (status from the database)'}`,
    `connection:    ${connectionWord(s)}${s.lastContactAt ? ` (since ${ago(s.now - s.lastContactAt)})` : ''}${s.lastAnsweredAt ? `; last answer ${ago(s.now - s.lastAnsweredAt)}` : ''}`,
    `queue:         pending ${q.pending}, sending ${q.sending}, in doubt ${q.in_doubt}, sent ${q.sent}, rejected ${q.rejected}, held ${q.held}`,
    `oldest unsent: ${s.oldestUnsentAgeMs === null ? 'none' : ago(s.oldestUnsentAgeMs)}`,
    `rate window:   ${s.rateWindow.used}/${s.rateWindow.limit} used (per ${s.rateWindow.windowMs / 1000}s)`,
    ...fleetLines(s, ago),
    `roster:        ${s.roster.size} employees, last sync ${s.roster.lastSync?.lastOkAt ? ago(s.now - s.roster.lastSync.lastOkAt) : 'never'}` +
      (s.roster.lastSync && !s.roster.lastSync.ok ? ` (last attempt failed: ${s.roster.lastSync.error})` : '') +
      (s.roster.progress ? ` (syncing: page ${s.roster.progress.pagesDone}/${s.roster.progress.pagesTotal ?? '?'})` : ''),
    `site:          ${s.site ? `${s.site.name} (${s.site.id})` : 'all active employees (no site configured)'}`,
    `badges:        ${s.roster.enrolledBadges} enrolled`,
    ...s.readers.map(
      (r) =>
        `reader ${r.name}: ${r.connected ? `connected (${r.device})` : `NOT CONNECTED${r.lastDisconnectAt ? ` since ${ago(s.now - r.lastDisconnectAt)}` : ''}`}, ` +
        `${r.scans} scans, last ${r.lastScanAt ? ago(s.now - r.lastScanAt) : 'never'}, ${r.errors} dropped, ${r.disconnects} disconnects`,
    ),
    `clock skew:    ${s.clockSkewMs === null ? 'unknown' : Math.abs(s.clockSkewMs) < 1000 ? 'none measurable (within ±1 s of the service)' : `${(s.clockSkewMs / 1000).toFixed(1)}s against the service`}`,
    ...(s.serviceClock && s.serviceClock.state !== 'ok' ? [`service clock: ${serviceClockSentence(s.serviceClock)} (since ${ago(s.now - s.serviceClock.at)})`] : []),
  ];
  lines.push(...storageLines(s), ...rosterLines(s, when), ...integrityLines(s), ...journalLines(s), ...retentionLines(s));
  if (s.settings.token.warning) lines.push(`API token:     ${s.settings.token.warning}`);
  if (s.authRefused) lines.push(`TOKEN REFUSED: ${s.authRefused.reason} (${ago(s.now - s.authRefused.at)}); sending paused, punches are kept`);
  if (s.sendingPaused) lines.push(`sending paused: ${s.sendingPaused.reason} until ${when(s.sendingPaused.until)}`);
  if (s.setupProblem) lines.push(`SET-UP PROBLEM: ${s.setupProblem.reason} (${ago(s.now - s.setupProblem.at)}); sending backs off, punches are kept — check api.baseUrl`);
  lines.push(...absentRouteLines(s));
  if (s.queue.held > 0) lines.push(`held:          ${s.queue.held} punches kept and not sent (timeclock held list)`);
  for (const w of s.warnings) lines.push(`warning:       ${w}`);
  if (s.collisions.count > 0) {
    lines.push(
      `same minute:   ${s.collisions.count} punches share their local minute with another of the same employee (a DST change): both were kept and sent; payroll should check:`,
      ...s.collisions.punches.map((p) => `                 ${p.employeeName}${p.externalId ? ` (${p.externalId})` : ''} ${p.localDate} ${p.localTime}`),
    );
  }
  lines.push(`last error:    ${s.lastError ? `${s.lastError.message} (${ago(s.now - s.lastError.at)})` : 'none'}`);
  return lines.join('\n');
}

/** The last background integrity check; a damaged file is an alert, as a refused token is. */
function integrityLines(s: AgentStatus): string[] {
  const c = s.integrity;
  if (!c) return [`database:      not checked yet (the terminal checks it ${s.agentRunning ? 'shortly' : 'after it starts'}, then daily)`];
  const when = `${ago(s.now - c.at)}, took ${(c.ms / 1000).toFixed(1)} s`;
  if (c.result === 'ok') return [`database:      integrity ok (checked ${when})`];
  if (c.result === 'unchecked') return [`database:      integrity check could not run (${when}): ${c.problems[0] ?? 'unknown reason'}`];
  return [
    `DATABASE DAMAGED: the integrity check failed (${when}); punches are still taken — copy the file aside for support and see README "Troubleshooting":`,
    ...c.problems.slice(0, 5).map((p) => `                 ${p}`),
  ];
}

/** The evidence journal: the next NSR, and whether its chains verified; a broken one is an alert (punches go on). */
function journalLines(s: AgentStatus): string[] {
  const j = s.journal;
  if (!j) return [];
  const r = j.lastRestore;
  // A restore of the data directory recognised at a start: said beside whatever the chains say.
  const restored = r ? [`JOURNAL RESTORED ${ago(s.now - r.at)}: the data directory was put back from an older copy; NSRs ${r.from}-${r.to} are skipped (seen in ${r.where})`] : [];
  return [...restored, ...verifyLines(s, j)];
}

function verifyLines(s: AgentStatus, j: NonNullable<AgentStatus['journal']>): string[] {
  const v = j.lastVerify;
  if (!v) return [`journal:       next NSR ${j.nextNsr}; not verified yet (the terminal checks it ${s.agentRunning ? 'shortly' : 'after it starts'})`];
  const when = `${ago(s.now - v.at)}, ${counted(v.marks, 'mark')}, ${counted(v.facts, 'fact')}`;
  if (v.ok) return [`journal:       next NSR ${j.nextNsr}; chains verified (${when})`];
  return [`JOURNAL DOES NOT VERIFY (${when}): ${v.problem?.message ?? 'unknown'}; punches are still taken — keep a copy of the data directory for support`];
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** What is kept, what retention let go, and the file: `sent` above counts only the delivered punches still here. */
function retentionLines(s: AgentStatus): string[] {
  const r = s.retention;
  const p = r.lastPass;
  const lines = [
    `delivered:     ${r.deliveredEver} in all: ${s.queue.sent} kept here, ${r.deletedEver.punches} deleted after ${r.deliveredDays} days (audit log kept ${r.auditDays} days)`,
    `last pruned:   ${
      p === null
        ? `never (the terminal prunes ${s.agentRunning ? 'shortly' : 'after it starts'}, then daily)`
        : `${ago(s.now - p.at)}: ${p.deleted.punches} punches, ${p.deleted.journal} journal rows, ${p.deleted.audit} audit lines; ${mb(p.freedBytes)} given back` +
          (p.outcome === 'done' ? '' : p.outcome === 'stopped' ? ' (stopped by the agent stopping: goes on at the next start)' : ` (FAILED: ${p.error ?? 'unknown'})`)
    }`,
    `database file: ${mb(r.file.bytes)}, ${mb(r.file.freeBytes)} of it free`,
  ];
  if (r.file.autoVacuum !== 'incremental') {
    lines.push('               made by an earlier version: space freed is reused, not given back; `timeclock data compact` (terminal stopped) shrinks it and converts it once');
  }
  return lines;
}

/** A full disk refuses punches: said here, not only by doctor and the log (each line only when it applies). */
function storageLines(s: AgentStatus): string[] {
  const st = s.storage;
  if (!st) return [];
  const lines: string[] = [];
  if (st.low && st.freeBytes !== null) lines.push(`DISK LOW:      ${Math.floor(st.freeBytes / 1_000_000)} MB free for the data directory: free space now, punches need it`);
  if (st.refused) lines.push(`NOT SAVED:     ${st.refused.count} punches refused since the agent started: ${st.refused.why} (last ${ago(s.now - st.refused.lastAt)})`);
  return lines;
}

/** What a manager must know about the roster beyond its size: each line only when it applies. */
function rosterLines(s: AgentStatus, at: (t: number) => string): string[] {
  const r = s.roster;
  const lines: string[] = [];
  if (!r.complete) lines.push('EMPLOYEE LIST: none complete yet — unknown codes are kept and matched when one arrives (none is refused)');
  if (r.nextSyncAt !== null) lines.push(`next sync:     ${at(r.nextSyncAt)}${r.refreshBy === 'changes' ? ' (changes only: the service filters on _updated)' : ''}`);
  if (r.heldShrink) {
    lines.push(
      `SMALLER ROSTER HELD: a sync found ${r.heldShrink.employees} employees, less than half of the ${r.heldShrink.inUse} in use; ` +
        `the current one stays until a later sync agrees${r.heldShrink.recheckAt ? ` (${at(r.heldShrink.recheckAt)})` : ''} or a manager confirms on the admin screen`,
    );
  }
  if (r.siteFilter === 'suspect') {
    lines.push('SITE FILTER:   the service counts as many employees with the site filter as without: it may ignore it (check api.dialect.siteFilterParam)');
  }
  if (r.skipped && r.skipped.count > 0) {
    lines.push(
      `skipped:       ${r.skipped.count} records of the last sync the terminal cannot use:`,
      ...r.skipped.examples.map((e) => `                 #${e.position}${e.id ? ` (${e.id})` : ''}: ${e.reason === 'no_ids' ? 'no _id and no external_id' : 'not a JSON object'}`),
    );
  }
  if (r.notAllowed.count > 0) {
    lines.push(
      `not allowed:   ${r.notAllowed.count} employees may not record by API (allow_external_api_record false); their punches are held here:`,
      ...r.notAllowed.employees.map((e) => `                 ${e.name}${e.externalId ? ` (${e.externalId})` : ''}: ${e.heldPunches} held`),
    );
  }
  const h = r.health;
  if (h.missingWorkSchedule + h.missingEmployer + h.badTimeZone > 0) {
    lines.push(
      `roster health: ${h.missingWorkSchedule} without work schedule, ${h.missingEmployer} without employer (the service will not show their punches until both are set), ` +
        `${h.badTimeZone} with a time zone the terminal cannot use (the site's is used):`,
      ...h.employees.map((e) => `                 ${e.name}${e.externalId ? ` (${e.externalId})` : ''}: missing ${e.missing.join(' and ')}`),
    );
  }
  const ev = h.evidence;
  if (ev && ev.noCpf.count > 0) {
    lines.push(
      `no CPF:        ${ev.noCpf.count} worker${ev.noCpf.count === 1 ? '' : 's'} without a CPF: their punches are kept, the AFD shows twelve zeros for them:`,
      ...ev.noCpf.employees.map((e) => `                 ${e.name}${e.externalId ? ` (${e.externalId})` : ''}`),
    );
  }
  if (ev && ev.noEmployer.count > 0) {
    lines.push(
      `no employer:   ${ev.noEmployer.count} worker${ev.noEmployer.count === 1 ? '' : 's'} whose employer the service does not name: receipts and AFD use the configured employer:`,
      ...ev.noEmployer.employees.map((e) => `                 ${e.name}${e.externalId ? ` (${e.externalId})` : ''}: ${e.reason === 'unread' ? 'employer not read yet' : 'the service has no such employer'}`),
    );
  }
  if (s.unresolved.count > 0) {
    lines.push(`unmatched:     ${s.unresolved.count} punches of unknown codes kept (oldest ${s.unresolved.oldestAt === null ? 'n/a' : ago(s.now - s.unresolved.oldestAt)}), matched at the next roster sync`);
  }
  return lines;
}
