/**
 * `timeclock afd export --from YYYY-MM-DD --to YYYY-MM-DD [--out DIR|FILE] [--json]`: the journal's
 * marks of those days as an AFD (src/agent/exports/afd-export.ts). Reads the database read-only, so it works
 * beside a running terminal. `--out` a directory (default: the current one) keeps the Annex's file
 * name with the terminal's id; any other path is the file's name. An existing file is never replaced.
 *
 * `timeclock afd verify FILE [--allow-unsigned] [--strict]`: src/cli/evidence/afd-verify.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AfdExportError, checkAfdRange } from '../../agent/exports/afd-header-plan.js';
import { runAfdVerify } from './afd-verify.js';
import { openJournalReadOnly } from '../common/journal-db.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

export const AFD_USAGE =
  'usage: timeclock afd export --from YYYY-MM-DD --to YYYY-MM-DD [--out DIR|FILE] [--json] | timeclock afd verify FILE [--allow-unsigned] [--strict]';

export async function runAfd(opts: CliOptions, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'export' && rest.length === 0) return runAfdExport(opts);
  if (action === 'verify' && rest.length === 1)
    return runAfdVerify(rest[0] as string, {
      allowUnsigned: opts['allow-unsigned'] === true,
      strict: opts.strict === true,
    });
  throw new UsageError(AFD_USAGE);
}

/** Where --out points: an existing directory (or one written with a trailing slash) keeps the Annex's name. */
function target(out: string | undefined): { dir: string; fileName?: string } {
  const p = path.resolve(out ?? '.');
  const isDir = (out ?? '').endsWith('/') || (fs.existsSync(p) && fs.statSync(p).isDirectory());
  if (isDir) {
    if (!fs.existsSync(p)) throw new AfdExportError(`no directory ${p}`, 'write_failed', {});
    return { dir: p };
  }
  const dir = path.dirname(p);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new AfdExportError(`no directory ${dir} for ${p}`, 'write_failed', {});
  return { dir, fileName: path.basename(p) };
}

export { runAfdVerify };

export async function runAfdExport(opts: CliOptions): Promise<number> {
  const { from, to } = opts;
  if (!from || !to) throw new UsageError(`--from and --to are required (${AFD_USAGE})`);
  try {
    checkAfdRange(from, to);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const opened = openJournalReadOnly(opts);
  if (!opened) return Exit.error;
  const { snapshot } = opened;
  try {
    const r = await snapshot.exportAfd({ from, to, ...target(opts.out), now: new Date() });
    for (const w of r.warnings) process.stderr.write(`timeclock: warning: ${w}\n`);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(r)}\n`);
      return Exit.ok;
    }
    const nsr = (n: number | null): string => String(n).padStart(9, '0');
    for (const f of [r, ...(r.others ?? [])]) {
      const range =
        f.firstNsr === null
          ? 'no marks in these days'
          : `${f.marks} mark${f.marks === 1 ? '' : 's'}, NSR ${nsr(f.firstNsr)} to ${nsr(f.lastNsr)}`;
      process.stdout.write(
        `wrote ${f.file}\n  employer ${f.employerId ?? ''}, ${from} to ${to}: ${range}; ${f.bytes} bytes; layout ${f.layoutVersion}\n`,
      );
      // Each terminal numbers its own NSRs (docs/evidence-journal.md, "Who the REP-P is"): say whose these are.
      if (f.terminal)
        process.stdout.write(`  terminal ${f.terminal}: its own NSR sequence, named in the file's name\n`);
      process.stdout.write(
        f.p7s
          ? `  signed: ${f.p7s} (${f.signer})\n`
          : '  not signed (afd.signingKey is not set): its last line says ARQUIVO_NAO_ASSINADO\n',
      );
    }
    return Exit.ok;
  } catch (e) {
    if (!(e instanceof AfdExportError)) throw e;
    process.stderr.write(`timeclock: ${e.message}\n`);
    return e.code === 'bad_range' ? Exit.usage : Exit.error;
  } finally {
    snapshot.close();
  }
}
