/**
 * Migration 17 (issue 26 item 9): on a database version 15 built with punches in every state, the
 * upgrade loses nothing, and the retention that follows with the default settings takes only what a
 * delivered punch no longer needs: its delivery log after a week, its row after 62 days; a punch
 * not delivered keeps its row and its log whatever its age. The queue's queries still run on indexes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase, type Db, type DurableDb } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { migrations } from '../../src/store/migrations.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { PunchLists } from '../../src/store/punches/punch-lists.js';
import { DeliveryLog } from '../../src/store/upkeep/delivery-log.js';
import { DAY_MS, DEFAULT_RETENTION, RetentionStore, compactDatabase } from '../../src/store/upkeep/retention.js';
import { BASE, chainTailsFor, journalPunch } from '../helpers/journal.js';
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
/** Retention runs at this instant: 70 days after the first capture. */
const NOW = BASE + 70 * DAY_MS;

type Row = { id: number; state: string; nsr: number; lines: number };
/** The punches a person can list: since migration 19 delivered ones may be in their compact form (punch_history). */
const rows = (db: Db): Row[] => {
  const view = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'punch_history'").get()
    ? 'punch_history'
    : 'punches';
  return db
    .prepare(
      `SELECT p.id, p.state, p.nsr, (SELECT COUNT(*) FROM punch_journal j WHERE j.punch_id = p.id) AS lines FROM ${view} p ORDER BY p.id`,
    )
    .all() as Row[];
};

/**
 * Version 15 as a terminal in the field has it, written by the outbox: one punch in each state not
 * delivered, each captured on the first day (older than any retention), and three delivered 70, 30
 * and 2 days before NOW.
 */
function version15(d: string): Row[] {
  const raw = new Database(path.join(d, DB_FILE_NAME));
  raw.pragma('journal_mode = WAL');
  for (const m of migrations.slice(0, 15)) raw.exec(m);
  raw.pragma('user_version = 15');
  const db = raw as unknown as DurableDb;
  const tails = chainTailsFor(db);
  const journal = new EvidenceJournal(db);
  journal.open();
  const outbox = new Outbox(db, db, journal);
  const id = (i: number): number => {
    const r = outbox.insert(journalPunch(i));
    if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
    return r.id;
  };
  const at = (i: number) => BASE + i * 60_000;
  id(0); // pending
  outbox.markSending(id(1), at(1) + 1_000); // sending (a crash mid-request)
  const doubt = id(2);
  outbox.markSending(doubt, at(2) + 1_000);
  outbox.markInDoubt(doubt, at(2) + 2_000, at(2) + HOUR, 'timeout');
  const rejected = id(3);
  outbox.markSending(rejected, at(3) + 1_000);
  outbox.markRejected(rejected, at(3) + 2_000, '422 employee unknown');
  outbox.markHeld(id(4), at(4) + 1_000, 'forbidden', '403', at(4) + 6 * HOUR);
  for (const [i, sentAt] of [
    [5, at(5) + 2_000], // delivered at once: 70 days before NOW
    [6, NOW - 30 * DAY_MS],
    [7, NOW - 2 * DAY_MS],
  ] as const) {
    const p = id(i);
    outbox.markSending(p, sentAt - 1_000);
    outbox.markPending(p, sentAt - 900, sentAt - 500, '503', true);
    outbox.markSending(p, sentAt - 400);
    outbox.markSent(p, sentAt, `remote-${i}`, 'created');
  }
  const before = rows(db);
  tails.remove();
  raw.close();
  return before;
}

/** A prepared statement's plan, its parameters bound to zeros: each step's detail. */
function plan(db: Db, stmt: Statement): string[] {
  const names = [...new Set([...stmt.source.matchAll(/@(\w+)/g)].map((m) => m[1] as string))];
  const positional = (stmt.source.match(/\?/g) ?? []).map(() => 0);
  const args: unknown[] = names.length ? [Object.fromEntries(names.map((n) => [n, 0]))] : positional;
  return (db.prepare(`EXPLAIN QUERY PLAN ${stmt.source}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

describe('migration 17: a delivered punch keeps only what a person still reads', () => {
  it('upgrades a version 15 database losing nothing, then retention prunes only delivered punches: the log after a week, the row after 62 days', async () => {
    const d = dir();
    const before = version15(d);
    expect(before.map((r) => r.state)).toEqual([
      'pending',
      'sending',
      'in_doubt',
      'rejected',
      'held',
      'sent',
      'sent',
      'sent',
    ]);

    const db = openDatabase(d);
    undo.push(() => db.close());
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    // The upgrade itself deletes nothing: every row, every log line, the counts by state.
    expect(rows(db)).toEqual(before);
    expect(new Outbox(db).counts()).toEqual({ pending: 1, sending: 1, in_doubt: 1, sent: 3, rejected: 1, held: 1 });
    expect(
      (db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'punches_state'").get() as { sql: string }).sql,
    ).toMatch(/WHERE state <> 'sent'$/);

    expect(DEFAULT_RETENTION).toEqual({ deliveredDays: 62, auditDays: 400, deliveryLogDays: 7 });
    const r = compactDatabase(db, DEFAULT_RETENTION, NOW);
    const after = rows(db);
    const byId = new Map(after.map((x) => [x.id, x]));
    // Not delivered: row and log whole, whatever their age (captured 70 days before NOW).
    for (const b of before.slice(0, 5)) expect(byId.get(b.id)).toEqual(b);
    // Delivered 70 days ago: gone, row and log; 30 days ago: the row stays for the lists, its log went; 2 days: whole.
    const [old, month, recent] = before.slice(5) as [Row, Row, Row];
    expect(byId.has(old.id)).toBe(false);
    expect(byId.get(month.id)).toEqual({ ...month, lines: 0 });
    expect(byId.get(recent.id)).toEqual(recent);
    expect(r.deleted).toEqual({ punches: 1, journal: old.lines + month.lines, audit: 0 });
    // The evidence of all eight stays: marks and facts are the journal's, retention never touches them.
    const v = await verifyJournal(db);
    expect(v.ok).toBe(true);
    expect(v.marks).toBe(8);
    // Each delivered punch is visited once: a second pass finds nothing, a punch delivered since is its next.
    const log = new DeliveryLog(db);
    expect(log.prune(NOW - 7 * DAY_MS, 100)).toEqual({ punches: 0, lines: 0, more: false });
    expect(log.prune(NOW, 100)).toEqual({ punches: 1, lines: recent.lines, more: false });
    expect(rows(db).find((x) => x.id === recent.id)?.lines).toBe(0);
    expect(rows(db).filter((x) => x.state !== 'sent')).toEqual(before.slice(0, 5));
  });

  it('a delivered punch drops its clock readings once they have served (anchored); an unanchored one keeps them', () => {
    const db = openDatabase(dir());
    undo.push(() => db.close());
    const outbox = new Outbox(db);
    const readings = (id: number) =>
      db.prepare('SELECT boot_id, mono_at, wall_at FROM punches WHERE id = ?').get(id) as Record<string, unknown>;
    const taken = (i: number, anchored: boolean): number => {
      const p = journalPunch(i);
      const r = outbox.insert({ ...p, time: { wall: p.capturedAt, mono: 1_234.5, bootId: 'boot-1', anchored } });
      if (!r.inserted) throw new Error('a repeat');
      outbox.markSending(r.id, p.capturedAt + 1_000);
      return r.id;
    };
    const anchored = taken(0, true);
    const unanchored = taken(1, false);
    expect(readings(anchored)).toEqual({ boot_id: 'boot-1', mono_at: 1_234.5, wall_at: BASE });
    outbox.markSent(anchored, BASE + 2_000, 'remote-0', 'created');
    outbox.markSent(unanchored, BASE + 62_000, 'remote-1', 'created');
    expect(readings(anchored)).toEqual({ boot_id: null, mono_at: null, wall_at: null });
    expect(readings(unanchored)).toEqual({ boot_id: 'boot-1', mono_at: 1_234.5, wall_at: BASE + 60_000 });
    expect(outbox.get(anchored)).toMatchObject({
      state: 'sent',
      remote_id: 'remote-0',
      captured_at: BASE,
      anchored: 1,
    });
  });

  it("runs the queue's hot queries on indexes, never a pass over the delivered punches", () => {
    const d = dir();
    version15(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const outbox = new Outbox(db);
    const o = outbox['stmts'];
    const retention = new RetentionStore(db)['stmts'];
    const log = new DeliveryLog(db)['stmts'];
    const lists = new PunchLists(db)['stmts'];
    const hot: Record<string, Statement> = {
      'next due punches': o.dueBatch,
      'earliest due': o.earliestDue,
      'any due': o.hasDue,
      'oldest unsent': o.oldestUnsent,
      'interrupted while sending': o.interrupted,
      rejected: o.rejected,
      'rejected ids': o.rejectedIds,
      'latest capture': o.latestCapture,
      'waiting list': lists.unsent,
      'held list': lists.held,
      'oldest delivered (retention)': retention.oldDelivered,
      'next delivered for the log (retention)': log.next,
    };
    for (const [what, stmt] of Object.entries(hot)) {
      const steps = plan(db, stmt).filter((s) => /\bpunches\b/.test(s));
      expect(steps.length, what).toBeGreaterThan(0);
      for (const s of steps) expect(s, what).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
    }
    // Counts by state come from punch_counts (migration 8), a row per state.
    expect(plan(db, o.counts)).toEqual(['SCAN punch_counts']);
    expect(plan(db, o.rejectedIds).join()).toContain('punches_state');
    expect(plan(db, o.interrupted).join()).toContain('punches_state');
  });
});
