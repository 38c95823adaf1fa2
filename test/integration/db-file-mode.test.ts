/**
 * The database (CPFs, the evidence journal) is owner-only whatever the data directory's mode and
 * the umask (issue 26 item 10): a pre-created 0755 data directory under umask 0 once gave a
 * world-readable timeclock.sqlite. Real SQLite files, WAL and SHM included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase } from '../../src/store/database.js';
import { tempDir } from '../helpers/temp.js';

const tmp = tempDir('timeclock-db-mode-');
afterAll(() => tmp.cleanup());

const modeOf = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
const files = (dir: string) => ['', '-wal', '-shm'].map((s) => path.join(dir, DB_FILE_NAME + s));

/** Runs `fn` under umask 0 (the worst an installer's shell can give), restoring the old one. */
function underUmask0<T>(fn: () => T): T {
  const old = process.umask(0);
  try {
    return fn();
  } finally {
    process.umask(old);
  }
}

describe('timeclock.sqlite mode', () => {
  it('is created 0600, its -wal and -shm too, in a pre-created 0755 directory under umask 0', () => {
    const dir = path.join(tmp.dir, 'made-0755');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    const db = underUmask0(() => openDatabase(dir));
    try {
      db.prepare('CREATE TABLE IF NOT EXISTS t (x)').run();
      db.prepare('INSERT INTO t VALUES (1)').run();
      for (const f of files(dir)) expect([f, modeOf(f)]).toEqual([f, '600']);
    } finally {
      db.close();
    }
    expect(modeOf(dir)).toBe('755'); // the directory is the installer's: left as it was
  });

  it('a database an earlier version left 0644 is tightened to 0600 when opened for writing', () => {
    const dir = path.join(tmp.dir, 'old');
    const first = openDatabase(dir);
    first.prepare('CREATE TABLE IF NOT EXISTS t (x)').run();
    // Opened once more while open: the -wal and -shm exist, all three made readable by others.
    for (const f of files(dir)) fs.chmodSync(f, 0o644);
    const again = openDatabase(dir);
    try {
      for (const f of files(dir)) expect([f, modeOf(f)]).toEqual([f, '600']);
      expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    } finally {
      again.close();
      first.close();
    }
  });
});

describe('export files mode', () => {
  it('an export is written 0600 under umask 0 in a world-readable folder (it holds CPFs and names)', async () => {
    const { ExportFile } = await import('../../src/agent/host/export-file.js');
    const dir = path.join(tmp.dir, 'exports');
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    const file = path.join(dir, 'AFD.txt');
    const old = process.umask(0);
    try {
      const out = await ExportFile.create(file);
      await out.write(Buffer.from('x'));
      await out.place();
    } finally {
      process.umask(old);
    }
    expect(modeOf(file)).toBe('600');
  });
});
