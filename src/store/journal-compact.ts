import type Database from 'better-sqlite3';
import { insertMarksSql } from './mark-columns.js';

/**
 * Migration 14's copy of version 13's journal rows into the compact tables (store/migrations/v14.ts),
 * in bounded batches, each its own transaction: a year of marks never needs one long transaction
 * nor a write-ahead log the size of the journal. Runs at every writable open until the old tables
 * are gone (a crash between batches resumes where it stopped: a batch moves its rows, it does not
 * copy them). Only writable opens run it, before anything else uses the connection.
 */

export const COMPACT_BATCH = 5_000;

/** Any writable connection (store/database.ts opens it; its type is not imported: database.ts imports this). */
type WritableDb = Database.Database;

const exists = (db: WritableDb, table: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;

/** Moves the old rows over; how many marks and facts moved (0, 0: nothing was left to move). */
export function compactJournal(db: WritableDb, batch = COMPACT_BATCH): { marks: number; facts: number } {
  let marks = 0;
  let facts = 0;
  if (exists(db, 'journal_marks_v13')) {
    const copy = db.prepare(insertMarksSql('(SELECT * FROM journal_marks_v13 ORDER BY nsr LIMIT @limit)'));
    const drop = db.prepare(
      'DELETE FROM journal_marks_v13 WHERE nsr IN (SELECT nsr FROM journal_marks_v13 ORDER BY nsr LIMIT @limit)',
    );
    const step = db.transaction(() => {
      const n = copy.run({ limit: batch }).changes;
      drop.run({ limit: batch });
      return n;
    });
    for (let n = step.immediate(); n > 0; n = step.immediate()) marks += n;
    db.exec('DROP TABLE journal_marks_v13');
  }
  if (exists(db, 'journal_facts_v13')) {
    // A hash of 64 lowercase hex digits becomes its 32 bytes; anything else is kept as written.
    const copy = db.prepare(`INSERT INTO journal_facts (seq, nsr, at, event, detail, hash_bin, hash_verbatim)
      SELECT seq, nsr, at, event, detail,
        CASE WHEN lower(hex(unhex(hash))) IS hash THEN unhex(hash) END,
        CASE WHEN lower(hex(unhex(hash))) IS hash THEN NULL ELSE hash END
      FROM (SELECT * FROM journal_facts_v13 ORDER BY seq LIMIT @limit)`);
    const drop = db.prepare(
      'DELETE FROM journal_facts_v13 WHERE seq IN (SELECT seq FROM journal_facts_v13 ORDER BY seq LIMIT @limit)',
    );
    const step = db.transaction(() => {
      const n = copy.run({ limit: batch }).changes;
      drop.run({ limit: batch });
      return n;
    });
    for (let n = step.immediate(); n > 0; n = step.immediate()) facts += n;
    db.exec('DROP TABLE journal_facts_v13');
  }
  return { marks, facts };
}
