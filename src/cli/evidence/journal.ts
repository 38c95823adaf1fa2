import { counted } from '../status/format.js';
import { openJournalReadOnly } from '../common/journal-db.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

/**
 * `timeclock journal verify [--json]`: recomputes both chains of the evidence journal and names the
 * first record that does not match. Read-only (a snapshot of the file), so it runs beside a running
 * terminal; exit 0 whole, 1 broken or unreadable.
 */
export async function runJournal(opts: CliOptions, args: string[]): Promise<number> {
  if (args[0] !== 'verify' || args.length > 1)
    throw new UsageError('usage: timeclock journal verify [--json] [--config FILE]');
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { snapshot } = opened;
  const state = snapshot.journal;
  try {
    const v = await snapshot.verify();
    if (opts.json) {
      process.stdout.write(`${JSON.stringify({ ...v, journalId: state.journalId, nextNsr: state.nextNsr })}\n`);
    } else if (v.ok) {
      process.stdout.write(
        `journal: whole — ${counted(v.marks, 'mark')} and ${counted(v.facts, 'fact')} checked in ${Math.round(v.ms)} ms (journal ${state.journalId}, next NSR ${state.nextNsr})\n`,
      );
    } else {
      const p = v.firstProblem;
      const where =
        p?.nsr !== undefined
          ? `NSR ${String(p.nsr).padStart(9, '0')}`
          : p?.seq !== undefined
            ? `fact ${p.seq}`
            : 'the journal';
      process.stdout.write(
        `journal: BROKEN at ${where}: ${p?.message ?? 'unknown'} (${counted(v.marks, 'mark')} and ${counted(v.facts, 'fact')} read)\n`,
      );
    }
    return v.ok ? Exit.ok : Exit.error;
  } finally {
    snapshot.close();
  }
}
