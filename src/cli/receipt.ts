import fs from 'node:fs';
import path from 'node:path';
import { journalReceiptSource } from '../agent/receipt-source.js';
import { Receipts, receiptSettingsOf, type ReceiptSource } from '../agent/receipts.js';
import { loadConfig } from '../config.js';
import { DB_FILE_NAME, openDatabase, type Db } from '../store/database.js';
import { Exit, UsageError, type CliOptions } from './options.js';

/**
 * `timeclock receipt <NSR> [--json]`: a punch's receipt again, for a worker who asks for it. Reads
 * the database read-only, so it works beside a running terminal. Text: the receipt's lines, exactly
 * what its QR code carries (src/agent/receipt.ts); JSON: its fields, without the QR code's modules.
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
  const { config } = loadConfig({ file: opts.config });
  if (!fs.existsSync(path.join(config.dataDir, DB_FILE_NAME))) {
    process.stderr.write(`timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`);
    return Exit.error;
  }
  const db = openDatabase(config.dataDir, { readonly: true });
  try {
    const source = sourceOf(db);
    if (!source) {
      process.stderr.write(`timeclock: the data in ${config.dataDir} has no evidence journal yet (start the terminal with this version once)\n`);
      return Exit.error;
    }
    const problems: string[] = [];
    const receipt = new Receipts(source, receiptSettingsOf(config), { warn: (m, f) => problems.push(`${m}: ${String(f?.['error'] ?? '')}`) }).byNsr(nsr);
    if (!receipt) {
      process.stderr.write(`timeclock: no punch with NSR ${shown} in ${config.dataDir}${problems.length ? ` (${problems.join('; ')})` : ''}\n`);
      return Exit.error;
    }
    process.stdout.write(`${opts.json ? JSON.stringify(receipt) : receipt.text}\n`);
    return Exit.ok;
  } finally {
    db.close();
  }
}

/** Null: a file from before the evidence journal (a read-only reader cannot migrate it; the agent does at its start). */
function sourceOf(db: Db): ReceiptSource | null {
  try {
    return journalReceiptSource(db);
  } catch {
    return null;
  }
}
