/**
 * Issue 31: a period's punch photos for a dispute (`timeclock photos export`): every mark of those
 * local dates with a photo file, its punch (while retention keeps it) and the SHA-256 the journal
 * sealed for it. Read-only.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parsePhotoFactDetail, photoFileName } from '../../domain/punch/photo.js';
import { dayNumber } from './journal-read.js';
import type { Db } from '../database.js';
import { photoDirOfDb } from './photo-files.js';

export type PeriodPhoto = {
  nsr: number;
  localDate: string;
  localTime: string | null;
  employeeExternalId: string | null;
  employeeName: string | null;
  file: string;
  sha256: string;
  /** The file is the one the journal's 'photo' fact sealed. */
  sealed: boolean;
};

export function photosOfPeriod(db: Db, from: string, to: string): PeriodPhoto[] {
  const dir = photoDirOfDb(db);
  const rows = db
    .prepare(
      `SELECT m.nsr, m.local_date, p.local_time, p.employee_external_id, p.employee_name,
         (SELECT f.detail FROM journal_facts f WHERE f.nsr = m.nsr AND f.event = 'photo' ORDER BY f.seq DESC LIMIT 1) AS sealed
       FROM journal_marks m LEFT JOIN punches p ON p.nsr = m.nsr
       WHERE m.marked / 1440 BETWEEN ? AND ? ORDER BY m.nsr`, // journal_marks_by_day (migration 18)
    )
    .all(dayNumber(from), dayNumber(to)) as Array<{
    nsr: number;
    local_date: string;
    local_time: string | null;
    employee_external_id: string | null;
    employee_name: string | null;
    sealed: string | null;
  }>;
  const out: PeriodPhoto[] = [];
  for (const r of rows) {
    const file = path.join(dir, photoFileName(r.nsr));
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch {
      continue;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const sealed = r.sealed !== null && parsePhotoFactDetail(r.sealed)?.sha256 === sha256;
    out.push({
      nsr: r.nsr,
      localDate: r.local_date,
      localTime: r.local_time,
      employeeExternalId: r.employee_external_id,
      employeeName: r.employee_name,
      file,
      sha256,
      sealed,
    });
  }
  return out;
}
