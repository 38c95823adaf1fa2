import { openJournalReadOnly } from './journal-db.js';
import { Exit, UsageError, type CliOptions } from './options.js';

/**
 * `timeclock receipt <NSR> [--json]`: a punch's receipt again, for a worker who asks for it. Reads
 * the database read-only, so it works beside a running terminal. Text: the receipt's lines, exactly
 * what its QR code carries (src/agent/receipt.ts); JSON: its fields (the QR code is the screen's drawing of the text).
 */
const USAGE = 'usage: timeclock receipt <NSR> [--json]   (NSR: the receipt’s number, 1 to 999999999)';

function nsrArg(args: readonly string[]): number {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0 || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new UsageError(USAGE);
  return Number(raw);
}

export function runReceipt(opts: CliOptions, args: string[]): number {
  const nsr = nsrArg(args);
  const shown = String(nsr).padStart(9, '0');
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { config, snapshot } = opened;
  try {
    const problems: string[] = [];
    const receipt = snapshot.receipt(nsr, { warn: (m, f) => problems.push(`${m}: ${String(f?.['error'] ?? '')}`) });
    if (!receipt) {
      process.stderr.write(`timeclock: no punch with NSR ${shown} in ${config.dataDir}${problems.length ? ` (${problems.join('; ')})` : ''}\n`);
      return Exit.error;
    }
    process.stdout.write(`${opts.json ? JSON.stringify(receipt) : receipt.text}\n`);
    return Exit.ok;
  } finally {
    snapshot.close();
  }
}
