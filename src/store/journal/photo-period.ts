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
  const marks = db
    .prepare(
      `SELECT m.nsr, m.local_date,
         (SELECT f.detail FROM journal_facts f WHERE f.nsr = m.nsr AND f.event = 'photo' ORDER BY f.seq DESC LIMIT 1) AS sealed
       FROM journal_marks m WHERE m.marked / 1440 BETWEEN ? AND ? ORDER BY m.nsr`, // journal_marks_by_day (migration 18)
    )
    .all(dayNumber(from), dayNumber(to)) as Array<{ nsr: number; local_date: string; sealed: string | null }>;
  // Their punches (either form, punch_history: migration 19) by NSR range: a view on the right of a LEFT JOIN is
  // not merged into the query.
  type PunchOfMark = { nsr: number; local_time: string; employee_external_id: string | null; employee_name: string };
  const punches = db
    .prepare('SELECT nsr, local_time, employee_external_id, employee_name FROM punch_history WHERE nsr BETWEEN ? AND ?')
    .all(marks[0]?.nsr ?? 0, marks.at(-1)?.nsr ?? -1) as PunchOfMark[];
  const byNsr = new Map(punches.map((p) => [p.nsr, p]));
  const rows = marks.map((m) => {
    const p = byNsr.get(m.nsr);
    return {
      ...m,
      local_time: p?.local_time ?? null,
      employee_external_id: p?.employee_external_id ?? null,
      employee_name: p?.employee_name ?? null,
    };
  });
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
