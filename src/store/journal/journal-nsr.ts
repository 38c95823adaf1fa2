import fs from 'node:fs';
import path from 'node:path';
import type { Sidecar } from '../../domain/punch/nsr-reservation.js';
import { writePrivateFile } from '../private-file.js';

/**
 * The NSR sidecar: `journal-nsr.json` beside the database, holding the journal's id and the NSRs
 * reserved (domain/punch/nsr-reservation.ts has the protocol). Written whole or not at all (temp file,
 * fsync, rename, fsync of the directory), and only while the writer holds the database's write
 * lock, so two processes never interleave their writes. It holds no secret; 0600 like the
 * directory's other files.
 */
export const NSR_SIDECAR_FILE = 'journal-nsr.json';

/** NSRs reserved at a time: one sidecar write (two fsyncs) per block, not per punch. */
export const NSR_BLOCK = 1_000;

export function sidecarPathFor(dbFile: string): string | null {
  // ':memory:' and '' (temporary) databases have no directory to keep a sidecar in.
  if (dbFile === '' || dbFile === ':memory:' || dbFile.startsWith('file:')) return null;
  return path.join(path.dirname(dbFile), NSR_SIDECAR_FILE);
}

export type SidecarRead = { sidecar: Sidecar | null; problem: string | null };

/** The sidecar, or null when there is none; one that cannot be read is reported as a problem and treated as absent. */
export function readSidecar(file: string): SidecarRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { sidecar: null, problem: null };
    return {
      sidecar: null,
      problem: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    };
  }
  const parsed = parseSidecar(text);
  return parsed
    ? { sidecar: parsed, problem: null }
    : { sidecar: null, problem: `${file} is not a journal sidecar; rewritten from the database` };
}

function parseSidecar(text: string): Sidecar | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const whole = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  if (o['version'] !== 1 || typeof o['journalId'] !== 'string' || !/^[0-9a-f]{32}$/.test(o['journalId'])) return null;
  if (!whole(o['reservedTo'])) return null;
  const pending = o['pending'];
  if (pending !== null && !whole(pending)) return null;
  const lastGiven = o['lastGiven'] ?? null;
  if (lastGiven !== null && !whole(lastGiven)) return null;
  return { journalId: o['journalId'], reservedTo: o['reservedTo'], pending, lastGiven };
}

export function writeSidecar(file: string, s: Sidecar): void {
  writePrivateFile(
    file,
    `${JSON.stringify({ version: 1, journalId: s.journalId, reservedTo: s.reservedTo, pending: s.pending, lastGiven: s.lastGiven })}\n`,
  );
}

/**
 * The chain's head beside the NSR sidecar (and in its mirror): the last mark's NSR and hash, written after each commit.
 */
export const JOURNAL_HEAD_FILE = 'journal-head.json';

export type JournalHead = { journalId: string; nsr: number; hash: string };

export function headPathFor(dbFile: string): string | null {
  const side = sidecarPathFor(dbFile);
  return side === null ? null : path.join(path.dirname(side), JOURNAL_HEAD_FILE);
}

/**
 * Written after every mark's commit, whole (temp file and rename) but without an fsync: a power cut
 * may leave an older head, which is still true (the database has that mark and more); never a
 * head the database does not have.
 */
export function writeHead(file: string, h: JournalHead): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(tmp, `${JSON.stringify({ version: 1, ...h })}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** The head in `file`, null when there is none or it is not one. */
export function readHead(file: string): JournalHead | null {
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const { journalId, nsr, hash } = o;
  if (
    o['version'] !== 1 ||
    typeof journalId !== 'string' ||
    typeof nsr !== 'number' ||
    !Number.isSafeInteger(nsr) ||
    nsr < 1 ||
    typeof hash !== 'string' ||
    !/^[0-9a-fA-F]{64}$/.test(hash)
  )
    return null;
  return { journalId, nsr, hash };
}
