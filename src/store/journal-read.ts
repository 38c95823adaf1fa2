import type { Db } from './database.js';
import { clockAdjustedLine } from '../domain/journal-fact.js';
import { parseFactRow, type StoredFact } from './journal-facts.js';

/** A mark as stored: the AFD type 7 line exactly as written, and what it belongs to. */
export type StoredMark = {
  nsr: number;
  line: string;
  /** The punch it was captured as (null for an unresolved capture: see its 'resolved' fact). */
  punchId: number | null;
  unresolvedId: number | null;
  localDate: string;
  writtenAt: number;
  /** The employer chain it was sealed in (store/employers.ts): '' the configured employer's. */
  chain: string;
};

export function parseMarkRow(raw: unknown): StoredMark | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const int = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  const intOrNull = (x: unknown): x is number | null => x === null || int(x);
  const { nsr, line, punch_id, unresolved_id, local_date, written_at } = r;
  if (!int(nsr) || typeof line !== 'string' || !intOrNull(punch_id) || !intOrNull(unresolved_id) || typeof local_date !== 'string' || !int(written_at)) return null;
  return { nsr, line, punchId: punch_id, unresolvedId: unresolved_id, localDate: local_date, writtenAt: written_at, chain: typeof r['chain'] === 'string' ? r['chain'] : '' };
}

/**
 * The journal's id and the NSR its next mark takes, for status: one statement, the same cost at any
 * size. Null for a database the journal does not exist in yet (read-only, before migration 11).
 */
export function journalState(db: Db): { journalId: string; nextNsr: number } | null {
  let row: unknown;
  try {
    row = db
      .prepare('SELECT journal_id, MAX(nsr_floor, COALESCE((SELECT MAX(nsr) FROM journal_marks), 0) + 1) AS next FROM journal_meta WHERE one = 1')
      .get();
  } catch (e) {
    if (/no such table/.test((e as Error).message)) return null;
    throw e;
  }
  const r = row as { journal_id?: unknown; next?: unknown } | undefined;
  return typeof r?.journal_id === 'string' && typeof r.next === 'number' ? { journalId: r.journal_id, nextNsr: r.next } : null;
}

const marks = (rows: unknown[]): StoredMark[] => rows.map(parseMarkRow).filter((m): m is StoredMark => m !== null);

/**
 * What the receipt and the AFD export read from the journal. Read-only; any connection. Marks are
 * never deleted, so these answer for punches retention has long let go.
 */
export class JournalReader {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      byNsr: db.prepare('SELECT * FROM journal_marks WHERE nsr = ?'),
      // The punch row's NSR (also a resolved capture's); once retention pruned it, the mark's own link.
      ofPunch: db.prepare('SELECT m.* FROM punches p JOIN journal_marks m ON m.nsr = p.nsr WHERE p.id = ?'),
      ofPrunedPunch: db.prepare('SELECT * FROM journal_marks INDEXED BY journal_marks_by_punch WHERE punch_id = ? ORDER BY nsr LIMIT 1'),
      // Two single-aggregate subqueries: each is one seek in the date index, whatever the day holds.
      dayBounds: db.prepare(
        'SELECT (SELECT MIN(nsr) FROM journal_marks INDEXED BY journal_marks_by_date WHERE local_date = @day) AS lo, (SELECT MAX(nsr) FROM journal_marks INDEXED BY journal_marks_by_date WHERE local_date = @day) AS hi',
      ),
      dateBounds: db.prepare(
        'SELECT MIN(nsr) AS lo, MAX(nsr) AS hi FROM journal_marks INDEXED BY journal_marks_by_date WHERE local_date >= ? AND local_date <= ?',
      ),
      // By NSR between the bounds, the date checked per row (+: not by the date index, which would sort every page).
      inDates: db.prepare(
        'SELECT * FROM journal_marks WHERE nsr > @after AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to ORDER BY nsr LIMIT @limit',
      ),
      inDatesOfChain: db.prepare(
        'SELECT * FROM journal_marks WHERE nsr > @after AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to AND +chain = @chain ORDER BY nsr LIMIT @limit',
      ),
      chainsIn: db.prepare('SELECT DISTINCT chain FROM journal_marks WHERE nsr >= @lo AND nsr <= @hi AND +local_date >= @from AND +local_date <= @to'),
      factsOf: db.prepare('SELECT * FROM journal_facts INDEXED BY journal_facts_by_nsr WHERE nsr = ? ORDER BY seq'),
      clockRecords: db.prepare(
        "SELECT nsr, detail FROM journal_facts INDEXED BY journal_facts_by_nsr WHERE nsr >= ? AND nsr <= ? AND event = 'clock_adjusted' ORDER BY nsr",
      ),
      nextMark: db.prepare('SELECT MIN(nsr) AS nsr FROM journal_marks WHERE nsr > ?'),
    };
  }

  mark(nsr: number): StoredMark | null {
    return parseMarkRow(this.stmts.byNsr.get(nsr));
  }

  markOfPunch(punchId: number): StoredMark | null {
    return parseMarkRow(this.stmts.ofPunch.get(punchId)) ?? parseMarkRow(this.stmts.ofPrunedPunch.get(punchId));
  }

  /** The NSRs of the first and last marks dated `from`..`to` (YYYY-MM-DD, inclusive), or null when none is. */
  dateBounds(from: string, to: string): { lo: number; hi: number } | null {
    const r = this.stmts.dateBounds.get(from, to) as { lo: number | null; hi: number | null };
    return r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi };
  }

  /**
   * The NSRs of the first and last marks of one day, or null when it has none. A long range's bounds
   * a day at a time cost a seek per day, where dateBounds walks every mark of the range at once.
   */
  dayBounds(day: string): { lo: number; hi: number } | null {
    const r = this.stmts.dayBounds.get({ day }) as { lo: number | null; hi: number | null };
    return r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi };
  }

  /** One page of the marks dated `from`..`to`, in NSR order, after NSR `afterNsr`. */
  marksInDates(from: string, to: string, afterNsr = 0, limit = 1_000, bounds = this.dateBounds(from, to)): StoredMark[] {
    if (bounds === null) return [];
    const after = Math.max(afterNsr, bounds.lo - 1);
    return marks(this.stmts.inDates.all({ after, hi: bounds.hi, from, to, limit }) as unknown[]);
  }

  /** One page of one employer chain's marks dated `from`..`to` (the AFD of that employer). */
  chainMarksInDates(chain: string, from: string, to: string, afterNsr: number, limit: number, bounds: { lo: number; hi: number } | null): StoredMark[] {
    if (bounds === null) return [];
    const after = Math.max(afterNsr, bounds.lo - 1);
    return marks(this.stmts.inDatesOfChain.all({ after, hi: bounds.hi, from, to, chain, limit }) as unknown[]);
  }

  /** The employer chains with marks dated `from`..`to`, sorted ('' first: the configured employer's). */
  chainsInDates(from: string, to: string, bounds: { lo: number; hi: number } | null): string[] {
    if (bounds === null) return [];
    return (this.stmts.chainsIn.all({ ...bounds, from, to }) as { chain: string }[]).map((r) => r.chain).sort();
  }

  /** Every mark dated `from`..`to` in NSR order, a page at a time (the export streams them). */
  *iterateMarksInDates(from: string, to: string, pageSize = 1_000): Generator<StoredMark> {
    const bounds = this.dateBounds(from, to);
    for (let after = 0; ; ) {
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
    const next = (this.stmts.nextMark.get(hi) as { nsr: number | null }).nsr;
    const rows = this.stmts.clockRecords.all(lo, next === null ? Number.MAX_SAFE_INTEGER : next - 1) as { nsr: number; detail: string }[];
    return rows.map((r) => ({ nsr: r.nsr, line: clockAdjustedLine(r.detail) })).filter((r): r is { nsr: number; line: string } => r.line !== null);
  }

  factsOf(nsr: number): StoredFact[] {
    return (this.stmts.factsOf.all(nsr) as unknown[]).map(parseFactRow).filter((f): f is StoredFact => f !== null);
  }
}
