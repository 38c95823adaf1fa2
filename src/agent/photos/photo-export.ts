/**
 * Issue 31: `timeclock photos export`: a period's punch photos copied to a directory (a drive for a
 * dispute), each named by its NSR, with an index (CSV: NSR, date, time, employee, SHA-256, whether
 * the journal sealed that very file). Read-only on the terminal's data; beside a running terminal.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { openDatabase } from '../../store/database.js';
import { photosOfPeriod } from '../../store/journal/photo-period.js';
import { checkAfdRange } from '../exports/afd-header-plan.js';
import { hasTerminalData } from '../host/terminal-data.js';

export type PhotoExportResult = { photos: number; unsealed: number[]; index: string; dir: string };

/** A CSV field: quoted when it holds a comma, quote or line break; a leading =,+,-,@ neutralised for spreadsheets. */
function csv(v: string | number | boolean | null): string {
  let s = v === null ? '' : String(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function exportPhotos(
  config: Config,
  req: { from: string; to: string; dir: string },
): PhotoExportResult | 'no_data' {
  checkAfdRange(req.from, req.to);
  if (!hasTerminalData(config.dataDir)) return 'no_data';
  const db = openDatabase(config.dataDir, { readonly: true });
  try {
    const photos = photosOfPeriod(db, req.from, req.to);
    fs.mkdirSync(req.dir, { recursive: true, mode: 0o700 });
    const lines = ['nsr,local_date,local_time,employee_external_id,employee_name,file,sha256,sealed_by_journal'];
    for (const p of photos) {
      const name = path.basename(p.file);
      fs.copyFileSync(p.file, path.join(req.dir, name));
      fs.chmodSync(path.join(req.dir, name), 0o600);
      lines.push(
        [
          String(p.nsr).padStart(9, '0'),
          p.localDate,
          p.localTime,
          p.employeeExternalId,
          p.employeeName,
          name,
          p.sha256,
          p.sealed,
        ]
          .map(csv)
          .join(','),
      );
    }
    const index = path.join(req.dir, `photos-${req.from}-${req.to}.csv`);
    fs.writeFileSync(index, lines.join('\r\n') + '\r\n', { mode: 0o600 });
    return { photos: photos.length, unsealed: photos.filter((p) => !p.sealed).map((p) => p.nsr), index, dir: req.dir };
  } finally {
    db.close();
  }
}
