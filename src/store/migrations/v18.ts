/**
 * Migration 18 (issue 26 item 9): the journal's indexes cost only what a reader asks of them.
 *
 * - `journal_marks_by_punch` goes: a punch's mark is found through its row's NSR (punches.nsr, indexed
 *   by punches_by_nsr); a punch retention pruned is looked up in NSR order without it (a rare read:
 *   the mark outlives its row by at most the archive horizon).
 * - `journal_marks_by_chain` (one entry per mark, chain '' for nearly all) goes: the one question a
 *   chain is asked on every seal, its last mark, is answered by `journal_chain_tails` (one row per
 *   employer chain, kept by a trigger in the insert's own transaction).
 * - `journal_marks_by_date` over the TEXT `local_date` becomes `journal_marks_by_day` over the INTEGER
 *   day number `marked / 1440` (days since 1970 of the mark's local date: the same day `local_date`
 *   names, in two or three bytes instead of eleven). Readers ask by day number.
 *
 * Nothing is deleted or rewritten: marks, facts, hashes and punches are as they were.
 */
export const migration18 = `
  CREATE TABLE journal_chain_tails (
    chain  TEXT PRIMARY KEY,                 -- journal_marks.chain
    nsr    INTEGER NOT NULL                  -- its last mark (may be archived since: then the archive's head)
  ) WITHOUT ROWID;
  INSERT INTO journal_chain_tails (chain, nsr) SELECT chain, MAX(nsr) FROM journal_marks GROUP BY chain;
  CREATE TRIGGER journal_chain_tail AFTER INSERT ON journal_marks BEGIN
    INSERT INTO journal_chain_tails (chain, nsr) VALUES (NEW.chain, NEW.nsr)
      ON CONFLICT (chain) DO UPDATE SET nsr = max(nsr, excluded.nsr);
  END;
  DROP INDEX journal_marks_by_chain;
  DROP INDEX journal_marks_by_punch;
  DROP INDEX journal_marks_by_date;
  CREATE INDEX journal_marks_by_day ON journal_marks (marked / 1440);
  `;
