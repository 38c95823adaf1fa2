import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import {
  archiveDataFile,
  decodeArchive,
  decodeArchiveSteps,
  parseSeal,
  type ArchivedFact,
  type ArchivedMark,
  type ArchiveSeal,
} from '../../domain/punch/journal-archive-format.js';
import type { Db } from '../database.js';
import { archiveDirOf, archiveRows, archivedThrough, type ArchiveRow } from './journal-archive.js';
import { sha256Latin1, sha256Utf8 } from './journal-facts.js';

/** An archive the database lists that cannot be read as it was sealed: missing, changed, or not one. */
export class ArchiveUnreadable extends Error {
  constructor(
    readonly archive: string,
    message: string,
  ) {
    super(message);
    this.name = 'ArchiveUnreadable';
  }
}

export type LoadedArchive = {
  row: ArchiveRow;
  seal: ArchiveSeal;
  marks: ArchivedMark[];
  facts: ArchivedFact[];
  /** Per local date: the NSRs of its first and last mark here. */
  days: Map<string, { lo: number; hi: number }>;
};

const gunzipAsync = promisify(gunzip);

/**
 * Reads archive `row` from `dir`: its seal (the database's copy), the file's length and SHA-256 against it, every hash
 * recomputed.
 */
export function loadArchive(dir: string, row: ArchiveRow): LoadedArchive {
  const { seal, bytes } = sealedBytes(dir, row);
  let decoded: { marks: ArchivedMark[]; facts: ArchivedFact[] };
  try {
    decoded = decodeArchive(gunzipSync(bytes).toString('utf8'), seal, { latin1: sha256Latin1, utf8: sha256Utf8 });
  } catch (e) {
    throw new ArchiveUnreadable(row.name, `archive ${row.name}: not readable (${(e as Error).message})`);
  }
  return { row, seal, ...decoded, days: daysOf(decoded.marks) };
}

/**
 * The same on the agent's event loop: the gunzip off it, the records a few thousand at a time with `pause()` between.
 */
export async function loadArchiveAsync(
  dir: string,
  row: ArchiveRow,
  pause: () => Promise<void>,
): Promise<LoadedArchive> {
  const { seal, bytes } = sealedBytes(dir, row);
  try {
    const steps = decodeArchiveSteps(
      (await gunzipAsync(bytes)).toString('utf8'),
      seal,
      { latin1: sha256Latin1, utf8: sha256Utf8 },
      2_000,
    );
    for (let r = steps.next(); ; r = steps.next()) {
      if (r.done) return { row, seal, ...r.value, days: daysOf(r.value.marks) };
      await pause();
    }
  } catch (e) {
    throw new ArchiveUnreadable(row.name, `archive ${row.name}: not readable (${(e as Error).message})`);
  }
}

function sealedBytes(dir: string, row: ArchiveRow): { seal: ArchiveSeal; bytes: Buffer } {
  const seal = parseSeal(row.seal);
  if (!seal)
    throw new ArchiveUnreadable(row.name, `archive ${row.name}: the database's copy of its seal is not readable`);
  const file = path.join(dir, archiveDataFile(row.name));
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    throw new ArchiveUnreadable(
      row.name,
      `archive ${row.name}: ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): missing?`,
    );
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== seal.data.bytes || digest !== seal.data.sha256) {
    throw new ArchiveUnreadable(
      row.name,
      `archive ${row.name}: ${file} is not the file that was sealed (SHA-256 ${digest.slice(0, 16)}…, sealed ${seal.data.sha256.slice(0, 16)}…): changed or replaced`,
    );
  }
  return { seal, bytes };
}

function daysOf(marks: readonly ArchivedMark[]): Map<string, { lo: number; hi: number }> {
  const days = new Map<string, { lo: number; hi: number }>();
  for (const m of marks) {
    const d = days.get(m.localDate);
    if (d) d.hi = m.nsr;
    else days.set(m.localDate, { lo: m.nsr, hi: m.nsr });
  }
  return days;
}

/** The first index in `marks` (NSR order) whose NSR is above `after`. */
function firstAfter(marks: readonly ArchivedMark[], after: number): number {
  let lo = 0;
  let hi = marks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((marks[mid] as ArchivedMark).nsr <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The archives a database lists, read on demand for the journal's readers (store/journal/journal-read.ts):
 * the marks through `archivedNsr` and facts through `archivedSeq` come from here, the rest from the
 * database. The last two archives read are kept in memory (an export walks one month after another).
 */
export class ArchiveShelf {
  readonly archivedNsr: number;
  readonly archivedSeq: number;
  private readonly rows: ArchiveRow[];
  private readonly seals = new Map<string, ArchiveSeal | null>();
  private readonly cache: LoadedArchive[] = [];

  constructor(
    private readonly dir: string | null,
    rows: ArchiveRow[],
    through: { nsr: number; seq: number } | null,
  ) {
    this.rows = rows.filter((r) => r.removedAt === null);
    this.archivedNsr = through?.nsr ?? 0;
    this.archivedSeq = through?.seq ?? 0;
  }

  static of(db: Db): ArchiveShelf {
    return new ArchiveShelf(archiveDirOf(db.name), archiveRows(db), archivedThrough(db));
  }

  get empty(): boolean {
    return this.rows.length === 0;
  }

  private seal(row: ArchiveRow): ArchiveSeal | null {
    if (!this.seals.has(row.name)) this.seals.set(row.name, parseSeal(row.seal));
    return this.seals.get(row.name) ?? null;
  }

  load(row: ArchiveRow): LoadedArchive {
    const hit = this.cache.find((a) => a.row.name === row.name);
    if (hit) return hit;
    if (this.dir === null)
      throw new ArchiveUnreadable(row.name, `archive ${row.name}: no archive folder for an in-memory database`);
    const a = loadArchive(this.dir, row);
    this.cache.unshift(a);
    this.cache.length = Math.min(this.cache.length, 2);
    return a;
  }

  /** The archives whose marks' dates meet `from`..`to`. */
  private inDates(from: string, to: string): ArchiveRow[] {
    return this.rows.filter((r) => {
      const s = this.seal(r);
      return s === null || (s.dates.from <= to && s.dates.to >= from);
    });
  }

  mark(nsr: number): ArchivedMark | null {
    const row = this.rows.find((r) => r.firstNsr <= nsr && nsr <= r.lastNsr);
    if (!row) return null;
    const marks = this.load(row).marks;
    const m = marks[firstAfter(marks, nsr - 1)];
    return m?.nsr === nsr ? m : null;
  }

  markOfPunch(punchId: number): ArchivedMark | null {
    for (const row of this.rows) {
      const p = this.seal(row)?.punchIds;
      if (p && (punchId < p.min || punchId > p.max)) continue;
      const m = this.load(row).marks.find((x) => x.punchId === punchId);
      if (m) return m;
    }
    return null;
  }

  dayBounds(day: string): { lo: number; hi: number } | null {
    let out: { lo: number; hi: number } | null = null;
    for (const row of this.inDates(day, day)) {
      const b = this.load(row).days.get(day);
      if (b) out = out ? { lo: Math.min(out.lo, b.lo), hi: Math.max(out.hi, b.hi) } : { ...b };
    }
    return out;
  }

  /**
   * Up to `limit` archived marks dated `from`..`to` after NSR `after` through `hi`, of `chain` when given, in NSR
   * order.
   */
  marksInDates(
    from: string,
    to: string,
    after: number,
    hi: number,
    limit: number,
    chain: string | null,
  ): ArchivedMark[] {
    const out: ArchivedMark[] = [];
    for (const row of this.inDates(from, to)) {
      if (row.lastNsr <= after || row.firstNsr > hi) continue;
      const marks = this.load(row).marks;
      for (let i = firstAfter(marks, after); i < marks.length && out.length < limit; i++) {
        const m = marks[i] as ArchivedMark;
        if (m.nsr > hi) break;
        if (m.localDate >= from && m.localDate <= to && (chain === null || m.chain === chain)) out.push(m);
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  dateBounds(from: string, to: string): { lo: number; hi: number } | null {
    let out: { lo: number; hi: number } | null = null;
    for (const row of this.inDates(from, to)) {
      for (const [day, b] of this.load(row).days) {
        if (day < from || day > to) continue;
        out = out ? { lo: Math.min(out.lo, b.lo), hi: Math.max(out.hi, b.hi) } : { ...b };
      }
    }
    return out;
  }

  /** The NSR of the first archived mark after `nsr`, or null. */
  nextMark(nsr: number): number | null {
    for (const row of this.rows) {
      if (row.lastNsr <= nsr) continue;
      const marks = this.load(row).marks;
      const m = marks[firstAfter(marks, nsr)];
      if (m) return m.nsr;
    }
    return null;
  }

  chainsInDates(from: string, to: string): string[] {
    const chains = new Set<string>();
    for (const row of this.inDates(from, to))
      for (const m of this.load(row).marks) if (m.localDate >= from && m.localDate <= to) chains.add(m.chain);
    return [...chains];
  }

  /**
   * Archived facts about NSRs `lo`..`hi`: an archive holds facts about its own NSRs and earlier ones, never later ones.
   */
  factsAbout(lo: number, hi: number, event: string | null): ArchivedFact[] {
    const out: ArchivedFact[] = [];
    for (const row of this.rows) {
      if (row.lastSeq < row.firstSeq || row.lastNsr < lo) continue;
      for (const f of this.load(row).facts)
        if (f.nsr >= lo && f.nsr <= hi && (event === null || f.event === event)) out.push(f);
    }
    return out;
  }
}
