import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase, StoreError } from '../../src/store/database.js';
import { checkIntegrityInWorker } from '../../src/store/upkeep/integrity-check.js';
import { lockDataDir, lockOwner } from '../../src/store/upkeep/lock.js';
import { migrations } from '../../src/store/migrations.js';
import { Outbox, type NewPunch } from '../../src/store/punches/outbox.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir } from '../helpers/temp.js';
import { punchText } from '../../src/messages/punch-text.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});
function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

const punch = (key: string, time = '08:00'): NewPunch => ({
  capturedAt: 1_795_000_000_000,
  localDate: '2026-11-21',
  localTime: time,
  timeZone: 'America/Sao_Paulo',
  employeeKey: key,
  employeeExternalId: key,
  employeeName: `Employee ${key}`,
  credentialKind: 'badge',
  clockFlag: null,
});

describe('one agent per data directory', () => {
  /** A child process that takes the lock the way an agent does and says so. */
  function holder(dir: string) {
    const lockJs = pathToFileURL(path.resolve('dist/src/store/upkeep/lock.js')).href;
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { lockDataDir } from ${JSON.stringify(lockJs)}; lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`,
    ]);
    const locked = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      child.once('exit', (code) => reject(new Error(`lock holder exited (${code})`)));
    });
    return { child, locked };
  }

  it("a second agent is refused with the holder's pid; status sees it running only while it holds the lock", async () => {
    const dir = data();
    const h = holder(dir);
    try {
      await h.locked;
      expect(() => lockDataDir(dir)).toThrow(new RegExp(`another timeclock agent \\(pid ${h.child.pid}\\)`));
      expect(lockOwner(dir)).toBe(h.child.pid);
    } finally {
      h.child.kill('SIGKILL');
    }
    await new Promise((r) => h.child.once('exit', r));
    // Killed (as by a power cut): the kernel dropped its lock, whatever files it left.
    expect(lockOwner(dir)).toBeNull();
    const taken = lockDataDir(dir);
    expect(lockOwner(dir)).toBe(process.pid);
    taken.release();
    expect(lockOwner(dir)).toBeNull();
  });

  it('after a power cut, a lock file naming a pid that another process now has does not stop the next start', () => {
    const dir = data();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    try {
      // What the earlier pid-file lock and this one's pid file look like after the cut.
      fs.writeFileSync(path.join(dir, 'agent.lock'), String(other.pid));
      fs.writeFileSync(path.join(dir, 'agent.pid'), String(other.pid));
      expect(lockOwner(dir)).toBeNull();
      const lock = lockDataDir(dir);
      expect(fs.existsSync(path.join(dir, 'agent.lock'))).toBe(false);
      expect(lockOwner(dir)).toBe(process.pid);
      lock.release();
    } finally {
      other.kill('SIGKILL');
    }
  });
});

describe('database', () => {
  it('a fresh file is migrated to the latest version, with WAL and synchronous=FULL', () => {
    const db = openDatabase(data());
    cleanups.push(() => {
      db.close();
    });
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it.each(migrations.map((_, i) => i + 1))('migration %i applies to a database at the version before it', (target) => {
    const dir = data();
    const db = new Database(path.join(dir, DB_FILE_NAME));
    for (let v = 0; v < target - 1; v++) db.exec(migrations[v] as string);
    db.pragma(`user_version = ${target - 1}`);
    db.close();
    const migrated = openDatabase(dir);
    expect(migrated.pragma('user_version', { simple: true })).toBe(migrations.length);
    migrated.close();
  });

  it('migration 5 rebuilds punches with its rows, their journal and its indexes, and a punch can then be held', () => {
    const dir = data();
    const db = new Database(path.join(dir, DB_FILE_NAME));
    db.pragma('foreign_keys = ON');
    for (let v = 0; v < 4; v++) db.exec(migrations[v] as string);
    db.pragma('user_version = 4');
    db.prepare(
      `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_external_id, employee_name,
         credential_kind, state, next_attempt_at, updated_at, remote_id) VALUES (1, '2026-11-23', '07:58', 'America/Sao_Paulo', 'e1', '1001', 'Ana', 'badge', 'sent', 1, 1, 'r1')`,
    ).run();
    db.prepare(`INSERT INTO punch_journal (punch_id, at, event, detail) VALUES (1, 1, 'captured', NULL)`).run();
    db.close();

    const migrated = openDatabase(dir);
    cleanups.push(() => {
      migrated.close();
    });
    expect(migrated.prepare('SELECT id, state, remote_id, held_reason FROM punches').all()).toEqual([
      { id: 1, state: 'sent', remote_id: 'r1', held_reason: null },
    ]);
    expect(migrated.pragma('foreign_key_check')).toEqual([]);
    expect(migrated.pragma('foreign_keys', { simple: true })).toBe(1);
    const indexes = (
      migrated.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'punches'`).all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(indexes).toEqual(
      expect.arrayContaining(['punches_due', 'punches_state', 'punches_unsent_by_id', 'punches_held']),
    );
    // The journal still points at the punch (a foreign key to the rebuilt table).
    expect(() => migrated.prepare(`INSERT INTO punch_journal (punch_id, at, event) VALUES (99, 2, 'x')`).run()).toThrow(
      /FOREIGN KEY/,
    );
    const outbox = new Outbox(migrated);
    const held = outbox.insert({
      capturedAt: 2,
      localDate: '2026-11-23',
      localTime: '08:00',
      timeZone: 'America/Sao_Paulo',
      employeeKey: 'e2',
      employeeExternalId: '1002',
      employeeName: 'João',
      credentialKind: 'id',
      clockFlag: null,
      heldReason: 'not_allowed',
    });
    expect(held.inserted && outbox.get(held.id)?.state).toBe('held');
    expect(outbox.dueBatch(10, 10)).toEqual([]);
  });

  // Opening no longer reads the whole file (seconds on a year of punches): damage inside a table is
  // found by the agent's background check (test/integration/integrity.test.ts) and by the doctor,
  // whose open asks for the check; both leave the file exactly as it was.
  it('a damaged file is refused by the explicit check with a clear error, found by the background one, and left exactly as it was', async () => {
    const dir = data();
    const db = openDatabase(dir);
    const outbox = new Outbox(db);
    for (let i = 0; i < 200; i++) outbox.insert(punch(`E${i}`));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const file = path.join(dir, DB_FILE_NAME);
    const bytes = fs.readFileSync(file);
    bytes.fill(0x5a, 4096, 4096 + 3000); // scribble over a b-tree page, its header included
    fs.writeFileSync(file, bytes);
    const before = fs.readFileSync(file);

    const explicit = { readonly: true, integrityCheck: true };
    expect(() => openDatabase(dir, explicit)).toThrow(StoreError);
    try {
      openDatabase(dir, explicit);
    } catch (e) {
      expect((e as StoreError).code).toBe('corrupt');
      expect((e as Error).message).toMatch(/integrity check|damaged/);
      expect((e as Error).message).toMatch(/Nothing was changed/);
    }
    const found = await checkIntegrityInWorker(dir).result;
    expect(found.problems.length).toBeGreaterThan(0);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a file that is not a database at all is refused, not overwritten', () => {
    const dir = data();
    const file = path.join(dir, DB_FILE_NAME);
    fs.writeFileSync(file, "these are somebody's punches in a text file, do not lose them\n".repeat(200));
    const before = fs.readFileSync(file);
    expect(() => openDatabase(dir)).toThrow(/damaged|not a database/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('a database written by a newer version is refused rather than downgraded', () => {
    const dir = data();
    openDatabase(dir).close();
    const raw = new Database(path.join(dir, DB_FILE_NAME));
    raw.pragma(`user_version = ${migrations.length + 1}`);
    raw.close();
    expect(() => openDatabase(dir)).toThrow(/newer than this program knows/);
  });

  it('after a crash mid-send, punches left in sending become in_doubt (checked before any resend)', () => {
    const db = openDatabase(data());
    cleanups.push(() => {
      db.close();
    });
    const outbox = new Outbox(db);
    const a = outbox.insert(punch('A'));
    const b = outbox.insert(punch('B'));
    if (!a.inserted || !b.inserted) throw new Error('insert failed');
    outbox.markSending(a.id, 1);
    expect(outbox.recoverInterrupted(2)).toBe(1);
    expect(outbox.get(a.id)?.state).toBe('in_doubt');
    expect(outbox.get(b.id)?.state).toBe('pending');
    const journal = db.prepare('SELECT event FROM punch_journal WHERE punch_id = ? ORDER BY id').all(a.id);
    expect(journal).toEqual([{ event: 'captured' }, { event: 'sending' }, { event: 'in_doubt' }]);
  });
});

/** A real small filesystem, so "disk full" and "read-only" are the kernel's answers, not a simulation. */
function smallFilesystem(sizeKb: number): string {
  const dir = data();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir]);
  } catch (e) {
    throw new Error(`this test mounts a small tmpfs and needs root (CI runs as root): ${(e as Error).message}`);
  }
  cleanups.push(() => {
    execFileSync('umount', ['-l', dir]);
  });
  return dir;
}

describe('storage failures at capture', () => {
  it('a full disk makes the punch fail on screen; nothing acknowledged is lost, and punching resumes when space is back', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    // Room for a new database with every migration and its first write-ahead log; the filler takes the rest.
    const fsDir = smallFilesystem(2048);
    const dir = path.join(fsDir, 'data');
    const agent = testAgent({ dataDir: dir, mock });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    await mock.close(); // keep everything queued locally

    const acknowledged: string[] = [];
    const filler = path.join(fsDir, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(16 * 1024));
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    fs.closeSync(fd);

    let refusal: string | null = null;
    for (let i = 1; i <= 30 && refusal === null; i++) {
      const r = await agent.punch({ kind: 'badge', value: String(1000 + i) });
      if (r.ok) acknowledged.push(String(1000 + i));
      else refusal = `${r.reason}: ${punchText('en', r)}`;
    }
    expect(refusal).toMatch(/^storage_failed: NOT registered: .*disk is full/);

    fs.rmSync(filler);
    const after = await agent.punch({ kind: 'badge', value: '1031' });
    expect(after).toMatchObject({ ok: true, repeat: false });
    acknowledged.push('1031');
    const status = agent.status();
    expect(status.unsent).toBe(new Set(acknowledged).size);
  });

  it('a data directory on a read-only filesystem stops start-up with a clear error', async () => {
    // Room for a new database with every migration and its first write-ahead log; the filler takes the rest.
    const fsDir = smallFilesystem(2048);
    execFileSync('mount', ['-o', 'remount,ro', fsDir]);
    const agentOrError = (() => {
      try {
        return testAgent({ dataDir: path.join(fsDir, 'data'), mock: { url: 'http://127.0.0.1:9/v2.1' } });
      } catch (e) {
        return e;
      }
    })();
    expect(agentOrError).toBeInstanceOf(StoreError);
    expect((agentOrError as StoreError).message).toMatch(/data directory .* is not writable: .*read-only/);
  });
});
