/**
 * Migration 18 (issue 26 item 9): on a database version 17 built with punches in every state and marks
 * in two employer chains, the upgrade drops three journal indexes and loses nothing: every punch,
 * mark and fact as it was, each chain going on from its last mark, a punch's mark found (also once
 * retention pruned the punch), a day's marks by the new day index. The hot queries still run on
 * indexes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase, type Db, type DurableDb } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { JournalReader, dayNumber } from '../../src/store/journal/journal-read.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { migrations } from '../../src/store/migrations.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { PunchLists } from '../../src/store/punches/punch-lists.js';
import { DAY_MS, DEFAULT_RETENTION, compactDatabase } from '../../src/store/upkeep/retention.js';
import { BASE, journalPunch } from '../helpers/journal.js';
import { tempDir } from '../helpers/temp.js';

const undo: Array<() => void> = [];
afterEach(() => {
  while (undo.length) undo.pop()?.();
});
const dir = (): string => {
  const t = tempDir();
  undo.push(t.cleanup);
  return t.dir;
};

const HOUR = 3_600_000;
const NOW = BASE + 70 * DAY_MS;
const OTHER = 'cnpj:11444777000161';

type Snapshot = { punches: unknown[]; marks: unknown[]; facts: unknown[] };
const snapshot = (db: Db): Snapshot => ({
  punches: db.prepare('SELECT * FROM punches ORDER BY id').all(),
  marks: db
    .prepare('SELECT nsr, line, punch_id, unresolved_id, chain, local_date FROM journal_marks ORDER BY nsr')
    .all(),
  facts: db.prepare('SELECT seq, nsr, event, detail, hash FROM journal_facts ORDER BY seq').all(),
});

/**
 * Version 17 as a terminal in the field has it, written by the outbox: one punch in each state not delivered
 * (pending, sending, in doubt, rejected, held), three delivered (70, 30 and 2 days before NOW); the odd ones in
 * a second employer's chain; punches 8 and 9 a day later (two dates in the day index).
 */
function version17(d: string): Snapshot {
  // Written by version 18's migrations, then given back version 17's schema: the same file a version 17 terminal wrote.
  const raw = new Database(path.join(d, DB_FILE_NAME));
  raw.pragma('journal_mode = WAL');
  for (const m of migrations.slice(0, 18)) raw.exec(m);
  const db = raw as unknown as DurableDb;
  const journal = new EvidenceJournal(db);
  journal.open();
  const outbox = new Outbox(db, db, journal);
  const id = (i: number): number => {
    const r = outbox.insert({ ...journalPunch(i), chain: i % 2 ? OTHER : '' });
    if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
    return r.id;
  };
  const at = (i: number) => BASE + i * 60_000;
  id(0);
  outbox.markSending(id(1), at(1) + 1_000);
  const doubt = id(2);
  outbox.markSending(doubt, at(2) + 1_000);
  outbox.markInDoubt(doubt, at(2) + 2_000, at(2) + HOUR, 'timeout');
  const rejected = id(3);
  outbox.markSending(rejected, at(3) + 1_000);
  outbox.markRejected(rejected, at(3) + 2_000, '422 employee unknown');
  outbox.markHeld(id(4), at(4) + 1_000, 'forbidden', '403', at(4) + 6 * HOUR);
  for (const [i, sentAt] of [
    [5, at(5) + 2_000],
    [6, NOW - 30 * DAY_MS],
    [7, NOW - 2 * DAY_MS],
  ] as const) {
    const p = id(i);
    outbox.markSending(p, sentAt - 1_000);
    outbox.markSent(p, sentAt, `remote-${i}`, 'created');
  }
  for (const i of [8, 9]) {
    const p = journalPunch(i);
    const next = journalPunch(i, { capturedAt: p.capturedAt + DAY_MS });
    const r = outbox.insert({ ...next, ...localOf(next.capturedAt), chain: i % 2 ? OTHER : '' });
    if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
  }
  raw.exec(`
    DROP TRIGGER journal_chain_tail;
    DROP TABLE journal_chain_tails;
    DROP INDEX journal_marks_by_day;
    CREATE INDEX journal_marks_by_date ON journal_marks (local_date);
    CREATE INDEX journal_marks_by_punch ON journal_marks (punch_id) WHERE punch_id IS NOT NULL;
    CREATE INDEX journal_marks_by_chain ON journal_marks (chain);
  `);
  raw.pragma('user_version = 17');
  expect(schemaOf(raw)).toEqual(schemaOf(shipped17()));
  const before = snapshot(db);
  raw.close();
  return before;
}

type Raw = InstanceType<typeof Database>;
const schemaOf = (db: Raw): unknown[] =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
/** An empty file at version 17, by the shipped migrations. */
function shipped17(): Raw {
  const db = new Database(':memory:');
  undo.push(() => db.close());
  for (const m of migrations.slice(0, 17)) db.exec(m);
  return db;
}

/** Local date and time of an instant in the helpers' zone (BASE is 08:00 in São Paulo: the same date). */
function localOf(at: number): { localDate: string; localTime: string } {
  const d = new Date(at - 3 * HOUR);
  return { localDate: d.toISOString().slice(0, 10), localTime: d.toISOString().slice(11, 16) };
}

function plan(db: Db, stmt: Statement): string[] {
  const names = [...new Set([...stmt.source.matchAll(/@(\w+)/g)].map((m) => m[1] as string))];
  const positional = (stmt.source.match(/\?/g) ?? []).map(() => 0);
  const args: unknown[] = names.length ? [Object.fromEntries(names.map((n) => [n, 0]))] : positional;
  return (db.prepare(`EXPLAIN QUERY PLAN ${stmt.source}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

const indexesOf = (db: Db): string[] =>
  (
    db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'journal_marks' ORDER BY name")
      .all() as { name: string }[]
  ).map((r) => r.name);

describe('migration 18: the journal keeps only the indexes its readers ask of', () => {
  it('upgrades a version 17 database losing nothing; chains go on, marks are found by punch and by day', async () => {
    const d = dir();
    const before = version17(d);
    expect((before.punches as { state: string }[]).map((r) => r.state)).toEqual([
      'pending',
      'sending',
      'in_doubt',
      'rejected',
      'held',
      'sent',
      'sent',
      'sent',
      'pending',
      'pending',
    ]);

    const db = openDatabase(d);
    undo.push(() => db.close());
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(snapshot(db)).toEqual(before);
    expect(indexesOf(db)).toEqual(['journal_marks_by_day']);
    const marks = before.marks as { nsr: number; punch_id: number; chain: string; local_date: string }[];
    const lastOf = (chain: string) => Math.max(...marks.filter((m) => m.chain === chain).map((m) => m.nsr));
    expect(db.prepare('SELECT chain, nsr FROM journal_chain_tails ORDER BY chain').all()).toEqual([
      { chain: '', nsr: lastOf('') },
      { chain: OTHER, nsr: lastOf(OTHER) },
    ]);

    const reader = new JournalReader(db);
    for (const m of marks) expect(reader.markOfPunch(m.punch_id)?.nsr, `punch ${m.punch_id}`).toBe(m.nsr);
    // The day index names the day local_date names.
    for (const day of [...new Set(marks.map((m) => m.local_date))]) {
      const of = marks.filter((m) => m.local_date === day).map((m) => m.nsr);
      expect(reader.dayBounds(day)).toEqual({ lo: Math.min(...of), hi: Math.max(...of) });
    }
    expect(new Set(marks.map((m) => m.local_date)).size).toBe(2);
    expect(reader.dayBounds('2026-03-04')).toBeNull();
    const [first, last] = [marks[0]?.local_date as string, marks.at(-1)?.local_date as string];
    expect(reader.dateBounds(first, last)).toEqual({ lo: marks[0]?.nsr, hi: marks.at(-1)?.nsr });
    expect(reader.marksInDates(last, last).map((m) => m.nsr)).toEqual(marks.slice(-2).map((m) => m.nsr));
    expect(reader.chainHead(OTHER)?.nsr).toBe(lastOf(OTHER));

    // New marks go on from each chain's last one: the journal verifies whole, the tails follow.
    const journal = new EvidenceJournal(db);
    journal.open();
    const outbox = new Outbox(db, db, journal);
    const added = [20, 21].map((i) => {
      const p = journalPunch(i, { capturedAt: BASE + 2 * DAY_MS + i * 60_000 });
      const r = outbox.insert({ ...p, ...localOf(p.capturedAt), chain: i % 2 ? OTHER : '' });
      if (!r.inserted) throw new Error('a repeat');
      return r.nsr;
    });
    expect(db.prepare('SELECT chain, nsr FROM journal_chain_tails ORDER BY chain').all()).toEqual([
      { chain: '', nsr: added[0] },
      { chain: OTHER, nsr: added[1] },
    ]);
    let v = await verifyJournal(db);
    expect(v.firstProblem).toBeNull();
    expect(v.marks).toBe(marks.length + 2);

    // Retention prunes the punch delivered 70 days ago: its mark is still found by the punch's id.
    expect(compactDatabase(db, DEFAULT_RETENTION, NOW).deleted.punches).toBe(1);
    const pruned = (before.punches as { id: number; remote_id: string | null }[]).find(
      (p) => p.remote_id === 'remote-5',
    );
    expect(db.prepare('SELECT 1 FROM punches WHERE id = ?').get(pruned?.id)).toBeUndefined();
    expect(reader.markOfPunch(pruned?.id as number)?.nsr).toBe(marks.find((m) => m.punch_id === pruned?.id)?.nsr);
    v = await verifyJournal(db);
    expect(v.ok).toBe(true);
  });

  it('runs the hot queries on indexes: next due, counts, search by date, receipt by NSR, mark of a punch, day, chain', () => {
    const d = dir();
    version17(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const o = new Outbox(db)['stmts'];
    const lists = new PunchLists(db)['stmts'];
    const reader = new JournalReader(db)['stmts'];
    const journal = new EvidenceJournal(db)['stmts'];
    const hot: Record<string, Statement> = {
      'next due punches': o.dueBatch,
      'search by date': lists.range,
      'receipt: the mark by NSR': reader.byNsr,
      'receipt: the punch by NSR': db.prepare('SELECT captured_at FROM punches WHERE nsr = ?'),
      'mark of a punch': reader.ofPunch,
      'mark of a punch: its NSR': reader.punchNsr,
      "a day's first and last mark": reader.dayBounds,
      "a period's first and last mark": reader.dateBounds,
      "a chain's last mark (every seal)": journal.lastOfChain,
      "a chain's head (export)": reader.chainHead,
    };
    for (const [what, stmt] of Object.entries(hot)) {
      const steps = plan(db, stmt).filter((s) => /\b(punches|journal_marks|journal_chain_tails|m|p)\b/.test(s));
      expect(steps.length, what).toBeGreaterThan(0);
      for (const s of steps) expect(s, what).toMatch(/USING (COVERING )?INDEX|USING (INTEGER )?PRIMARY KEY/);
    }
    expect(plan(db, o.counts)).toEqual(['SCAN punch_counts']);
    expect(plan(db, reader.dayBounds).join()).toContain('journal_marks_by_day (<expr>=?)');
    expect(plan(db, lists.range).join()).toContain('punches_captured_at');
    expect(plan(db, reader.punchNsr).join()).toContain('INTEGER PRIMARY KEY');
  });

  it('gives the same day number as the mark’s local date for every minute of a day, across years', () => {
    const db = openDatabase(dir());
    undo.push(() => db.close());
    for (const [date, minutes] of [
      ['1970-01-01', 0],
      ['2026-03-02', 29_540_160],
      ['2026-03-02', 29_540_160 + 1_439],
      ['2028-02-29', 30_589_920 + 720],
      ['2031-12-31', 32_607_360 + 1_439],
    ] as const) {
      // Bound numbers are REAL in better-sqlite3; `marked` is an INTEGER column: divided as one.
      const r = db
        .prepare("SELECT date(m * 60, 'unixepoch') AS d, m / 1440 AS n FROM (SELECT CAST(? AS INTEGER) AS m)")
        .get(minutes) as {
        d: string;
        n: number;
      };
      expect(r.d).toBe(date);
      expect(r.n).toBe(dayNumber(date));
    }
  });
});
