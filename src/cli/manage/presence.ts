import { PresenceOffline } from '../../agent/presence/presence-offline.js';
import { loadConfig } from '../../config.js';
import type { PresenceBoardView, RollCallView } from '../../contract.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

/**
 * `timeclock presence [--json]`: who is on site now, from the presence table the running terminal
 * keeps (readable beside it). `timeclock rollcall start | status | mark <employee> | end [--json]`:
 * the evacuation roll call from the command line; the running terminal shares it through Redis.
 * Names and times are personal data: run by the terminal's user or root only (the data directory's modes).
 */
const ROLLCALL_USAGE =
  'usage: timeclock rollcall start | rollcall status | rollcall mark <employee external id> | rollcall end   [--json]';

const hm = (minutes: number): string => `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}`;
const iso = (at: number | null): string =>
  at === null ? 'never' : new Date(at).toISOString().slice(0, 19).replace('T', ' ') + 'Z';

function boardText(b: PresenceBoardView): string {
  const s = b.sources;
  const stream =
    s.stream.state === 'live'
      ? `site stream live (read ${iso(s.stream.readAt)})`
      : s.stream.state === 'cut_off'
        ? `site stream CUT OFF since ${iso(s.stream.since)} (${s.stream.reason ?? '?'})`
        : 'no site stream (no Redis)';
  const gap = s.stream.gap ? `; ${s.stream.gap.note} (${iso(s.stream.gap.at)}, ${s.stream.gap.people} people)` : '';
  const lines = [
    `on site: ${b.counts.onSite}   (${b.date}, as of ${iso(b.at)}; this terminal's punches; ${stream}${gap}; service records ${iso(s.service.at)}${s.unpublished.count ? `; ${s.unpublished.count} not yet published` : ''})`,
    `by employer: ${b.byEmployer.map((g) => `${g.name || '(unknown)'} ${g.count}`).join(', ') || '-'}`,
    `by gate: ${b.byGate.map((g) => `${g.name} ${g.count}`).join(', ') || '-'}`,
    ...b.onSite.map(
      (p) =>
        `${p.employee_external_id ?? p.employeeKey}\t${p.name ?? ''}\t${p.employer ?? ''}\t${p.gate}\t${p.entryTime}\t${hm(p.minutesInside)}`,
    ),
  ];
  if (b.forgotExit.length)
    lines.push(
      `entries of an earlier day without exit (not counted): ${b.forgotExit.length}`,
      ...b.forgotExit.map(
        (p) => `${p.employee_external_id ?? p.employeeKey}\t${p.name ?? ''}\t${p.entryDate} ${p.entryTime}\t${p.gate}`,
      ),
    );
  return lines.join('\n') + '\n';
}

function rollCallText(r: RollCallView | null): string {
  if (r === null) return 'no roll call\n';
  const head = `roll call ${r.id} ${r.active ? 'UNDER WAY' : 'ended'} (started ${iso(r.startedAt)} at ${r.startedBy}): listed ${r.counts.listed}, safe ${r.counts.safe}, MISSING ${r.counts.missing}`;
  const cut = r.cutOff ? '\nthis terminal is cut off from the others: marks made there may be missing here' : '';
  const files = r.files ? `\nkept: ${r.files.csv}\n      ${r.files.pdf}` : '';
  const people = r.people.map(
    (p) => `${p.safe ? 'safe   ' : 'MISSING'}\t${p.employee_external_id ?? p.employeeKey}\t${p.name ?? ''}\t${p.gate}`,
  );
  return `${head}${cut}${files}\n${people.join('\n')}\n`;
}

export function runPresence(opts: CliOptions, args: string[]): number {
  if (args.length > 0) throw new UsageError('usage: timeclock presence [--json]');
  const { config } = loadConfig({ file: opts.config });
  const p = PresenceOffline.open(config);
  try {
    const b = p.board(Date.now());
    process.stdout.write(opts.json ? `${JSON.stringify(b)}\n` : boardText(b));
    return Exit.ok;
  } finally {
    p.close();
  }
}

export function runRollCall(opts: CliOptions, args: string[]): number {
  const [action, ...rest] = args;
  const { config } = loadConfig({ file: opts.config });
  const p = PresenceOffline.open(config);
  const out = (r: RollCallView | null): void =>
    void process.stdout.write(opts.json ? `${JSON.stringify(r)}\n` : rollCallText(r));
  try {
    const now = Date.now();
    if (action === 'start' && rest.length === 0) return (out(p.startRollCall(now)), Exit.ok);
    if (action === 'status' && rest.length === 0) return (out(p.rollCall()), Exit.ok);
    if (action === 'end' && rest.length === 0) return (out(p.endRollCall(now)), Exit.ok);
    if (action === 'mark' && rest.length === 1 && rest[0]) {
      const code = p.markSafe(rest[0], now);
      process.stdout.write(opts.json ? `${JSON.stringify({ code })}\n` : `${code}\n`);
      return code === 'marked' || code === 'already' ? Exit.ok : Exit.error;
    }
    throw new UsageError(ROLLCALL_USAGE);
  } finally {
    p.close();
  }
}
