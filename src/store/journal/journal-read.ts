import type { Db } from '../database.js';
import { clockAdjustedLine } from '../../domain/punch/journal-fact.js';
import { MARK_BODY_LENGTH } from '../../domain/afd/mark.js';
import { parseFactRow, type StoredFact } from './journal-facts.js';
import { ArchiveShelf } from './journal-archive-read.js';
import { archivedThrough } from './journal-archive.js';

export { parseMarkRow, type StoredMark } from './mark-row.js';
import { parseMarkRow, type StoredMark } from './mark-row.js';

/**
 * The journal's id and the NSR its next mark takes, for status: one statement, the same cost at any
 * size. Null for a database the journal does not exist in yet (read-only, before migration 11).
 */
export function journalState(db: Db): { journalId: string; nextNsr: number } | null {
  let row: unknown;
  try {
    row = db
      .prepare(
        'SELECT journal_id, MAX(nsr_floor, COALESCE((SELECT MAX(nsr) FROM journal_marks), 0) + 1) AS next FROM journal_meta WHERE one = 1',
      )
      .get();
  } catch (e) {
    if (/no such table/.test((e as Error).message)) return null;
    throw e;
  }
  const r = row as { journal_id?: unknown; next?: unknown } | undefined;
  return typeof r?.journal_id === 'string' && typeof r.next === 'number'
    ? { journalId: r.journal_id, nextNsr: r.next }
    : null;
}

const marks = (rows: unknown[]): StoredMark[] => rows.map(parseMarkRow).filter((m): m is StoredMark => m !== null);

/** A YYYY-MM-DD date as the day number journal_marks_by_day holds (`marked / 1440`: days since 1970-01-01). */
export const dayNumber = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

type Bounds = { lo: number; hi: number };
const merged = (a: Bounds | null, b: Bounds | null): Bounds | null =>
  a && b ? { lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi) } : (a ?? b);

/**
 * What the receipt and the AFD export read from the journal. Read-only; any connection. Marks
 * outlive their punches; those older than journal.archiveAfterDays are read from the archives
 * beside the database (store/journal/journal-archive-read.ts) as if they were still here: the marks
 * through the archived NSR and the facts through the archived seq come from there, the rest
 * from the database (rows at or below the watermark still here are leftovers being deleted).
 */
export class JournalReader {
  private readonly stmts;
  private shelfCache: ArchiveShelf | null = null;

  constructor(private readonly db: Db) {
    this.stmts = {
      byNsr: db.prepare('SELECT * FROM journal_marks WHERE nsr = ?'),
      // The punch row's NSR (also a resolved capture's); once retention pruned it, the mark's own link.
      ofPunch: db.prepare('SELECT m.* FROM punch_history p JOIN journal_marks m ON m.nsr = p.nsr WHERE p.id = ?'),
      // No index by punch (migration 18): walked in NSR order. A rare read: a pruned punch's mark stays here only
      // until it is archived (journal.archiveAfterDays), and receipts ask by NSR.
      punchNsr: db.prepare('SELECT nsr FROM punch_history WHERE id = ?'),
      ofPrunedPunch: db.prepare('SELECT * FROM journal_marks WHERE punch_id = ? ORDER BY nsr LIMIT 1'),
      // Two single-aggregate subqueries: each is one seek in the day index, whatever the day holds.
      dayBounds: db.prepare(
        'SELECT (SELECT MIN(nsr) FROM journal_marks INDEXED BY journal_marks_by_day WHERE marked / 1440 = @day) AS lo, (SELECT MAX(nsr) FROM journal_marks INDEXED BY journal_marks_by_day WHERE marked / 1440 = @day) AS hi',
      ),
      dateBounds: db.prepare(
        'SELECT MIN(nsr) AS lo, MAX(nsr) AS hi FROM journal_marks INDEXED BY journal_marks_by_day WHERE marked / 1440 >= ? AND marked / 1440 <= ?',
      ),
      // By NSR between the bounds, the date checked per row (+: not by the date index, which would sort every page).
      inDates: db.prepare(
        'SELECT * FROM journal_marks WHERE nsr > @after AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to ORDER BY nsr LIMIT @limit',
      ),
      inDatesOfChain: db.prepare(
        'SELECT * FROM journal_marks WHERE nsr > @after AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to AND +chain = @chain ORDER BY nsr LIMIT @limit',
      ),
      chainsIn: db.prepare(
        'SELECT DISTINCT chain FROM journal_marks WHERE nsr >= @lo AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to',
      ),
      factsOf: db.prepare('SELECT * FROM journal_facts INDEXED BY journal_facts_by_nsr WHERE nsr = ? ORDER BY seq'),
      clockRecords: db.prepare(
        "SELECT seq, nsr, detail FROM journal_facts INDEXED BY journal_facts_by_nsr WHERE nsr >= ? AND nsr <= ? AND event = 'clock_adjusted' ORDER BY nsr",
      ),
      nextMark: db.prepare('SELECT MIN(nsr) AS nsr FROM journal_marks WHERE nsr > ?'),
      chainHead: db.prepare(
        'SELECT m.nsr, m.line, (SELECT journal_id FROM journal_meta WHERE one = 1) AS journal_id FROM journal_marks m WHERE m.nsr = (SELECT nsr FROM journal_chain_tails WHERE chain = ?)',
      ),
    };
  }

  /** The archives as the database lists them now (read again when an archiving pass moved the watermark). */
  private shelf(): ArchiveShelf {
    const through = archivedThrough(this.db);
    if (
      this.shelfCache &&
      this.shelfCache.archivedNsr === (through?.nsr ?? 0) &&
      this.shelfCache.archivedSeq === (through?.seq ?? 0)
    )
      return this.shelfCache;
    this.shelfCache = ArchiveShelf.of(this.db);
    return this.shelfCache;
  }

  mark(nsr: number): StoredMark | null {
    const shelf = this.shelf();
    if (nsr <= shelf.archivedNsr) return shelf.mark(nsr);
    return parseMarkRow(this.stmts.byNsr.get(nsr));
  }

  markOfPunch(punchId: number): StoredMark | null {
    const own = parseMarkRow(this.stmts.ofPunch.get(punchId));
    if (own) return own;
    const nsr = (this.stmts.punchNsr.get(punchId) as { nsr: number | null } | undefined)?.nsr;
    // The row names its mark: archived since (or none).
    if (typeof nsr === 'number') return this.mark(nsr);
    // The row is gone (retention) or never had a mark: the mark's own link, here then in the archives.
    const m = parseMarkRow(this.stmts.ofPrunedPunch.get(punchId));
    if (m) return m;
    const shelf = this.shelf();
    return shelf.empty ? null : shelf.markOfPunch(punchId);
  }

  /** The NSRs of the first and last marks dated `from`..`to` (YYYY-MM-DD, inclusive), or null when none is. */
  dateBounds(from: string, to: string): { lo: number; hi: number } | null {
    const r = this.stmts.dateBounds.get(dayNumber(from), dayNumber(to)) as { lo: number | null; hi: number | null };
    const shelf = this.shelf();
    return merged(
      r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi },
      shelf.empty ? null : shelf.dateBounds(from, to),
    );
  }

  /**
   * The NSRs of the first and last marks of one day, or null when it has none. A long range's bounds
   * a day at a time cost a seek per day, where dateBounds walks every mark of the range at once.
   */
  dayBounds(day: string): { lo: number; hi: number } | null {
    const r = this.stmts.dayBounds.get({ day: dayNumber(day) }) as { lo: number | null; hi: number | null };
    const shelf = this.shelf();
    return merged(
      r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi },
      shelf.empty ? null : shelf.dayBounds(day),
    );
  }

  /** One page of the marks dated `from`..`to`, in NSR order, after NSR `afterNsr`. */
  marksInDates(
    from: string,
    to: string,
    afterNsr = 0,
    limit = 1_000,
    bounds = this.dateBounds(from, to),
  ): StoredMark[] {
    if (bounds === null) return [];
    const after = Math.max(afterNsr, bounds.lo - 1);
    return this.withArchived(from, to, after, bounds.hi, limit, null, (a, n) =>
      marks(this.stmts.inDates.all({ after: a, hi: bounds.hi, from, to, limit: n }) as unknown[]),
    );
  }

  /** Archived marks first (their NSRs are all below the database's), then the database's after the watermark. */
  private withArchived(
    from: string,
    to: string,
    after: number,
    hi: number,
    limit: number,
    chain: string | null,
    fromDb: (after: number, n: number) => StoredMark[],
  ): StoredMark[] {
    const shelf = this.shelf();
    const archived =
      after < shelf.archivedNsr
        ? shelf.marksInDates(from, to, after, Math.min(hi, shelf.archivedNsr), limit, chain)
        : [];
    if (archived.length >= limit) return archived;
    return [...archived, ...fromDb(Math.max(after, shelf.archivedNsr), limit - archived.length)];
  }

  /** One page of one employer chain's marks dated `from`..`to` (the AFD of that employer). */
  chainMarksInDates(
    chain: string,
    from: string,
    to: string,
    afterNsr: number,
    limit: number,
    bounds: { lo: number; hi: number } | null,
  ): StoredMark[] {
    if (bounds === null) return [];
    const after = Math.max(afterNsr, bounds.lo - 1);
    return this.withArchived(from, to, after, bounds.hi, limit, chain, (a, n) =>
      marks(this.stmts.inDatesOfChain.all({ after: a, hi: bounds.hi, from, to, chain, limit: n }) as unknown[]),
    );
  }

  /** The employer chains with marks dated `from`..`to`, sorted ('' first: the configured employer's). */
  chainsInDates(from: string, to: string, bounds: { lo: number; hi: number } | null): string[] {
    if (bounds === null) return [];
    const shelf = this.shelf();
    const here = (this.stmts.chainsIn.all({ ...bounds, from, to }) as { chain: string }[]).map((r) => r.chain);
    return [...new Set([...here, ...(shelf.empty ? [] : shelf.chainsInDates(from, to))])].sort();
  }

  /** Every mark dated `from`..`to` in NSR order, a page at a time (the export streams them). */
  *iterateMarksInDates(from: string, to: string, pageSize = 1_000): Generator<StoredMark> {
    const bounds = this.dateBounds(from, to);
    for (let after = 0; ;) {
      const page = this.marksInDates(from, to, after, pageSize, bounds);
      yield* page;
      if (page.length < pageSize) return;
      after = (page[page.length - 1] as StoredMark).nsr;
    }
  }

  /**
   * The AFD type 4 records ("ajuste do relógio") of NSRs `lo`..`hi`, and those right after `hi`
   * before the next mark (an adjustment follows the marks it corrects), in NSR order.
   */
  clockRecords(lo: number, hi: number): { nsr: number; line: string }[] {
    const shelf = this.shelf();
    const next =
      (hi < shelf.archivedNsr ? shelf.nextMark(hi) : null) ??
      (this.stmts.nextMark.get(Math.max(hi, shelf.archivedNsr)) as { nsr: number | null }).nsr;
    const to = next === null ? Number.MAX_SAFE_INTEGER : next - 1;
    const archived = shelf.empty || lo > shelf.archivedNsr ? [] : shelf.factsAbout(lo, to, 'clock_adjusted');
    const rows = [
      ...archived,
      ...(this.stmts.clockRecords.all(lo, to) as { seq: number; nsr: number; detail: string }[]).filter(
        (r) => r.seq > shelf.archivedSeq,
      ),
    ];
    return rows
      .sort((a, b) => a.nsr - b.nsr)
      .map((r) => ({ nsr: r.nsr, line: clockAdjustedLine(r.detail) }))
      .filter((r): r is { nsr: number; line: string } => r.line !== null);
  }

  factsOf(nsr: number): StoredFact[] {
    const shelf = this.shelf();
    const here = (this.stmts.factsOf.all(nsr) as unknown[])
      .map(parseFactRow)
      .filter((f): f is StoredFact => f !== null && f.seq > shelf.archivedSeq);
    return nsr > shelf.archivedNsr || shelf.empty ? here : [...shelf.factsAbout(nsr, nsr, null), ...here];
  }

  /** The last mark of an employer's chain ('' the configured employer's) and the journal's id: the chain's head now. */
  chainHead(chain: string): { journalId: string; nsr: number; hash: string } | null {
    const r = this.stmts.chainHead.get(chain) as { nsr: unknown; line: unknown; journal_id: unknown } | undefined;
    if (!r || typeof r.nsr !== 'number' || typeof r.line !== 'string' || typeof r.journal_id !== 'string') return null;
    return { journalId: r.journal_id, nsr: r.nsr, hash: r.line.slice(MARK_BODY_LENGTH) };
  }
}
