import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { markBody } from '../../src/domain/afd/mark.js';
import { factHash } from '../../src/domain/punch/journal-fact.js';
import { DB_FILE_NAME, openDatabase } from '../../src/store/database.js';
import { COMPACT_BATCH } from '../../src/store/journal-compact.js';
import { sha256Latin1, sha256Utf8 } from '../../src/store/journal/journal-facts.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { migrations } from '../../src/store/migrations.js';
import { dropJournalTriggers, journalRig, punchRange } from '../helpers/journal.js';

const rig = journalRig();
afterEach(() => rig.cleanup());

const MARKS = COMPACT_BATCH + 1_200; // more than one batch
const at = (i: number) =>
  `2026-03-${String(2 + Math.floor(i / 2_000)).padStart(2, '0')}T${String(8 + Math.floor((i % 2_000) / 600)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00-0300`;

/**
 * A journal as version 13 wrote it: the type 7 line stored whole, the fact hashes as hex. Among the
 * lines, ones migration 14's columns rebuild only verbatim: a hash in uppercase (other systems write
 * it so; the chain accepts either case) and a '-0000' offset; and ones it rebuilds from fields of
 * their own: an off-line mark recorded later in another offset, a mark without a CPF.
 */
function version13(dir: string): { lines: string[]; hashes: string[] } {
  const db = new Database(path.join(dir, DB_FILE_NAME));
  for (const m of migrations.slice(0, 13)) db.exec(m);
  db.pragma('user_version = 13');
  const lines: string[] = [];
  const insertMark = db.prepare(
    'INSERT INTO journal_marks (nsr, line, punch_id, unresolved_id, local_date, written_at, chain) VALUES (?, ?, ?, NULL, ?, ?, ?)',
  );
  let prev = '';
  db.transaction(() => {
    for (let nsr = 1; nsr <= MARKS; nsr++) {
      const markedAt = nsr === 7 ? at(nsr).replace('-0300', '-0000') : at(nsr);
      const recordedAt = nsr === 9 ? '2026-04-01T10:15:00-0200' : markedAt;
      const body = markBody({
        nsr,
        markedAt,
        cpf: nsr === 11 ? null : String(10_000_000_000 + nsr * 7_919),
        recordedAt,
        collector: '04',
        online: nsr !== 9,
      });
      const hash = sha256Latin1(body + prev);
      const line = body + (nsr === 5 ? hash.toUpperCase() : hash);
      prev = line.slice(73);
      lines.push(line);
      insertMark.run(nsr, line, nsr, markedAt.slice(0, 10), Date.parse('2026-03-02T11:00:00Z') + nsr, '');
    }
  })();
  const hashes: string[] = [];
  const insertFact = db.prepare(
    'INSERT INTO journal_facts (seq, nsr, at, event, detail, hash) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let prevFact = '';
  db.transaction(() => {
    for (let seq = 1; seq <= MARKS; seq++) {
      const fact = {
        seq,
        nsr: seq,
        at: Date.parse('2026-03-02T11:00:00Z') + seq * 1_000,
        event: 'delivered' as const,
        detail: `remote-${seq}`,
      };
      prevFact = factHash(fact, prevFact, sha256Utf8);
      hashes.push(prevFact);
      insertFact.run(seq, fact.nsr, fact.at, fact.event, fact.detail, prevFact);
    }
  })();
  db.close();
  return { lines, hashes };
}

describe('migration 14: journal rows without the line beside its fields', () => {
  it('gives every line and fact hash of a version 13 journal back byte for byte, in batches, and the chain still verifies', async () => {
    const d = rig.dir();
    const before = version13(d);
    const sizeBefore = fs.statSync(path.join(d, DB_FILE_NAME)).size;

    const db = openDatabase(d);
    rig.defer(() => db.open && db.close());
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'journal_%_v13'").all() as unknown[]
    ).length;
    expect(tables).toBe(0);
    const lines = (db.prepare('SELECT line FROM journal_marks ORDER BY nsr').all() as { line: string }[]).map(
      (r) => r.line,
    );
    expect(lines).toEqual(before.lines);
    expect(
      (db.prepare('SELECT hash FROM journal_facts ORDER BY seq').all() as { hash: string }[]).map((r) => r.hash),
    ).toEqual(before.hashes);
    // Only the two lines the columns cannot give back are kept whole; the off-line one and the one without a CPF are
    // fields.
    expect(db.prepare('SELECT nsr FROM journal_marks WHERE verbatim IS NOT NULL ORDER BY nsr').all()).toEqual([
      { nsr: 5 },
      { nsr: 7 },
    ]);
    expect(db.prepare('SELECT local_date FROM journal_marks WHERE nsr = 2001').get()).toEqual({
      local_date: '2026-03-03',
    });
    expect(await verifyJournal(db)).toMatchObject({ ok: true, marks: MARKS, facts: MARKS });
    // Migration 18 ran before the rows were converted: its chain tails follow them as they are copied.
    expect(db.prepare('SELECT chain, nsr FROM journal_chain_tails').all()).toEqual([{ chain: '', nsr: MARKS }]);

    // The rows are smaller: the same journal in fewer pages once the old tables' pages are given back (0.62 of the size
    // measured).
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(fs.statSync(path.join(d, DB_FILE_NAME)).size).toBeLessThan(sizeBefore * 0.7);
  });

  it('an edited column is a changed mark: verification names it', async () => {
    for (const edit of [
      'UPDATE journal_marks SET marked = marked + 1 WHERE nsr = 3',
      'UPDATE journal_marks SET cpf = cpf + 1 WHERE nsr = 3',
      "UPDATE journal_marks SET tail = '041' WHERE nsr = 3",
    ]) {
      const j = rig.open(rig.dir());
      punchRange(j.outbox, 0, 5);
      expect((await verifyJournal(j.db)).ok).toBe(true);
      dropJournalTriggers(j.db);
      j.db.prepare(edit).run();
      expect((await verifyJournal(j.db)).firstProblem).toMatchObject({
        nsr: 3,
        message: expect.stringMatching(/hash does not match/),
      });
    }
  });
});
