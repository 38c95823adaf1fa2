import path from 'node:path';
import type { ArchivedFact, ArchivedMark, ArchiveSeal, ChainPoint } from '../../domain/punch/journal-archive-format.js';
import type { Db, WritableDb } from '../database.js';
import { JournalFacts, parseFactRow } from './journal-facts.js';
import { parseMarkRow } from './mark-row.js';
import { cachedStatement } from '../statement-cache.js';

/**
 * The database's side of the journal's archives (docs/evidence-journal.md, "Archives"): which
 * rows are due, the commit that makes an archive the place of its rows, the deletion of those rows
 * afterwards in small batches, and the removal of archives past journal.keepYears. The files
 * themselves are written by agent/journal/journal-archiver.ts and read by store/journal/journal-archive-read.ts.
 *
 * Crash safety: the files are written (temp, fsync, rename) before `commit()`; a file without its
 * row is ignored by readers and written again by the next pass. `commit()` moves the watermark
 * (journal_meta.archived_nsr / archived_seq) in one transaction with the archive's row: from then
 * on readers take those rows from the archive, so the rows still in the database are leftovers
 * that `deleteArchived()` removes a batch at a time, never read twice, never lost.
 */

export const ARCHIVE_DIR_NAME = 'journal-archive';
export const FACT_CHAIN = '#facts';

/** The archive directory beside a database file; null for an in-memory database. */
export function archiveDirOf(dbFile: string): string | null {
  return dbFile === '' || dbFile === ':memory:' ? null : path.join(path.dirname(dbFile), ARCHIVE_DIR_NAME);
}

export type ArchiveRow = {
  name: string;
  firstNsr: number;
  lastNsr: number;
  firstSeq: number;
  lastSeq: number;
  seal: string;
  signed: boolean;
  createdAt: number;
  removedAt: number | null;
};

type RawArchiveRow = {
  name: string;
  first_nsr: number;
  last_nsr: number;
  first_seq: number;
  last_seq: number;
  seal: string;
  signed: number;
  created_at: number;
  removed_at: number | null;
};
const archiveRow = (r: RawArchiveRow): ArchiveRow => ({
  name: r.name,
  firstNsr: r.first_nsr,
  lastNsr: r.last_nsr,
  firstSeq: r.first_seq,
  lastSeq: r.last_seq,
  seal: r.seal,
  signed: r.signed === 1,
  createdAt: r.created_at,
  removedAt: r.removed_at,
});

/** Every archive row in NSR order (removed ones too); [] for a database from before migration 13. */
export function archiveRows(db: Db): ArchiveRow[] {
  try {
    return (db.prepare('SELECT * FROM journal_archives ORDER BY first_nsr').all() as RawArchiveRow[]).map(archiveRow);
  } catch (e) {
    if (/no such table/.test((e as Error).message)) return [];
    throw e;
  }
}

/** Marks through `nsr` and facts through `seq` are in archives (0, 0: none); null before migration 13. */
export function archivedThrough(db: Db): { nsr: number; seq: number } | null {
  try {
    const r = cachedStatement(
      db,
      'SELECT archived_nsr AS nsr, archived_seq AS seq FROM journal_meta WHERE one = 1',
    ).get() as { nsr: number; seq: number } | undefined;
    return r ?? null;
  } catch (e) {
    if (/no such column|no such table/.test((e as Error).message)) return null;
    throw e;
  }
}

/** Each chain's last archived hash ('#facts': the facts'), for a chain whose every row was archived. */
export function archivedHeads(db: Db): Map<string, ChainPoint> {
  try {
    return new Map(
      (
        db.prepare('SELECT chain, num, hash FROM journal_archive_heads').all() as {
          chain: string;
          num: number;
          hash: string;
        }[]
      ).map((r) => [r.chain, { num: r.num, hash: r.hash }]),
    );
  } catch (e) {
    if (/no such table/.test((e as Error).message)) return new Map();
    throw e;
  }
}

export class ArchiveStore {
  private readonly stmts;
  readonly facts: JournalFacts;

  constructor(private readonly db: WritableDb) {
    this.facts = new JournalFacts(db);
    this.stmts = {
      meta: db.prepare('SELECT journal_id, archived_nsr, archived_seq FROM journal_meta WHERE one = 1'),
      marksAfter: db.prepare('SELECT * FROM journal_marks WHERE nsr > ? ORDER BY nsr LIMIT ?'),
      factsAfter: db.prepare('SELECT * FROM journal_facts WHERE seq > ? ORDER BY seq LIMIT ?'),
      insert: db.prepare(
        'INSERT INTO journal_archives (name, first_nsr, last_nsr, first_seq, last_seq, seal, signed, created_at) VALUES (@name, @firstNsr, @lastNsr, @firstSeq, @lastSeq, @seal, @signed, @createdAt)',
      ),
      head: db.prepare(
        'INSERT INTO journal_archive_heads (chain, num, hash) VALUES (?, ?, ?) ON CONFLICT (chain) DO UPDATE SET num = excluded.num, hash = excluded.hash',
      ),
      watermark: db.prepare(
        'UPDATE journal_meta SET archived_nsr = @nsr, archived_seq = @seq, nsr_floor = MAX(nsr_floor, @nsr + 1) WHERE one = 1',
      ),
      deleteMarks: db.prepare(
        'DELETE FROM journal_marks WHERE nsr IN (SELECT nsr FROM journal_marks WHERE nsr <= (SELECT archived_nsr FROM journal_meta WHERE one = 1) ORDER BY nsr LIMIT ?)',
      ),
      deleteFacts: db.prepare(
        'DELETE FROM journal_facts WHERE seq IN (SELECT seq FROM journal_facts WHERE seq <= (SELECT archived_seq FROM journal_meta WHERE one = 1) ORDER BY seq LIMIT ?)',
      ),
      removed: db.prepare('UPDATE journal_archives SET removed_at = ? WHERE name = ? AND removed_at IS NULL'),
    };
  }

  state(): { journalId: string; archivedNsr: number; archivedSeq: number } {
    const r = this.stmts.meta.get() as { journal_id: string; archived_nsr: number; archived_seq: number };
    return { journalId: r.journal_id, archivedNsr: r.archived_nsr, archivedSeq: r.archived_seq };
  }

  /** The marks after NSR `after` in NSR order, at most `limit` (one step of the archiver's read). */
  marksAfter(after: number, limit: number): ArchivedMark[] {
    return (this.stmts.marksAfter.all(after, limit) as unknown[])
      .map(parseMarkRow)
      .filter((m): m is ArchivedMark => m !== null);
  }

  factsAfter(after: number, limit: number): ArchivedFact[] {
    return (this.stmts.factsAfter.all(after, limit) as unknown[])
      .map(parseFactRow)
      .filter((f): f is ArchivedFact => f !== null);
  }

  heads(): Map<string, ChainPoint> {
    return archivedHeads(this.db);
  }

  /**
   * The archive's files are on the disk: its row, the chains' heads and the watermark, in one
   * transaction. False (nothing changed) when another pass moved the watermark meanwhile.
   */
  commit(seal: ArchiveSeal, sealText: string, signed: boolean, at: number): boolean {
    return this.db
      .transaction(() => {
        const s = this.state();
        if (s.archivedNsr !== seal.marks.first - 1 || (seal.facts.count > 0 && s.archivedSeq !== seal.facts.first - 1))
          return false;
        this.stmts.insert.run({
          name: seal.name,
          firstNsr: seal.marks.first,
          lastNsr: seal.marks.last,
          firstSeq: seal.facts.first,
          lastSeq: seal.facts.last,
          seal: sealText,
          signed: signed ? 1 : 0,
          createdAt: at,
        });
        for (const [chain, c] of Object.entries(seal.chains)) this.stmts.head.run(chain, c.after.num, c.after.hash);
        if (seal.factChain.after) this.stmts.head.run(FACT_CHAIN, seal.factChain.after.num, seal.factChain.after.hash);
        this.stmts.watermark.run({ nsr: seal.marks.last, seq: seal.facts.count > 0 ? seal.facts.last : s.archivedSeq });
        return true;
      })
      .immediate();
  }

  /** Up to `limit` archived marks and `limit` archived facts leave the database, in one transaction; how many went. */
  deleteArchived(limit: number): number {
    return this.db
      .transaction(() => this.stmts.deleteMarks.run(limit).changes + this.stmts.deleteFacts.run(limit).changes)
      .immediate();
  }

  /** The archive's row says it was let go, and a fact says so in the facts' chain: one transaction. */
  markRemoved(row: ArchiveRow, at: number, why: string): void {
    this.db
      .transaction(() => {
        if (this.stmts.removed.run(at, row.name).changes === 0) return;
        const facts = row.lastSeq >= row.firstSeq ? `, facts ${row.firstSeq}-${row.lastSeq}` : '';
        this.facts.append(
          row.firstNsr,
          at,
          'archive_removed',
          `${row.name}: NSR ${row.firstNsr}-${row.lastNsr}${facts}; ${why}`,
        );
      })
      .immediate();
  }
}
