import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  ARCHIVE_FORMAT,
  ArchiveEncoder,
  archiveDataFile,
  archiveSealFile,
  archiveSignatureFile,
  archiveStem,
  type ArchivedFact,
  type ArchivedMark,
  type ArchiveSeal,
  type ChainPoint,
} from '../../domain/punch/journal-archive-format.js';
import type { WritableDb } from '../../store/database.js';
import { ArchiveStore, archiveDirOf, archiveRows, FACT_CHAIN } from '../../store/journal/journal-archive.js';
import { sha256Latin1, sha256Utf8 } from '../../store/journal/journal-facts.js';
import type { AfdSigner } from '../exports/afd-signature.js';
import { ExportFile, exportFolder, syncDir } from '../host/export-file.js';
import { GzipPieces } from './gzip-pieces.js';

const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;
/**
 * Rows read per step (1,000 marks: 10-25 ms on a slow CPU; 2,000 took up to 47), and the most marks one archive file
 * holds (a busy month is split, each part named by its first NSR).
 */
const READ_STEP = 1_000;
const MAX_MARKS = 250_000;
/** Records encoded per slice (each a SHA-256): a few milliseconds on a slow CPU. */
const ENCODE_STEP = 500;
/** Leftover rows deleted per transaction: sized as it goes so one takes about TARGET_MS. */
const TARGET_MS = 15;
const DELETE = { first: 100, min: 10, max: 500 };

export type ArchiveSettings = { archiveAfterDays: number; keepYears: number };

export type ArchiverDeps = {
  db: WritableDb;
  settings: ArchiveSettings;
  now: () => number;
  mono: () => number;
  /** The signer of the seals (afd.signingKey), or null; asked once a pass. */
  signer: () => AfdSigner | null;
  /** Between two steps: the event loop (or the retention pass's checkpoint) runs. */
  pause: () => Promise<void>;
  stopped: () => boolean;
  /**
   * Tests: runs after an archive's files are on the disk and before the database says so (a crash there loses nothing).
   */
  afterFilesWritten?: (stem: string) => void;
};

export type ArchivePassResult = {
  archives: string[];
  marks: number;
  facts: number;
  deleted: number;
  removed: string[];
  longestStepMs: number;
};

/** "2026-05-01": marks dated before the month of `now - days` are due (whole months are archived). */
export function archiveCutoff(now: number, days: number): { day: string; at: number } {
  const month = new Date(now - days * DAY_MS).toISOString().slice(0, 7);
  return { day: `${month}-01`, at: Date.parse(`${month}-01T00:00:00Z`) };
}

/**
 * Moves the journal's rows older than journal.archiveAfterDays into monthly sealed archives
 * (docs/evidence-journal.md, "Archives"), then removes archives older than journal.keepYears.
 * Steps of bounded size with `pause()` between them: the reads a page at a time, the gzip off the
 * loop, the files written asynchronously, the deletions in small transactions.
 */
export async function archiveJournal(d: ArchiverDeps): Promise<ArchivePassResult> {
  const dir = archiveDirOf(d.db.name);
  const result: ArchivePassResult = { archives: [], marks: 0, facts: 0, deleted: 0, removed: [], longestStepMs: 0 };
  if (dir === null) return result;
  const store = new ArchiveStore(d.db);
  const step = <T>(fn: () => T): T => {
    const t0 = d.mono();
    const r = fn();
    result.longestStepMs = Math.max(result.longestStepMs, d.mono() - t0);
    return r;
  };
  // Leftovers of a pass stopped (or killed) after its commit go first.
  await deleteLeftovers(d, store, step, result);
  const cutoff = archiveCutoff(d.now(), d.settings.archiveAfterDays);
  let signer: AfdSigner | null | undefined;
  while (!d.stopped()) {
    const batch = await nextBatch(d, store, step, cutoff);
    if (batch === null) break;
    signer ??= d.signer();
    const { seal, text } = await writeArchive(d, dir, store, batch, signer);
    d.afterFilesWritten?.(seal.name);
    if (!step(() => store.commit(seal, text, signer !== null, d.now()))) break;
    result.archives.push(seal.name);
    result.marks += seal.marks.count;
    result.facts += seal.facts.count;
    await d.pause();
    await deleteLeftovers(d, store, step, result);
  }
  if (!d.stopped()) result.removed = await removeExpired(d, dir, store);
  return result;
}

type Batch = { month: string; marks: ArchivedMark[]; facts: ArchivedFact[] };

/**
 * The next archive's rows: marks after the watermark, of one month before the cutoff; the facts that follow in seq
 * order about them.
 */
async function nextBatch(
  d: ArchiverDeps,
  store: ArchiveStore,
  step: <T>(fn: () => T) => T,
  cutoff: { day: string; at: number },
): Promise<Batch | null> {
  const state = store.state();
  const marks: ArchivedMark[] = [];
  let month: string | null = null;
  for (let after = state.archivedNsr, more = true; more && marks.length < MAX_MARKS; await d.pause()) {
    const page = step(() => store.marksAfter(after, READ_STEP));
    more = page.length === READ_STEP;
    for (const m of page) {
      const mMonth = m.localDate.slice(0, 7);
      if (m.localDate >= cutoff.day || (month !== null && mMonth !== month) || marks.length >= MAX_MARKS) {
        more = false;
        break;
      }
      month ??= mMonth;
      marks.push(m);
      after = m.nsr;
    }
  }
  if (month === null || marks.length === 0) return null;
  const last = (marks[marks.length - 1] as ArchivedMark).nsr;
  const facts: ArchivedFact[] = [];
  for (let after = state.archivedSeq, more = true; more; await d.pause()) {
    const page = step(() => store.factsAfter(after, READ_STEP));
    more = page.length === READ_STEP;
    for (const f of page) {
      if (f.nsr > last || f.at >= cutoff.at || f.seq !== after + 1) {
        more = false;
        break;
      }
      facts.push(f);
      after = f.seq;
    }
  }
  return { month, marks, facts };
}

async function writeArchive(
  d: ArchiverDeps,
  dir: string,
  store: ArchiveStore,
  b: Batch,
  signer: AfdSigner | null,
): Promise<{ seal: ArchiveSeal; text: string }> {
  const { journalId } = store.state();
  const heads = store.heads();
  const first = b.marks[0] as ArchivedMark;
  const last = b.marks[b.marks.length - 1] as ArchivedMark;
  const chains: ArchiveSeal['chains'] = {};
  const before = new Map<string, ChainPoint | null>();
  for (const m of b.marks) {
    if (!before.has(m.chain)) before.set(m.chain, heads.get(m.chain) ?? null);
    chains[m.chain] = { before: before.get(m.chain) ?? null, after: { num: m.nsr, hash: m.line.slice(73) } };
  }
  const factBefore = b.facts.length > 0 || heads.has(FACT_CHAIN) ? (heads.get(FACT_CHAIN) ?? null) : null;
  const encoder = new ArchiveEncoder(journalId, b.facts[0]?.seq ?? 0, before, factBefore, {
    latin1: sha256Latin1,
    utf8: sha256Utf8,
  });
  // Encoded and compressed a slice at a time (agent/journal/gzip-pieces.ts): no step holds the whole month.
  const gz = new GzipPieces();
  for (let i = 0; i < b.marks.length; i += ENCODE_STEP) {
    encoder.marks(b.marks.slice(i, i + ENCODE_STEP));
    await gz.write(encoder.take());
    await d.pause();
  }
  for (let i = 0; i < b.facts.length; i += ENCODE_STEP) {
    encoder.facts(b.facts.slice(i, i + ENCODE_STEP));
    await gz.write(encoder.take());
    await d.pause();
  }
  await gz.write(encoder.take());
  const data = await gz.end();
  const stem = archiveStem(b.month, journalId, first.nsr);
  // One pass, no spread: a busy month's 250,000 ids would not fit in Math.min's arguments.
  let punchIds: { min: number; max: number } | null = null;
  let dates = { from: first.localDate, to: first.localDate };
  for (const m of b.marks) {
    if (m.punchId !== null)
      punchIds = punchIds
        ? { min: Math.min(punchIds.min, m.punchId), max: Math.max(punchIds.max, m.punchId) }
        : { min: m.punchId, max: m.punchId };
    if (m.localDate < dates.from) dates = { ...dates, from: m.localDate };
    if (m.localDate > dates.to) dates = { ...dates, to: m.localDate };
  }
  const lastFact = b.facts[b.facts.length - 1];
  const seal: ArchiveSeal = {
    format: ARCHIVE_FORMAT,
    journalId,
    name: stem,
    month: b.month,
    data: { file: archiveDataFile(stem), bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') },
    marks: { first: first.nsr, last: last.nsr, count: b.marks.length },
    facts: {
      first: b.facts[0]?.seq ?? store.state().archivedSeq + 1,
      last: lastFact?.seq ?? store.state().archivedSeq,
      count: b.facts.length,
    },
    chains,
    factChain: { before: factBefore, after: lastFact ? { num: lastFact.seq, hash: lastFact.hash } : factBefore },
    dates,
    punchIds,
    createdAt: new Date(d.now()).toISOString(),
  };
  const text = `${JSON.stringify(seal, null, 1)}\n`;
  await exportFolder(dir, 0o700);
  const files: [string, Buffer][] = [
    [archiveDataFile(stem), data],
    [archiveSealFile(stem), Buffer.from(text, 'utf8')],
  ];
  if (signer) files.push([archiveSignatureFile(stem), await signer.sign(Buffer.from(text, 'utf8'), new Date(d.now()))]);
  for (const [name, bytes] of files) {
    // A file of this name is an earlier pass's that did not commit (its row is missing): replaced.
    const f = await ExportFile.create(path.join(dir, name), { replace: true, mode: 0o600 });
    try {
      await f.write(bytes);
      await f.place();
    } catch (e) {
      await f.discard();
      throw e;
    }
  }
  if (!signer) await fs.promises.rm(path.join(dir, archiveSignatureFile(stem)), { force: true });
  await syncDir(dir);
  return { seal, text };
}

async function deleteLeftovers(
  d: ArchiverDeps,
  store: ArchiveStore,
  step: <T>(fn: () => T) => T,
  result: ArchivePassResult,
): Promise<void> {
  for (let n = DELETE.first; !d.stopped(); await d.pause()) {
    const t0 = d.mono();
    const gone = step(() => store.deleteArchived(n));
    result.deleted += gone;
    if (gone === 0) return;
    const ms = d.mono() - t0;
    n =
      ms > TARGET_MS
        ? Math.max(DELETE.min, Math.floor(n / 2))
        : ms < TARGET_MS / 2
          ? Math.min(DELETE.max, Math.ceil(n * 1.5))
          : n;
  }
}

/**
 * Archives whose newest mark is older than journal.keepYears: a fact first, then the files (again for a removal a crash
 * interrupted).
 */
async function removeExpired(d: ArchiverDeps, dir: string, store: ArchiveStore): Promise<string[]> {
  const removed: string[] = [];
  const limitDay = new Date(d.now() - d.settings.keepYears * YEAR_MS).toISOString().slice(0, 10);
  for (const row of archiveRows(d.db)) {
    if (row.removedAt === null) {
      const to = /"to":\s*"(\d{4}-\d{2}-\d{2})"/.exec(row.seal)?.[1];
      if (to === undefined || to >= limitDay) continue;
      store.markRemoved(
        row,
        d.now(),
        `older than journal.keepYears (${d.settings.keepYears}): its newest mark is of ${to}`,
      );
      removed.push(row.name);
    }
    for (const name of [archiveDataFile(row.name), archiveSealFile(row.name), archiveSignatureFile(row.name)])
      await fs.promises.rm(path.join(dir, name), { force: true });
    await d.pause();
  }
  if (removed.length) await syncDir(dir);
  return removed;
}
