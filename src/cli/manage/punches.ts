import { PunchReview, type PunchRow } from '../../agent/delivery/punch-review.js';
import { loadConfig } from '../../config.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

/**
 * `timeclock rejected …` and `timeclock held …`: the punches a person must look at. They change
 * rows in the database only, so they work beside a running terminal (its uploader picks up what
 * was queued again within a minute).
 */
const USAGE =
  'usage: timeclock rejected list | rejected retry <id>... | rejected retry --all | held list | held resend <id> | held delivered <id> | held dispute <id> <reason>';

function ids(args: string[]): number[] {
  const out = args.map((a) => (/^[1-9]\d{0,15}$/.test(a) ? Number(a) : NaN));
  if (out.length === 0 || out.some((n) => !Number.isSafeInteger(n)))
    throw new UsageError(`punch ids are whole numbers (${USAGE})`);
  return out;
}

function line(p: PunchRow): string {
  const who = `${p.employee_name}${p.employee_external_id ? ` (${p.employee_external_id})` : ''}`;
  const why =
    p.state === 'held' ? `${p.held_reason ?? '?'}: ${p.last_error ?? ''}` : (p.reject_reason ?? p.last_error ?? '');
  return `${p.id}\t${p.local_date} ${p.local_time}\t${who}\t${why}`;
}

export function runPunches(opts: CliOptions, kind: 'rejected' | 'held', args: string[]): number {
  const [action, ...rest] = args;
  const { config } = loadConfig({ file: opts.config });
  const review = PunchReview.open(config);
  try {
    const now = Date.now();
    if (action === 'list' && rest.length === 0) {
      const rows = review.list(kind, 1_000);
      process.stdout.write(
        opts.json ? `${JSON.stringify(rows)}\n` : rows.map((r) => `${line(r)}\n`).join('') || `no ${kind} punches\n`,
      );
      return Exit.ok;
    }
    if (kind === 'rejected' && action === 'retry') {
      if (opts.all && rest.length === 0) {
        process.stdout.write(`${review.retryAllRejected(now)} rejected punches queued again\n`);
        return Exit.ok;
      }
      const wanted = ids(rest);
      const done = wanted.filter((id) => review.retryRejected(id, now));
      const missed = wanted.filter((id) => !done.includes(id));
      process.stdout.write(`${done.length} queued again${done.length ? ` (${done.join(', ')})` : ''}\n`);
      if (missed.length) process.stderr.write(`timeclock: not rejected: ${missed.join(', ')}\n`);
      return missed.length ? Exit.error : Exit.ok;
    }
    // resend also confirms a punch whose PIN was not verified; dispute keeps it here, never sent.
    if (
      kind === 'held' &&
      (action === 'resend' || action === 'delivered' || action === 'dispute') &&
      rest.length >= 1
    ) {
      const [id] = ids(rest.slice(0, 1)) as [number];
      const reason = rest.slice(1).join(' ').trim();
      if ((action === 'dispute') !== (reason !== ''))
        throw new UsageError(
          action === 'dispute' ? 'a dispute needs a reason: timeclock held dispute <id> <reason>' : USAGE,
        );
      if (!review.decideHeld(id, action, now, reason)) {
        process.stderr.write(`timeclock: punch ${id} is not held\n`);
        return Exit.error;
      }
      const said = {
        resend: `punch ${id} queued to be sent`,
        delivered: `punch ${id} marked as delivered`,
        dispute: `punch ${id} disputed: kept here, never sent`,
      };
      process.stdout.write(`${said[action]}\n`);
      return Exit.ok;
    }
    throw new UsageError(USAGE);
  } finally {
    review.close();
  }
}
