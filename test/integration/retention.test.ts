/**
 * Storage that stays small (issue 14, item 5): retention deletes delivered punches (and their
 * journal) and audit lines past their age, nothing else; new files give freed pages back, files of
 * an earlier version are converted by `timeclock data compact`; passes run in small batches and
 * stop cleanly (the agent's side: retention-agent.test.ts). Real SQLite files.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RetentionWatch, type RetentionPassRecord } from '../../src/agent/journal/retention-watch.js';
import type { PunchState } from '../../src/domain/punch/punch.js';
import { silentLogger } from '../../src/log.js';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
import {
  DB_FILE_NAME,
  openBookkeepingConnection,
  openDatabase,
  type DurableDb as Db,
  type WritableDb,
} from '../../src/store/database.js';
import { lockDataDir } from '../../src/store/upkeep/lock.js';
import { Outbox, type HeldReason, type NewPunch } from '../../src/store/punches/outbox.js';
import { DAY_MS, RETENTION_KEYS, RetentionStore } from '../../src/store/upkeep/retention.js';
import { readSetting } from '../../src/store/settings/settings.js';
import { UnresolvedPunches } from '../../src/store/punches/unresolved.js';
import { runCli } from '../helpers/cli.js';
import { fillDelivered } from '../helpers/history.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0);
const OLD = NOW - 200 * DAY_MS;
const STATES: PunchState[] = ['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held'];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});
function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function grouped(db: Db): Record<PunchState, number> {
  const out = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<PunchState, number>;
  for (const r of db.prepare('SELECT state, COUNT(*) AS n FROM punches GROUP BY state').all() as {
    state: PunchState;
    n: number;
  }[])
    out[r.state] = r.n;
  return out;
}

const punch = (e: number, at: number): NewPunch => ({
  capturedAt: at,
  localDate: new Date(at).toISOString().slice(0, 10),
  localTime: new Date(at).toISOString().slice(11, 16),
  timeZone: 'UTC',
  employeeKey: `emp-${e}`,
  employeeExternalId: String(10_000 + e),
  employeeName: `E${e}`,
  credentialKind: 'badge',
  clockFlag: null,
});

/** One punch in every situation retention must tell apart; which ids must go. */
function everySituation(db: Db): { gone: number[]; kept: number[] } {
  const outbox = new Outbox(db);
  let e = 0;
  const mk = (at: number) => {
    const r = outbox.insert(punch(e++, at));
    if (!r.inserted) throw new Error('not inserted');
    return r.id;
  };
  const sentAt = (at: number, how: 'created' | 'reconciled' = 'created') => {
    const id = mk(at - 1_000);
    outbox.markSending(id, at - 500);
    if (how === 'reconciled') outbox.markInDoubt(id, at - 400, at, 'timeout');
    outbox.markSent(id, at, 'srv', how);
    return id;
  };
  const gone = [sentAt(OLD), sentAt(OLD + DAY_MS), sentAt(OLD, 'reconciled'), sentAt(NOW - 90 * DAY_MS - 1)];
  // A person's "delivered" long ago counts from the decision.
  const decided = mk(OLD);
  outbox.markHeld(decided, OLD, 'unverified', 'no proof', OLD);
  outbox.decideHeld(decided, OLD + 1_000, 'delivered');
  gone.push(decided);

  const kept = [sentAt(NOW - 89 * DAY_MS), sentAt(NOW - 90 * DAY_MS + 1)];
  // Captured long ago, delivered lately: age counts from delivery.
  const late = mk(OLD);
  outbox.markSending(late, NOW - 10 * DAY_MS);
  outbox.markSent(late, NOW - 10 * DAY_MS, 'srv', 'created');
  kept.push(late);
  kept.push(mk(OLD)); // pending
  const sending = mk(OLD);
  outbox.markSending(sending, OLD);
  const inDoubt = mk(OLD);
  outbox.markSending(inDoubt, OLD);
  outbox.markInDoubt(inDoubt, OLD, OLD, 'timeout');
  // Rejected waits for a person's retry at any age.
  const rejected = mk(OLD);
  outbox.markSending(rejected, OLD);
  outbox.markRejected(rejected, OLD, '422 unknown employee');
  kept.push(sending, inDoubt, rejected);
  for (const reason of ['not_allowed', 'forbidden', 'unverified', 'pin_unverified', 'disputed'] as HeldReason[]) {
    const id = mk(OLD);
    outbox.markHeld(id, OLD, reason, 'why', OLD);
    kept.push(id);
  }
  const disputed = mk(OLD);
  outbox.markHeld(disputed, OLD, 'pin_unverified', 'locked out', OLD);
  outbox.decideHeld(disputed, OLD + 1_000, 'dispute', 'not me');
  kept.push(disputed);
  return { gone, kept };
}

const ids = (db: Db) => (db.prepare('SELECT id FROM punches ORDER BY id').all() as { id: number }[]).map((r) => r.id);
const journalOf = (db: Db) =>
  Object.fromEntries(
    (
      db.prepare('SELECT punch_id, COUNT(*) AS n FROM punch_journal GROUP BY punch_id').all() as {
        punch_id: number;
        n: number;
      }[]
    ).map((r) => [r.punch_id, r.n]),
  );

describe('RetentionStore', () => {
  it('deletes exactly the delivered punches older than deliveredDays and their journal; keeps every other punch whatever its age', () => {
    const db = openDatabase(data());
    cleanups.push(() => void db.close());
    const { gone, kept } = everySituation(db);
    new UnresolvedPunches(db).add({ at: OLD, mono: 0, bootId: 'b', anchored: true }, '999', 'badge');
    const audit = new AuditLog(db);
    audit.record(NOW - 401 * DAY_MS, 'pin_ok', 'emp-1');
    audit.record(NOW - 400 * DAY_MS - 1, 'pin_wrong', 'emp-1');
    audit.record(NOW - 399 * DAY_MS, 'pin_ok', 'emp-2');
    audit.record(NOW - DAY_MS, 'pin_set', 'emp-3');
    const journalBefore = journalOf(db);

    const store = new RetentionStore(db);
    let batches = 0;
    // Batches of two: the pass is many transactions, and none may lose or double anything.
    for (let more = true; more; batches++) more = store.pruneDelivered(NOW - 90 * DAY_MS, 2).more;
    for (let more = true; more;) more = store.pruneAudit(NOW - 400 * DAY_MS, 1).more;

    expect(batches).toBe(3);
    expect(ids(db)).toEqual([...kept].sort((a, b) => a - b));
    const journal = journalOf(db);
    for (const id of gone) expect(journal[id], `journal of deleted punch ${id}`).toBeUndefined();
    for (const id of kept) expect(journal[id], `journal of kept punch ${id}`).toBe(journalBefore[id]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(new Outbox(db).counts()).toEqual(grouped(db));
    expect(new UnresolvedPunches(db).summary().count).toBe(1);
    expect(audit.recent().map((a) => `${a.event} ${a.employeeId}`)).toEqual(['pin_set emp-3', 'pin_ok emp-2']);
    const journalGone = gone.reduce((n, id) => n + (journalBefore[id] ?? 0), 0);
    expect(store.deletedEver()).toEqual({ punches: gone.length, journal: journalGone, audit: 2 });
    // A second pass finds nothing more.
    expect(store.pruneDelivered(NOW - 90 * DAY_MS, 100)).toEqual({ punches: 0, journal: 0, more: false });
  });

  it('finds old delivered punches by index and their journal rows by punch, never by a pass over the tables', () => {
    const db = openDatabase(data());
    cleanups.push(() => void db.close());
    const plan = (sql: string) =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(Array(sql.split('?').length - 1).fill(0) as number[])) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join(' / ');
    expect(
      plan(
        `SELECT id FROM punches INDEXED BY punches_sent_at WHERE state = 'sent' AND sent_at < ? ORDER BY sent_at LIMIT ?`,
      ),
    ).toMatch(/^SEARCH punches USING (COVERING )?INDEX punches_sent_at \(sent_at<\?\)$/);
    expect(
      plan(
        `DELETE FROM punch_journal WHERE punch_id = ? AND EXISTS (SELECT 1 FROM punches WHERE id = ? AND state = 'sent')`,
      ),
    ).toMatch(
      /^SEARCH punch_journal USING (COVERING )?INDEX punch_journal_punch \(punch_id=\?\) \/ (CORRELATED )?SCALAR SUBQUERY \d+ \/ SEARCH punches USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
    );
    expect(plan('SELECT id FROM audit_log INDEXED BY audit_log_at WHERE at < ? ORDER BY at LIMIT ?')).toMatch(
      /INDEX audit_log_at/,
    );
  });
});

describe('the database file', () => {
  const pages = (db: Db) => db.pragma('page_count', { simple: true }) as number;

  it('a new file is created with auto_vacuum incremental, and a pass gives the freed pages back', async () => {
    const dir = data();
    const db = openDatabase(dir);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(2);
    const h = fillDelivered(db, { punches: 20_000, employees: 100, journal: true });
    db.pragma('wal_checkpoint(TRUNCATE)');
    const before = { pages: pages(db), bytes: fs.statSync(path.join(dir, DB_FILE_NAME)).size };
    // Delivered more than 7 days before the pass: their delivery log (3 lines each) goes, the punch itself after 90.
    const loggedOut = (
      db
        .prepare(`SELECT COUNT(*) AS n FROM punches WHERE state = 'sent' AND sent_at < ?`)
        .get(h.lastCapturedAt + 23 * DAY_MS) as { n: number }
    ).n;
    const book = openBookkeepingConnection(dir);
    cleanups.push(() => {
      book.close();
      db.close();
    });
    const record = await watch(book, h.lastCapturedAt + 30 * DAY_MS, () => checkpointInWorker(dir)).runNow();
    expect(record).toMatchObject({ outcome: 'done', error: null });
    expect(record.deleted.punches).toBeGreaterThan(10_000);
    expect(record.deleted.journal).toBe(3 * loggedOut);
    expect(loggedOut).toBeGreaterThan(record.deleted.punches);
    expect(record.freedBytes).toBeGreaterThan(0);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages(db)).toBeLessThan(before.pages * 0.6);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(fs.statSync(path.join(dir, DB_FILE_NAME)).size).toBeLessThan(before.bytes * 0.6);
    expect(new Outbox(db).counts()).toEqual(grouped(db));
  });

  it('a file of an earlier version keeps its size after a pass, and `timeclock data compact` converts and shrinks it', async () => {
    const dir = data();
    // An earlier version switched WAL on first: its page 1 was written before any auto_vacuum.
    const raw = new Database(path.join(dir, DB_FILE_NAME));
    raw.pragma('journal_mode = WAL');
    raw.close();
    const db = openDatabase(dir);
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    const h = fillDelivered(db, { punches: 10_000, employees: 100, journal: true });
    const before = pages(db);
    const book = openBookkeepingConnection(dir);
    // Everything is older than the default 62 days by now (the history is of 2025): the compact deletes the rest.
    const record = await watch(book, h.lastCapturedAt + 30 * DAY_MS, null).runNow();
    expect(record.deleted.punches).toBeGreaterThan(0);
    expect(record.freedBytes).toBe(0);
    expect(pages(db)).toBe(before);
    expect(db.pragma('freelist_count', { simple: true })).toBeGreaterThan(0);
    book.close();
    db.close();

    // Refused while an agent holds the data directory.
    const lock = lockDataDir(dir);
    const refused = await runCli(['data', 'compact'], { TIMECLOCK_DATA_DIR: dir });
    lock.release();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/data compact: another timeclock agent .*stop the terminal first/);
    const bytes = fs.statSync(path.join(dir, DB_FILE_NAME)).size;

    const ok = await runCli(['data', 'compact'], { TIMECLOCK_DATA_DIR: dir });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(
      /^compacted .*timeclock\.sqlite: [\d.]+ MB -> [\d.]+ MB; deleted \d+ delivered punches older than 62 days/,
    );
    const after = openDatabase(dir);
    cleanups.push(() => void after.close());
    expect(after.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(after.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages(after)).toBeLessThan(before / 4);
    expect(fs.statSync(path.join(dir, DB_FILE_NAME)).size).toBeLessThan(bytes / 4);
    expect(after.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    // Status shows the compact as the last pass.
    expect(readSetting(after, RETENTION_KEYS.lastPass)).toMatchObject({
      outcome: 'done',
      deleted: { punches: 10_000 - record.deleted.punches },
    });
    expect(new Outbox(after).counts()).toEqual(grouped(after));
  });
});

function watch(
  db: WritableDb,
  now: number,
  checkpointer: ConstructorParameters<typeof RetentionWatch>[0]['checkpointer'],
  records: RetentionPassRecord[] = [],
): RetentionWatch {
  const w = new RetentionWatch({
    store: new RetentionStore(db),
    policy: { deliveredDays: 90, auditDays: 400, deliveryLogDays: 7 },
    clock: { now: () => now },
    mono: () => performance.now(),
    log: silentLogger,
    checkpointer,
    write: (r) => records.push(r),
    changed: () => {},
    firstAfterMs: 60_000,
    everyMs: 60_000,
  });
  cleanups.push(() => w.stop());
  return w;
}

describe('RetentionWatch', () => {
  it('lets the event loop run between batches, and a stop ends the pass at its next batch with nothing half done', async () => {
    const dir = data();
    const db = openDatabase(dir);
    cleanups.push(() => void db.close());
    const h = fillDelivered(db, { punches: 20_000, employees: 100, journal: true });
    const records: RetentionPassRecord[] = [];
    const w = watch(db, h.lastCapturedAt + 400 * DAY_MS, null, records);
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    const pass = w.runNow();
    await new Promise((r) => setTimeout(r, 5));
    expect(timerRan).toBe(true);
    await w.stop();
    const record = await pass;
    expect(record.outcome).toBe('stopped');
    expect(records).toEqual([record]);
    const left = (db.prepare('SELECT COUNT(*) AS n FROM punches').get() as { n: number }).n;
    expect(record.deleted.punches).toBeGreaterThan(0);
    expect(left).toBe(20_000 - record.deleted.punches);
    expect((db.prepare('SELECT COUNT(*) AS n FROM punch_journal').get() as { n: number }).n).toBe(3 * left);
    expect(new RetentionStore(db).deletedEver().punches).toBe(record.deleted.punches);
    // A later pass (the next start) finishes the work.
    const done = await watch(db, h.lastCapturedAt + 400 * DAY_MS, null).runNow();
    expect(done.outcome).toBe('done');
    expect(record.deleted.punches + done.deleted.punches).toBe(20_000);
    expect(new Outbox(db).counts()).toEqual(grouped(db));
  });

  it('runs first after its delay, not before, then on its schedule', async () => {
    const db = openDatabase(data());
    cleanups.push(() => void db.close());
    const records: RetentionPassRecord[] = [];
    const w = new RetentionWatch({
      store: new RetentionStore(db),
      policy: { deliveredDays: 90, auditDays: 400, deliveryLogDays: 7 },
      clock: { now: () => NOW },
      mono: () => performance.now(),
      log: silentLogger,
      checkpointer: null,
      write: (r) => records.push(r),
      changed: () => {},
      firstAfterMs: 80,
      everyMs: 40,
    });
    cleanups.push(() => w.stop());
    w.start();
    await new Promise((r) => setTimeout(r, 40));
    expect(records).toEqual([]);
    await waitFor(() => records.length >= 3, 'the first pass and two scheduled ones', 5_000, 5);
    expect(records.every((r) => r.outcome === 'done')).toBe(true);
  });
});
