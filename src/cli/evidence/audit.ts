import type { Agent } from '../../agent/facade/agent.js';
import { calls } from '../../contract.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';
import { openAgent } from '../common/setup.js';

/** The agent's answer to an audit (sync/reads/audit-compare.ts), as the command line prints it. */
type AuditReport = Awaited<ReturnType<Agent['auditCompare']>>;
type AuditMarkResult = AuditReport['marks'][number];

/**
 * `timeclock audit compare --from YYYY-MM-DD --to YYYY-MM-DD [--json]`: the evidence journal's
 * marks of those days against the service's records (sync/reads/audit-compare.ts). Opens the agent (its
 * requests share the budget, after any punch waiting to go). Text lists what is not found and the
 * records no mark explains; JSON the whole report. Exit 0: every mark found; 1: some missing or
 * unchecked; 2: usage.
 */
export const AUDIT_USAGE = 'usage: timeclock audit compare --from YYYY-MM-DD --to YYYY-MM-DD [--json] [--config FILE]';

function rangeOf(opts: CliOptions, args: readonly string[]): { from: string; to: string } {
  if (args[0] !== 'compare' || args.length > 1 || opts.from === undefined || opts.to === undefined)
    throw new UsageError(AUDIT_USAGE);
  // The admin screen's own check of a range (calendar days, from ≤ to, at most a year).
  const r = calls.auditCompare.input.safeParse({ from: opts.from, to: opts.to });
  if (!r.success) throw new UsageError(`${r.error.issues.map((i) => i.message).join('; ')} (${AUDIT_USAGE})`);
  return r.data;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const nsr9 = (n: number): string => String(n).padStart(9, '0');

function detail(m: AuditMarkResult): string {
  const sent =
    m.delivered === true
      ? 'delivered'
      : m.delivered === false
        ? `not delivered (${m.state})`
        : `delivery not known (${m.state})`;
  if (m.status === 'found') return `_id ${m.recordId ?? '?'}`;
  if (m.status === 'missing') return `${sent}${m.note ? `; ${m.note}` : ''}`;
  return m.reason;
}

export function auditText(r: AuditReport): string {
  const c = r.counts;
  const lines = [
    `journal against the service, ${r.from}..${r.to}: ${c.marks} marks: ${c.found} found, ${c.missing} missing` +
      `${c.missingDelivered ? ` (${c.missingDelivered} of them delivered)` : ''}, ${c.unchecked} unchecked; ` +
      `${c.unexplained} records no mark explains; ${c.requests} requests${r.stopped ? '; STOPPED before the end' : ''}`,
  ];
  if (r.skippedRecords > 0) lines.push(`${r.skippedRecords} records of the service's answers could not be read`);
  const shown = r.marks.filter((m) => m.status !== 'found');
  if (shown.length > 0) {
    lines.push(
      '',
      `${pad('NSR', 10)}${pad('date', 11)}${pad('time', 6)}${pad('employee', 14)}${pad('status', 10)}detail`,
    );
    for (const m of shown) {
      const [date, time] = m.minute ? m.minute.split('T') : ['?', '?'];
      lines.push(
        `${pad(nsr9(m.nsr), 10)}${pad(date ?? '?', 11)}${pad(time ?? '?', 6)}${pad(m.employee ?? '?', 14)}${pad(m.status, 10)}${detail(m)}`,
      );
    }
  }
  if (c.found > 0) lines.push('', `${c.found} marks found on the service are not listed (--json lists every mark)`);
  if (r.unexplained.length > 0) {
    lines.push(
      '',
      'records of the API on those days that no mark of this journal explains (another terminal or integration on the same account may have made them):',
    );
    for (const u of r.unexplained)
      lines.push(
        `  ${u.minute.replace('T', ' ')}  ${pad(u.employee, 14)}_id ${u.recordId ?? '?'}  ${u.type ?? '(no type)'}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

export async function runAudit(opts: CliOptions, args: string[]): Promise<number> {
  const range = rangeOf(opts, args);
  const run = await openAgent(opts);
  try {
    // Punches waiting go first (the audit stands aside while any is due), so the uploader runs.
    await run.agent.start({ roster: false });
    const tty = process.stderr.isTTY === true;
    const report = await run.agent.auditCompare(range, {
      onProgress: (p) => {
        if (tty && p.requestsTotal > 0) process.stderr.write(`\raudit: ${p.requestsDone}/${p.requestsTotal} requests`);
      },
    });
    if (tty) process.stderr.write('\n');
    process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : auditText(report));
    return report.counts.found === report.counts.marks ? Exit.ok : Exit.error;
  } finally {
    await run.shutdown();
  }
}
