/**
 * Issue 31: `timeclock photos export --from YYYY-MM-DD --to YYYY-MM-DD DIR`: the punch photos of
 * those days, named by NSR, with an index, written to DIR (a drive for a dispute). Exit 1 when a
 * photo is not the one the journal sealed (it is still copied, and named on standard error).
 */
import { AfdExportError } from '../../agent/exports/afd-header-plan.js';
import { exportPhotos } from '../../agent/photos/photo-export.js';
import { loadConfig } from '../../config.js';
import { Exit, UsageError, type CliOptions } from '../common/options.js';

export const PHOTOS_USAGE =
  'usage: timeclock photos export --from YYYY-MM-DD --to YYYY-MM-DD DIR [--json] [--config FILE]';

export async function runPhotos(opts: CliOptions, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const dir = rest[0] ?? opts.out;
  if (action !== 'export' || rest.length > 1 || !dir) throw new UsageError(PHOTOS_USAGE);
  const { from, to } = opts;
  if (!from || !to) throw new UsageError(`--from and --to are required (${PHOTOS_USAGE})`);
  const { config } = loadConfig({ file: opts.config });
  let r: ReturnType<typeof exportPhotos>;
  try {
    r = exportPhotos(config, { from, to, dir });
  } catch (e) {
    if (e instanceof AfdExportError) throw new UsageError(`${e.message} (${PHOTOS_USAGE})`);
    throw e;
  }
  if (r === 'no_data') {
    process.stderr.write(
      `timeclock: no terminal data in ${config.dataDir} yet (start the terminal first, or set TIMECLOCK_DATA_DIR)\n`,
    );
    return Exit.error;
  }
  const nsr = (n: number): string => String(n).padStart(9, '0');
  if (opts.json) process.stdout.write(`${JSON.stringify(r)}\n`);
  else process.stdout.write(`photos: ${r.photos} of ${from} to ${to} written to ${r.dir} (index ${r.index})\n`);
  if (r.unsealed.length > 0)
    process.stderr.write(
      `timeclock: not the photo the journal sealed: NSR ${r.unsealed.map(nsr).join(', ')} (run timeclock journal verify)\n`,
    );
  return r.unsealed.length > 0 ? Exit.error : Exit.ok;
}
