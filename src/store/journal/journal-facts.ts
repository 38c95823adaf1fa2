import { createHash } from 'node:crypto';
import { factDetail, factHash, isFactEvent, type FactEvent } from '../../domain/punch/journal-fact.js';
import type { WritableDb } from '../database.js';
import { factHashColumns } from '../mark-columns.js';

/** SHA-256 of a fact's line (UTF-8) and the previous hash: domain/punch/journal-fact.ts defines the line. */
export const sha256Utf8 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
/** SHA-256 of an AFD record's ISO 8859-1 bytes (domain/afd/mark.ts Sha256Hex). */
export const sha256Latin1 = (text: string): string => createHash('sha256').update(text, 'latin1').digest('hex');

export type StoredFact = { seq: number; nsr: number; at: number; event: FactEvent; detail: string; hash: string };

/** A fact row read back, checked field by field (a row that is not one is evidence of damage, not a crash). */
export function parseFactRow(raw: unknown): StoredFact | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const int = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
  const { seq, nsr, at, event, detail, hash } = r;
  if (
    !int(seq) ||
    !int(nsr) ||
    !int(at) ||
    typeof event !== 'string' ||
    !isFactEvent(event) ||
    typeof detail !== 'string' ||
    typeof hash !== 'string'
  )
    return null;
  return { seq, nsr, at, event, detail, hash };
}

/**
 * The journal's facts on one connection (the durable one and the bookkeeping one each have theirs).
 * `append` must run inside the caller's write transaction: the previous fact is read there, never
 * remembered between transactions (two connections append to the same chain).
 */
export class JournalFacts {
  private readonly stmts;

  constructor(db: WritableDb) {
    this.stmts = {
      last: db.prepare('SELECT seq, hash FROM journal_facts ORDER BY seq DESC LIMIT 1'),
      // Every fact archived (store/journal/journal-archive.ts): the chain goes on from the last archived one.
      archivedLast: db.prepare("SELECT num AS seq, hash FROM journal_archive_heads WHERE chain = '#facts'"),
      insert: db.prepare(
        'INSERT INTO journal_facts (seq, nsr, at, event, detail, hash_bin, hash_verbatim) VALUES (@seq, @nsr, @at, @event, @detail, @hash_bin, @hash_verbatim)',
      ),
      punchNsr: db.prepare('SELECT nsr FROM punches WHERE id = ?'),
      lastOfPunch: db.prepare(
        'SELECT f.event, f.detail FROM punches p JOIN journal_facts f INDEXED BY journal_facts_by_nsr ON f.nsr = p.nsr WHERE p.id = ? ORDER BY f.seq DESC LIMIT 1',
      ),
    };
  }

  append(nsr: number, at: number, event: FactEvent, detail: string | null): StoredFact {
    const last = (this.stmts.last.get() ?? this.stmts.archivedLast.get()) as { seq: number; hash: string } | undefined;
    const fact = { seq: (last?.seq ?? 0) + 1, nsr, at, event, detail: factDetail(detail) };
    const hash = factHash(fact, last?.hash ?? '', sha256Utf8);
    this.stmts.insert.run({ ...fact, ...factHashColumns(hash) });
    return { ...fact, hash };
  }

  /** A fact about punch `punchId`, by its NSR; false when it has none (not journalled: nothing to attach it to). */
  forPunch(punchId: number, at: number, event: FactEvent, detail: string | null): boolean {
    const row = this.stmts.punchNsr.get(punchId) as { nsr: number | null } | undefined;
    if (typeof row?.nsr !== 'number') return false;
    this.append(row.nsr, at, event, detail);
    return true;
  }

  /** "<event> <detail>" of the latest fact about punch `punchId`, or null. */
  lastOfPunch(punchId: number): string | null {
    const r = this.stmts.lastOfPunch.get(punchId) as { event: string; detail: string } | undefined;
    return r ? `${r.event} ${r.detail}` : null;
  }
}
