/**
 * The checks of one journal row as verification walks them (journal-verify.ts): a mark against the
 * NSR before it and its employer chain's hash, a fact against the fact before it, a punch's NSR
 * against its mark. Pure: the row and what came before in, the problem (or null) out.
 */
import { markHashMatches, parseMark } from '../../domain/afd/mark.js';
import { factHash, isFactEvent, JOURNAL_EVENTS, type FactEvent } from '../../domain/punch/journal-fact.js';
import { sha256Latin1, sha256Utf8 } from './journal-facts.js';

export type JournalProblem = { nsr?: number; seq?: number; message: string };

export type MarkRow = { nsr: number; line: unknown; chain: unknown };
export type FactRow = {
  seq: number;
  nsr: number;
  at: number;
  event: unknown;
  detail: unknown;
  hash: unknown;
  has_mark: number;
};
export type PunchRef = { id: number; nsr: number | null; mark: number | null; owner: number | null };

export function checkMark(
  r: MarkRow,
  prev: { nsr: number } | null,
  prevInChain: { nsr: number; hash: string } | null,
  gaps: ReadonlyMap<number, number>,
): JournalProblem | null {
  const nsr = r.nsr;
  if (typeof r.line !== 'string') return { nsr, message: `NSR ${nsr}: the record is not text` };
  const parsed = parseMark(r.line);
  if (!parsed.ok) return { nsr, message: `NSR ${nsr}: not a type 7 record (${parsed.problem})` };
  if (parsed.mark.nsr !== nsr)
    return { nsr, message: `NSR ${nsr}: the record says NSR ${parsed.mark.nsr} (records moved or swapped)` };
  const expected = (prev?.nsr ?? 0) + 1;
  // NSRs a restore skipped and those of type 4 records (kept as facts) follow each other.
  let next = expected;
  for (let to = gaps.get(next); to !== undefined && next < nsr; to = gaps.get(next)) next = to + 1;
  if (nsr !== next)
    return {
      nsr,
      message: `NSRs ${expected}-${nsr - 1} are missing before NSR ${nsr} (deleted?), and no restore explains them`,
    };
  // The hash chains within the mark's employer chain; NSR continuity is across all of them.
  if (!markHashMatches(r.line, prevInChain?.hash ?? '', sha256Latin1)) {
    return {
      nsr,
      message: `NSR ${nsr}: hash does not match (this record, or the hash of NSR ${prevInChain?.nsr ?? '-'} before it, was changed)`,
    };
  }
  return null;
}

export function checkFact(r: FactRow, prevSeq: number, prevHash: string): JournalProblem | null {
  const seq = r.seq;
  if (seq !== prevSeq + 1)
    return { seq, message: `facts ${prevSeq + 1}-${seq - 1} are missing before fact ${seq} (deleted?)` };
  if (
    typeof r.event !== 'string' ||
    !isFactEvent(r.event) ||
    typeof r.detail !== 'string' ||
    typeof r.hash !== 'string'
  ) {
    return { seq, nsr: r.nsr, message: `fact ${seq}: not a fact of this journal` };
  }
  const event: FactEvent = r.event;
  if (factHash({ seq, nsr: r.nsr, at: r.at, event, detail: r.detail }, prevHash, sha256Utf8) !== r.hash) {
    return {
      seq,
      nsr: r.nsr,
      message: `fact ${seq}: hash does not match (this fact, or the hash of the one before it, was changed)`,
    };
  }
  if (!r.has_mark && !JOURNAL_EVENTS.includes(event))
    return { seq, nsr: r.nsr, message: `fact ${seq} is about NSR ${r.nsr}, which has no mark` };
  return null;
}

export function checkRef(r: PunchRef, what: string): JournalProblem | null {
  if (r.nsr === null) return { message: `${what} ${r.id} has no NSR (not in the journal)` };
  if (r.mark === null) return { nsr: r.nsr, message: `${what} ${r.id} has NSR ${r.nsr}, which has no mark (deleted?)` };
  // A resolved capture's mark names the unresolved row it was taken as, not the punch.
  if (r.owner !== null && r.owner !== r.id)
    return { nsr: r.nsr, message: `${what} ${r.id} has NSR ${r.nsr}, whose mark belongs to ${what} ${r.owner}` };
  return null;
}
