/**
 * `timeclock status` as text, in the command line's language: one small function per line, each
 * returning nothing when its line does not apply. Words come from the catalogue's `status` subject.
 */
import type { AgentStatus } from '../../agent/status/status.js';
import { serviceClockSentence } from '../../agent/status/status-sentences.js';
import { chooseTimeZone } from '../../domain/time/local-time.js';
import { localWhen } from '../../domain/time/when-text.js';
import type { Lang } from '../../messages/lang.js';
import { fleetLines } from './fleet-lines.js';
import { cliLang } from '../common/lang.js';
import { absentRouteLines, connectionWord } from './service-lines.js';
import { fold, inParens, sayFor, wordsOf, type Say } from './status-say.js';
import { integrityLines, journalLines, retentionLines, storageLines } from './status-keeping-lines.js';
import { rosterLines } from './status-roster-lines.js';
import { cameraLines } from './camera-lines.js';

export function statusText(s: AgentStatus, zone?: string, lang: Lang = cliLang()): string {
  const say = sayFor(lang, s);
  const lines = [
    say.label('status.label.version') + s.version,
    say.label('status.label.terminal') + terminalValue(say, s),
    say.label('status.label.agent') + say.text(s.agentRunning ? 'status.agent.running' : 'status.agent.stopped'),
    say.label('status.label.connection') + connectionValue(say, s),
    say.label('status.label.queue') + queueValue(say, s.queue),
    say.label('status.label.oldestUnsent') + oldestValue(say, s.oldestUnsentAgeMs),
    say.label('status.label.rateWindow') + rateWindowValue(say, s.rateWindow),
    ...fleetLines(s, say),
    say.label('status.label.roster') + rosterValue(say, s.roster),
    say.label('status.label.site') + (s.site ? `${s.site.name} (${s.site.id})` : say.text('status.site.none')),
    say.label('status.label.badges') + say.text('status.badges', { n: String(s.roster.enrolledBadges) }),
    ...s.readers.map((r) => readerLine(say, r)),
    ...cameraLines(say, s),
    say.label('status.label.clockSkew') + skewValue(say, s.clockSkewMs),
    ...serviceClockLines(say, s.serviceClock),
    ...storageLines(say, s),
    ...rosterLines(say, s, whenIn(s, zone, lang)),
    ...integrityLines(say, s),
    ...journalLines(say, s),
    ...retentionLines(say, s),
    ...alertLines(say, s, whenIn(s, zone, lang)),
    ...absentRouteLines(s, lang),
    ...heldLines(say, s),
    ...s.warnings.map((w) => say.label('status.label.warning') + w),
    ...sameMinuteLines(say, s.collisions),
    say.label('status.label.lastError') + lastErrorValue(say, s.lastError),
  ];
  // English stays one line per fact (scripts and tests read it by line); the others fold at 120.
  const out = lang === 'en' ? lines : lines.flatMap((l) => fold(l, say.valueIndent));
  return out.join('\n');
}

/**
 * An instant of status in the site's wall time with how far from now: "01:45 (in 5 h 59 min)".
 * The zone: the site's, else the configured one, else this machine's.
 */
function whenIn(s: AgentStatus, zone: string | undefined, lang: Lang): (at: number) => string {
  const z = chooseTimeZone([s.site?.timezone, zone, Intl.DateTimeFormat().resolvedOptions().timeZone]);
  return (at) => localWhen(at, s.now, z, lang);
}

function terminalValue(say: Say, s: AgentStatus): string {
  return s.fleet ? say.text('status.onHost', { id: s.terminalId, host: s.fleet.host }) : s.terminalId;
}

function connectionValue(say: Say, s: AgentStatus): string {
  const since = s.lastContactAt ? say.text('status.since', { ago: say.since(s.lastContactAt) }) : '';
  const answered = s.lastAnsweredAt ? say.text('status.conn.lastAnswer', { ago: say.since(s.lastAnsweredAt) }) : '';
  return connectionWord(s, say.lang) + since + answered;
}

function queueValue(say: Say, q: AgentStatus['queue']): string {
  const n = (v: number) => String(v);
  return say.text('status.queue', {
    pending: n(q.pending),
    sending: n(q.sending),
    in_doubt: n(q.in_doubt),
    sent: n(q.sent),
    rejected: n(q.rejected),
    held: n(q.held),
  });
}

function oldestValue(say: Say, ms: number | null): string {
  return ms === null ? say.text('status.none') : say.ago(ms);
}

function rateWindowValue(say: Say, w: AgentStatus['rateWindow']): string {
  const seconds = String(w.windowMs / 1000);
  return say.text('status.rateWindow', { used: String(w.used), limit: String(w.limit), seconds });
}

function rosterValue(say: Say, r: AgentStatus['roster']): string {
  const last = say.since(r.lastSync?.lastOkAt || null);
  const sync = r.lastSync;
  const error = sync?.error ?? say.text('status.unknown');
  const failed = sync && !sync.ok ? say.text('status.roster.failed', { error }) : '';
  const p = r.progress;
  const pages = p ? { done: String(p.pagesDone), total: String(p.pagesTotal ?? '?') } : null;
  const progress = pages ? say.text('status.roster.syncing', pages) : '';
  return say.text('status.roster', { n: String(r.size), ago: last }) + failed + progress;
}

function readerLine(say: Say, r: AgentStatus['readers'][number]): string {
  const lost = r.lastDisconnectAt
    ? say.text('status.reader.lostSince', { ago: say.since(r.lastDisconnectAt) })
    : say.text('status.reader.lost');
  const state = r.connected ? say.text('status.reader.connected', { device: String(r.device) }) : lost;
  const counts = say.text('status.reader.counts', {
    scans: String(r.scans),
    last: say.since(r.lastScanAt || null),
    errors: String(r.errors),
    disconnects: String(r.disconnects),
  });
  return say.text('status.reader', { name: r.name, state, counts });
}

function skewValue(say: Say, ms: number | null): string {
  if (ms === null) return say.text('status.unknown');
  if (Math.abs(ms) < 1000) return say.text('status.skew.none');
  return say.text('status.skew.off', { s: say.decimal(ms / 1000, 1) });
}

/** The service's clock, when the terminal does not simply use it. */
function serviceClockLines(say: Say, c: AgentStatus['serviceClock']): string[] {
  if (!c || c.state === 'ok') return [];
  const since = say.text('status.since', { ago: say.since(c.at) });
  return [say.label('status.label.serviceClock') + serviceClockSentence(wordsOf(say), c) + since];
}

/** A refused token, a pause, a service at the wrong address, and the API token's own warning. */
function alertLines(say: Say, s: AgentStatus, when: (at: number) => string): string[] {
  const lines: string[] = [];
  if (s.settings.token.warning) lines.push(say.label('status.label.apiToken') + s.settings.token.warning);
  const refused = s.authRefused;
  if (refused) lines.push(say.text('status.tokenRefused', { reason: refused.reason, ago: say.since(refused.at) }));
  const paused = s.sendingPaused;
  if (paused) lines.push(say.text('status.sendingPaused', { reason: paused.reason, when: when(paused.until) }));
  const setup = s.setupProblem;
  // A setting's name is not translated: the catalogue words around it.
  if (setup) {
    const params = { reason: setup.reason, ago: say.since(setup.at), setting: 'api.baseUrl' };
    lines.push(say.text('status.setupProblem', params));
  }
  return lines;
}

function heldLines(say: Say, s: AgentStatus): string[] {
  if (s.queue.held <= 0) return [];
  return [say.label('status.label.held') + say.text('status.held', { n: String(s.queue.held) })];
}

/** Punches of one employee in one local minute (a DST fall-back): both kept and sent, payroll checks. */
function sameMinuteLines(say: Say, c: AgentStatus['collisions']): string[] {
  if (c.count <= 0) return [];
  return [
    say.label('status.label.sameMinute') + say.text('status.sameMinute', { n: String(c.count) }),
    ...c.punches.map((p) => `${say.listIndent}${who(p)} ${p.localDate} ${p.localTime}`),
  ];
}

function who(p: { employeeName: string; externalId: string | null }): string {
  return p.employeeName + inParens(p.externalId);
}

function lastErrorValue(say: Say, e: AgentStatus['lastError']): string {
  return e ? say.text('status.lastError', { message: e.message, ago: say.since(e.at) }) : say.text('status.none');
}
