/**
 * Migration 19 (issue 26 item 9): delivered punches move into a compact table once their delivery log
 * is gone, and every reader of delivered history reads `punch_history`. On a version 18 file written by
 * the outbox with punches in all six states: the upgrade loses nothing; the retention pass moves only
 * delivered punches past the delivery log's horizon, batch by batch; the lists, the CSV, the audit,
 * the journal's verification, receipts and a punch's mark see a moved punch as before; the counts do
 * not change; retention deletes moved punches in time; the history search runs on both halves' indexes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writePunchCsv } from '../../src/agent/exports/punch-csv.js';
import { RetentionWatch } from '../../src/agent/journal/retention-watch.js';
import { storedSettingsView } from '../../src/agent/settings/stored-settings.js';
import { readStatus } from '../../src/agent/status/status.js';
import { silentLogger } from '../../src/log.js';
import { journalReceiptSource } from '../../src/agent/receipts/receipt-source.js';
import { DB_FILE_NAME, openDatabase, type Db, type DurableDb } from '../../src/store/database.js';
import { AuditMarks } from '../../src/store/journal/audit-marks.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { JournalReader } from '../../src/store/journal/journal-read.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import { migrations } from '../../src/store/migrations.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { PunchLists } from '../../src/store/punches/punch-lists.js';
import { UnresolvedPunches } from '../../src/store/punches/unresolved.js';
import { Identities } from '../../src/store/roster/identities.js';
import { Roster } from '../../src/store/roster/roster.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { DAY_MS, DEFAULT_RETENTION, RetentionStore, compactDatabase } from '../../src/store/upkeep/retention.js';
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

const NOW = BASE + 40 * DAY_MS;
const DATE = '2026-03-02';
const HEX = (i: number) => `0123456789abcdef${String(i).padStart(8, '0')}`;
/** What a person reads of a punch (lists, CSV, audit, receipts), and the journal's link. */
const SEEN = [
  'id',
  'captured_at',
  'local_date',
  'local_time',
  'time_zone',
  'employee_key',
  'employee_external_id',
  'employee_name',
  'credential_kind',
  'state',
  'attempts',
  'last_error',
  'reject_reason',
  'remote_id',
  'sent_at',
  'clock_flag',
  'held_reason',
  'utc_minute',
  'collides',
  'anchored',
  'nsr',
].join(', ');

type Row = Record<string, unknown> & { id: number; state: string; nsr: number };

/**
 * Version 18 as a terminal has it, written by the outbox: one punch in each state not delivered, and five delivered
 * 30, 20, 10 days, 6 days and 1 hour before NOW (one with an id that is not 24 hex, one of the same employee as
 * another); each delivered one with its delivery log.
 */
function version18(d: string): Row[] {
  const raw = new Database(path.join(d, DB_FILE_NAME));
  raw.pragma('journal_mode = WAL');
  for (const m of migrations.slice(0, 18)) raw.exec(m);
  const db = raw as unknown as DurableDb;
  const journal = new EvidenceJournal(db);
  journal.open();
  const outbox = new Outbox(db, db, journal);
  const at = (i: number) => BASE + i * 60_000;
  const id = (i: number, employee = i): number => {
    const p = journalPunch(i);
    const r = outbox.insert({
      ...p,
      employeeKey: `E${employee}`,
      employeeExternalId: `X${employee}`,
      employeeName: `Employee ${employee}`,
    });
    if (!r.inserted) throw new Error(`punch ${i} was a repeat`);
    return r.id;
  };
  id(0);
  outbox.markSending(id(1), at(1) + 1_000);
  const doubt = id(2);
  outbox.markSending(doubt, at(2) + 1_000);
  outbox.markInDoubt(doubt, at(2) + 2_000, at(2) + 3_600_000, 'timeout');
  const rejected = id(3);
  outbox.markSending(rejected, at(3) + 1_000);
  outbox.markRejected(rejected, at(3) + 2_000, '422 employee unknown');
  outbox.markHeld(id(4), at(4) + 1_000, 'forbidden', '403', at(4) + 6 * 3_600_000);
  for (const [i, sentAt, remote, employee] of [
    [5, NOW - 30 * DAY_MS, HEX(5), 5],
    [6, NOW - 20 * DAY_MS, 'remote-6', 6],
    [7, NOW - 10 * DAY_MS, HEX(7), 5],
    [8, NOW - 6 * DAY_MS, HEX(8), 8],
    [9, NOW - 3_600_000, HEX(9), 9],
  ] as const) {
    const p = id(i, employee);
    outbox.markSending(p, sentAt - 1_000);
    outbox.markSent(p, sentAt, remote, 'created');
  }
  raw.pragma('user_version = 18');
  const rows = raw.prepare(`SELECT ${SEEN} FROM punches ORDER BY id`).all() as Row[];
  raw.close();
  return rows;
}

const seen = (db: Db): Row[] => db.prepare(`SELECT ${SEEN} FROM punch_history ORDER BY id`).all() as Row[];
const where = (db: Db): Record<string, number[]> => ({
  punches: (db.prepare('SELECT id FROM punches ORDER BY id').all() as { id: number }[]).map((r) => r.id),
  compact: (db.prepare('SELECT id FROM punches_delivered ORDER BY id').all() as { id: number }[]).map((r) => r.id),
});

function plan(db: Db, stmt: Statement): string[] {
  const args = (stmt.source.match(/\?/g) ?? []).map(() => 0);
  return (db.prepare(`EXPLAIN QUERY PLAN ${stmt.source}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

/** Everything a person or an auditor reads of the punches, through the components that read it. */
async function whatReadersSee(db: DurableDb, d: string, ids: number[], nsrs: number[]) {
  const lists = new PunchLists(db);
  const csv = path.join(d, `punches-${Math.random().toString(36).slice(2)}.csv`);
  await writePunchCsv(lists, DATE, DATE, csv, 2);
  const reader = new JournalReader(db);
  const receipts = journalReceiptSource(db);
  return {
    range: lists.rangePage(DATE, DATE, null, 100),
    days: ['E5', 'E6', 'E8'].map((e) => lists.dayOf(e, DATE)),
    csv: fs.readFileSync(csv, 'utf8'),
    audit: [...new AuditMarks(db).marks(DATE, DATE)],
    receipts: nsrs.map((n) => receipts.byNsr(n)),
    marksOfPunches: ids.map((i) => reader.markOfPunch(i)?.nsr ?? null),
    counts: new Outbox(db).counts(),
    status: statusOf(db),
  };
}

/** What `timeclock status` says of the queue and of punches delivered ever. */
function statusOf(db: DurableDb) {
  const settings = storedSettingsView(db, { siteId: undefined, rateLimit: { limit: 60, windowMs: 60_000 } }, false);
  const s = readStatus({
    db,
    outbox: new Outbox(db),
    roster: new Roster(db),
    rateSlots: new RateSlots(db),
    identities: new Identities(db),
    unresolved: new UnresolvedPunches(db),
    rule: settings.rateLimit,
    settings,
    now: NOW,
    terminalId: 'door-1',
    rosterRefreshMs: 86_400_000,
  });
  return { queue: s.queue, unsent: s.unsent, deliveredEver: s.retention?.deliveredEver };
}

describe('migration 19: delivered punches in a compact form once their delivery log is gone', () => {
  it('upgrades a version 18 file losing nothing, moves only delivered punches past the log horizon, readers see them as before', async () => {
    const d = dir();
    const before = version18(d);
    expect(before.map((r) => r.state)).toEqual([
      'pending',
      'sending',
      'in_doubt',
      'rejected',
      'held',
      'sent',
      'sent',
      'sent',
      'sent',
      'sent',
    ]);
    const db = openDatabase(d);
    undo.push(() => db.close());
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    // The upgrade moves nothing: punches as they were, the view the same rows.
    expect(db.prepare(`SELECT ${SEEN} FROM punches ORDER BY id`).all()).toEqual(before);
    expect(seen(db)).toEqual(before);
    const ids = before.map((r) => r.id);
    const nsrs = before.map((r) => r.nsr);
    const seenBefore = await whatReadersSee(db, d, ids, nsrs);
    expect(seenBefore.range).toHaveLength(10);
    expect(seenBefore.counts).toEqual({ pending: 1, sending: 1, in_doubt: 1, rejected: 1, held: 1, sent: 5 });
    expect(seenBefore.status).toMatchObject({ unsent: 3, deliveredEver: 5 });
    expect(seenBefore.audit).toHaveLength(10);
    expect(seenBefore.receipts.every((r) => r?.punch)).toBe(true);

    // Nothing moves while the delivery log is there.
    const store = new RetentionStore(db);
    expect(store.moveDelivered(100)).toEqual({ moved: 0, more: false });
    // The default pass: the log of punches delivered 7+ days ago goes, then they move, one per batch here.
    expect(store.pruneDeliveryLog(NOW - DEFAULT_RETENTION.deliveryLogDays * DAY_MS, 100).journal).toBeGreaterThan(0);
    const batches: number[] = [];
    for (let more = true; more;) {
      const r = store.moveDelivered(1);
      batches.push(r.moved);
      more = r.more;
    }
    expect(batches).toEqual([1, 1, 1, 0]);
    const [, , , , , d30, d20, d10, d6, d0] = ids as [number, ...number[]];
    expect(where(db)).toEqual({ punches: [...ids.slice(0, 5), d6, d0], compact: [d30, d20, d10] });
    // Each is looked at once: the next pass finds nothing new.
    expect(store.moveDelivered(100)).toEqual({ moved: 0, more: false });

    // Every field a person or the journal reads is as it was: 24-hex id and any other, dates, employee, NSR.
    expect(seen(db)).toEqual(before);
    const blob = db.prepare(
      'SELECT typeof(remote_id) AS t, length(remote_id) AS n FROM punches_delivered WHERE id = ?',
    );
    expect(blob.get(d30)).toEqual({ t: 'blob', n: 12 });
    expect(blob.get(d20)).toEqual({ t: 'text', n: 8 });
    expect(db.prepare('SELECT COUNT(*) AS n FROM punch_people').get()).toEqual({ n: 2 });
    const seenAfter = await whatReadersSee(db, d, ids, nsrs);
    expect(seenAfter).toEqual(seenBefore);
    const v = await verifyJournal(db, { chunk: 3 });
    expect(v.firstProblem).toBeNull();
    expect(v.marks).toBe(10);

    // A delivered punch is final: its compact row cannot be changed.
    expect(() => db.prepare("UPDATE punches_delivered SET last_error = 'x' WHERE id = ?").run(d30)).toThrow(/final/);

    // 55 days on: retention 62 days after delivery deletes moved punches too, the last two move; the counts follow.
    const r = compactDatabase(db, DEFAULT_RETENTION, NOW + 55 * DAY_MS);
    expect(r.deleted.punches).toBe(3);
    expect(where(db)).toEqual({ punches: ids.slice(0, 5), compact: [d6, d0] });
    expect(new Outbox(db).counts()).toEqual({ pending: 1, sending: 1, in_doubt: 1, rejected: 1, held: 1, sent: 2 });
  });

  it("is the agent's daily retention pass that moves them", async () => {
    const d = dir();
    const before = version18(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const watch = new RetentionWatch({
      store: new RetentionStore(db),
      policy: DEFAULT_RETENTION,
      clock: { now: () => NOW },
      mono: () => performance.now(),
      log: silentLogger,
      checkpointer: null,
      write: () => undefined,
      changed: () => undefined,
      firstAfterMs: 0,
      everyMs: DAY_MS,
    });
    const pass = await watch.runNow();
    await watch.stop();
    expect(pass.outcome).toBe('done');
    expect(where(db).compact).toEqual(before.slice(5, 8).map((r) => r.id));
    expect(seen(db)).toEqual(before);
  });

  it('moves neither a punch whose delivery log is still there nor one that would not read back exactly', () => {
    const d = dir();
    const before = version18(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const store = new RetentionStore(db);
    const [d30, d20] = [before[5]?.id, before[6]?.id] as [number, number];
    // A log line written after the pruning walked past d30 (a clock stepped back); d20's local time with seconds.
    store.pruneDeliveryLog(NOW - 5 * DAY_MS, 100);
    db.prepare("INSERT INTO punch_journal (punch_id, at, event) VALUES (?, ?, 'note')").run(d30, NOW);
    db.prepare("UPDATE punches SET local_time = local_time || ':00' WHERE id = ?").run(d20);
    // d10 delivered unanchored: it keeps its clock readings as evidence (punch-writer.ts setSent), so it stays.
    const d10 = before[7]?.id as number;
    db.prepare("UPDATE punches SET anchored = 0, wall_at = 1, mono_at = 2, boot_id = 'b' WHERE id = ?").run(d10);
    // d6 (its log gone too) moves; the three others stay.
    const d6 = before[8]?.id as number;
    expect(store.moveDelivered(100)).toEqual({ moved: 1, more: false });
    expect(where(db).compact).toEqual([d6]);
    expect(where(db).punches).toEqual(before.map((r) => r.id).filter((id) => id !== d6));
  });

  it('takes a punch repeating a moved minute as a new punch (a stepped clock), losing none', () => {
    const d = dir();
    const before = version18(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const store = new RetentionStore(db);
    store.pruneDeliveryLog(NOW - 7 * DAY_MS, 100);
    for (let more = true; more;) more = store.moveDelivered(100).more;
    const moved = before[5] as Row;
    const outbox = new Outbox(db, db, new EvidenceJournal(db));
    const again = outbox.insert({ ...journalPunch(5), employeeKey: 'E5', employeeName: 'Employee 5' });
    expect(again.inserted).toBe(true);
    const same = seen(db).filter((r) => r.employee_key === 'E5' && r.utc_minute === moved['utc_minute']);
    expect(same.map((r) => [r.id, r.state])).toEqual([
      [moved.id, 'sent'],
      [again.inserted ? again.id : 0, 'pending'],
    ]);
  });

  it('searches history by date, by day and by NSR on the indexes of both halves', () => {
    const d = dir();
    version18(d);
    const db = openDatabase(d);
    undo.push(() => db.close());
    const lists = new PunchLists(db)['stmts'];
    const range = plan(db, lists.range).join('\n');
    expect(range).toContain('MERGE (UNION ALL)');
    expect(range).toContain('SEARCH punches USING INDEX punches_captured_at');
    expect(range).toContain('SEARCH d USING INDEX punches_delivered_captured_at');
    expect(range).not.toMatch(/SCAN|TEMP B-TREE/);
    const day = plan(db, lists.day).join('\n');
    expect(day).toMatch(/SEARCH punches USING INDEX sqlite_autoindex_punches_1 \(employee_key=\? AND utc_minute/);
    expect(day).toContain('SEARCH d USING INDEX punches_delivered_captured_at');
    expect(day).not.toMatch(/SCAN/);
    const byNsr = plan(db, db.prepare('SELECT * FROM punch_history WHERE nsr = ?')).join('\n');
    expect(byNsr).toContain('punches_by_nsr');
    expect(byNsr).toContain('punches_delivered_by_nsr');
  });
});
