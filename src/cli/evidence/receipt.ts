import fs from 'node:fs';
import path from 'node:path';
import { openJournalReadOnly } from '../common/journal-db.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

/**
 * `timeclock receipt <NSR> [--json]`: a punch's receipt again, for a worker who asks for it. Reads
 * the database read-only, so it works beside a running terminal. Text: the receipt's lines (the
 * worker's copy: the CPF whole; src/agent/receipts/receipt.ts); JSON: its fields.
 *
 * `timeclock receipt <NSR> --pdf [--out FILE]`: its PDF (Portaria 671 Art. 80), the copy kept since
 * the punch or one made now, written 0600 to FILE (default ./comprovante-<NSR>.pdf, never over an
 * existing file), with FILE.p7s beside it when it is signed.
 */
const USAGE =
  'usage: timeclock receipt <NSR> [--json] | timeclock receipt <NSR> --pdf [--out FILE]   (NSR: the receipt’s number, 1 to 999999999)';

function nsrArg(args: readonly string[]): number {
  const [raw, ...rest] = args;
  if (raw === undefined || rest.length > 0 || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw new UsageError(USAGE);
  return Number(raw);
}

/** A number at once, or a promise of one for --pdf (its signature is made through WebCrypto, asynchronously). */
/** A log for the snapshot that keeps its warnings, to be said when no punch is found. */
function keptWarnings(): {
  problems: string[];
  log: { warn: (m: string, f?: Record<string, unknown>) => void; info: () => void };
} {
  const problems: string[] = [];
  const log = {
    warn: (m: string, f?: Record<string, unknown>) => void problems.push(`${m}: ${String(f?.['error'] ?? '')}`),
    info: () => undefined,
  };
  return { problems, log };
}

export function runReceipt(opts: CliOptions, args: string[]): number | Promise<number> {
  const nsr = nsrArg(args);
  if (opts.out !== undefined && !opts.pdf) throw new UsageError(`--out goes with --pdf (${USAGE})`);
  const shown = String(nsr).padStart(9, '0');
  if (opts.pdf) return runReceiptPdf(opts, nsr, shown);
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { config, snapshot } = opened;
  try {
    const { problems, log } = keptWarnings();
    const receipt = snapshot.receipt(nsr, log);
    if (!receipt) {
      process.stderr.write(
        `timeclock: no punch with NSR ${shown} in ${config.dataDir}${problems.length ? ` (${problems.join('; ')})` : ''}\n`,
      );
      return Exit.error;
    }
    process.stdout.write(`${opts.json ? JSON.stringify(receipt) : receipt.text}\n`);
    return Exit.ok;
  } finally {
    snapshot.close();
  }
}

async function runReceiptPdf(opts: CliOptions, nsr: number, shown: string): Promise<number> {
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { config, snapshot } = opened;
  try {
    const { problems, log } = keptWarnings();
    return writePdf(
      await snapshot.receiptPdf(nsr, log),
      opts.out ?? `comprovante-${shown}.pdf`,
      shown,
      config.dataDir,
      problems,
    );
  } finally {
    snapshot.close();
  }
}

function writePdf(
  r: { pdf: Buffer; p7s: Buffer | null; kept: boolean } | null,
  out: string,
  shown: string,
  dataDir: string,
  problems: string[],
): number {
  if (!r) {
    process.stderr.write(
      `timeclock: no punch with NSR ${shown} in ${dataDir}${problems.length ? ` (${problems.join('; ')})` : ''}\n`,
    );
    return Exit.error;
  }
  const file = path.resolve(out);
  for (const f of [file, `${file}.p7s`]) {
    if (fs.existsSync(f)) {
      process.stderr.write(`timeclock: ${f} already exists: move it away or choose another --out\n`);
      return Exit.error;
    }
  }
  try {
    if (r.p7s) fs.writeFileSync(`${file}.p7s`, r.p7s, { mode: 0o600, flag: 'wx' });
    fs.writeFileSync(file, r.pdf, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    process.stderr.write(
      `timeclock: could not write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
    );
    return Exit.error;
  }
  process.stdout.write(
    `wrote ${file} (${r.pdf.length} bytes, ${r.kept ? 'the copy kept since the punch' : 'made now'})\n`,
  );
  process.stdout.write(
    r.p7s
      ? `  signed: ${file}.p7s (detached CAdES; openssl cms -verify -binary -inform DER -in ${file}.p7s -content ${file} -noverify)\n`
      : '  not signed (afd.signingKey is not set)\n',
  );
  for (const p of problems) process.stderr.write(`warning: ${p}\n`);
  return Exit.ok;
}
