import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  archiveDataFile,
  archiveSealFile,
  archiveSignatureFile,
  parseSeal,
} from '../../domain/punch/journal-archive-format.js';
import type { Db, WritableDb } from '../database.js';
import { archiveDirOf, archiveRows } from '../journal/journal-archive.js';
import { recordKey } from '../settings/setting-keys.js';
import { readSetting, writeSetting } from '../settings/settings.js';

/**
 * The journal's archives as status and doctor show them (issue 26 item 9): how many months are
 * kept, the oldest and newest, their bytes on the disk, the last archiving run, and what is wrong
 * with any of them — a file missing, a file that is not the one sealed (its size, or a seal whose
 * text is not the database's), a seal left unsigned although a signing key is set. Cheap: a stat
 * per file and a read of each seal (a few hundred bytes), never the archives' contents (`journal
 * verify` reads and hashes those).
 */

export type ArchivePassRecord = {
  at: number;
  outcome: 'done' | 'failed';
  archives: number;
  marks: number;
  removed: number;
  error: string | null;
};

export const ARCHIVE_PASS_KEY = recordKey<ArchivePassRecord>(
  'journal.archivePass',
  z.looseObject({
    at: z.number(),
    outcome: z.enum(['done', 'failed']),
    archives: z.number(),
    marks: z.number(),
    removed: z.number(),
    error: z.string().nullable(),
  }),
);

export type ArchiveProblem = { name: string; kind: 'missing' | 'changed' | 'unsigned' };

export type ArchiveSummary = {
  /** Archives kept (not yet let go after journal.keepYears) and the months they cover. */
  archives: number;
  months: number;
  oldestMonth: string | null;
  newestMonth: string | null;
  /** Their files' bytes on the disk (data, seal, signature). */
  bytes: number;
  lastPass: ArchivePassRecord | null;
  problems: ArchiveProblem[];
};

const size = (file: string): number | null => {
  try {
    return fs.statSync(file).size;
  } catch {
    return null;
  }
};

const read = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

export function recordArchivePass(db: WritableDb, r: ArchivePassRecord): void {
  writeSetting(db, ARCHIVE_PASS_KEY, r);
}

/** Null for a database without archives' tables (before migration 13) or an in-memory one. */
export function archiveSummary(db: Db, o: { signingKeySet: boolean }): ArchiveSummary | null {
  const dir = archiveDirOf(db.name);
  if (dir === null) return null;
  const rows = archiveRows(db).filter((r) => r.removedAt === null);
  const months = new Set<string>();
  const problems: ArchiveProblem[] = [];
  let bytes = 0;
  for (const row of rows) {
    const seal = parseSeal(row.seal);
    if (seal) months.add(seal.month);
    const data = size(path.join(dir, archiveDataFile(row.name)));
    const sealText = read(path.join(dir, archiveSealFile(row.name)));
    const signature = size(path.join(dir, archiveSignatureFile(row.name)));
    bytes += (data ?? 0) + (sealText === null ? 0 : Buffer.byteLength(sealText)) + (signature ?? 0);
    if (data === null || sealText === null || (row.signed && signature === null))
      problems.push({ name: row.name, kind: 'missing' });
    else if (sealText !== row.seal || (seal !== null && seal.data.bytes !== data))
      problems.push({ name: row.name, kind: 'changed' });
    else if (o.signingKeySet && !row.signed) problems.push({ name: row.name, kind: 'unsigned' });
  }
  const sorted = [...months].sort();
  return {
    archives: rows.length,
    months: sorted.length,
    oldestMonth: sorted[0] ?? null,
    newestMonth: sorted[sorted.length - 1] ?? null,
    bytes,
    lastPass: readSetting(db, ARCHIVE_PASS_KEY),
    problems,
  };
}
