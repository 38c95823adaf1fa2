import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Clock } from '../../domain/time/clock.js';
import { DB_FILE_NAME, ensureDataDir, StoreError } from '../database.js';
import { lockDataDir, lockOwner, type DataDirLock } from './lock.js';
import { migrations } from '../migrations.js';
import {
  readPrivateFile,
  removePrivateFile,
  syncDir,
  TOKEN_ENC_FILE_NAME,
  TOKEN_FILE_NAME,
  writePrivateFile,
} from '../private-file.js';
import { NSR_SIDECAR_FILE } from '../journal/journal-nsr.js';

/**
 * Moving a queue left in another data directory (the per-user one of earlier versions) into this
 * one, so switching a box between the screen and the headless mode strands no punch. The database
 * is copied with SQLite's online backup (consistent even with a WAL beside it), the token files
 * and the terminal's id (when the target has none) beside it first, and the copy renamed into place last: a crash
 * leaves nothing adopted or all of
 * it. The old directory is renamed, never deleted, so an operator can still look at it.
 */
export type Adoption =
  | { outcome: 'adopted'; from: string; to: string; renamedTo: string; total: number; waiting: number; message: string }
  /** `from` holds no database. */
  | { outcome: 'nothing'; message: string }
  | { outcome: 'not-adopted'; reason: NotAdoptedReason; message: string };

/**
 * target-has-data: `to` has its own database (never touched); in-use / target-in-use: an agent runs
 * on that directory; unusable: the old queue cannot be read, or `from` cannot be renamed; failed: an
 * error while copying (nothing adopted).
 */
export type NotAdoptedReason = 'target-has-data' | 'in-use' | 'target-in-use' | 'unusable' | 'failed';

/** The files that go with the database: the token, and the evidence journal's NSR reservation (journal-nsr.ts). */
const TOKEN_FILES = [TOKEN_FILE_NAME, TOKEN_ENC_FILE_NAME, NSR_SIDECAR_FILE];
const TMP_PREFIX = `.${DB_FILE_NAME}.adopting-`;
/**
 * The terminal's stable id (config-terminal-id.ts TERMINAL_ID_FILE): it goes with the queue, so the
 * terminal keeps its name in the fleet; a target that has an id of its own keeps it.
 */
const TERMINAL_ID_FILE = 'terminal-id';

class NotAdopted extends Error {
  constructor(
    readonly reason: NotAdoptedReason,
    message: string,
  ) {
    super(message);
  }
}

/** Why `from` cannot be adopted into `to` whatever their content (one inside the other), or null. */
export function overlappingDirs(from: string, to: string): string | null {
  const [f, t] = [path.resolve(from), path.resolve(to)];
  if (f === t) return `${from} is the data directory itself`;
  if (t.startsWith(f + path.sep)) return `the data directory ${to} is inside ${from}`;
  if (f.startsWith(t + path.sep)) return `${from} is inside the data directory ${to}`;
  return null;
}

/**
 * Adopts the queue in `from` into `to` when `from` has one and `to` has none; `clock` dates the old directory's new
 * name.
 */
export async function adoptDataDir(from: string, to: string, clock: Clock): Promise<Adoption> {
  const source = path.join(from, DB_FILE_NAME);
  try {
    if (!hasFile(source)) return { outcome: 'nothing', message: `nothing to adopt: no database in ${from}` };
    const overlap = overlappingDirs(from, to);
    if (overlap) throw new NotAdopted('unusable', overlap);
    if (hasFile(path.join(to, DB_FILE_NAME))) throw targetHasData(from, to);
    const owner = lockOwner(from);
    if (owner !== null) throw inUse(from, owner);
    return await withLock(ensureDataDir(to), 'target-in-use', () =>
      withLock(from, 'in-use', () => adoptLocked(from, to, clock)),
    );
  } catch (e) {
    if (e instanceof NotAdopted) return { outcome: 'not-adopted', reason: e.reason, message: e.message };
    return {
      outcome: 'not-adopted',
      reason: 'failed',
      message: `the queue in ${from} was not adopted: ${(e as Error).message}`,
    };
  }
}

/** Both directories locked: no agent can write to the old queue or start on the new one meanwhile. */
async function adoptLocked(from: string, to: string, clock: Clock): Promise<Adoption> {
  const target = path.join(to, DB_FILE_NAME);
  if (hasFile(target)) throw targetHasData(from, to); // an agent made one since the first look
  try {
    fs.accessSync(path.dirname(path.resolve(from)), fs.constants.W_OK);
  } catch (e) {
    throw new NotAdopted(
      'unusable',
      `the queue in ${from} was not adopted: it could not be renamed afterwards (${(e as NodeJS.ErrnoException).code})`,
    );
  }
  for (const name of fs.readdirSync(to))
    if (name.startsWith(TMP_PREFIX)) fs.rmSync(path.join(to, name), { force: true }); // a crashed adoption's
  const tmp = path.join(to, `${TMP_PREFIX}${process.pid}.tmp`);
  let counts: { total: number; waiting: number };
  try {
    await backupInto(path.join(from, DB_FILE_NAME), tmp);
    counts = settleCopy(tmp);
    fsyncFile(tmp);
    for (const name of TOKEN_FILES) copyTokenFile(from, to, name);
    carryTerminalId(from, to);
    // WAL or journal files without a database are orphans; beside the adopted one SQLite would replay them.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(target + suffix, { force: true });
    fs.renameSync(tmp, target);
  } catch (e) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(tmp + suffix, { force: true });
    throw e;
  }
  syncDir(to);
  const renamedTo = freeName(`${path.resolve(from)}.adopted-${utcStamp(clock.now())}`);
  fs.renameSync(from, renamedTo);
  syncDir(path.dirname(renamedTo));
  return {
    outcome: 'adopted',
    from,
    to,
    renamedTo,
    ...counts,
    message: `adopted the queue left in ${from}: ${counts.waiting} punch(es) waiting to be sent, ${counts.total} in all, now in ${to}; the old directory is kept as ${renamedTo}`,
  };
}

async function withLock<T>(dir: string, busy: 'in-use' | 'target-in-use', run: () => Promise<T>): Promise<T> {
  let lock: DataDirLock;
  try {
    lock = lockDataDir(dir);
  } catch (e) {
    if (e instanceof StoreError && e.code === 'locked')
      throw busy === 'in-use'
        ? inUse(dir, lockOwner(dir) ?? -1)
        : new NotAdopted(busy, `nothing was adopted: ${e.message}; stop it first`);
    throw new NotAdopted(busy === 'in-use' ? 'unusable' : 'failed', `nothing was adopted: ${(e as Error).message}`);
  }
  try {
    return await run();
  } finally {
    lock.release();
  }
}

/** SQLite's online backup: a consistent copy of the database with whatever its WAL holds. */
async function backupInto(source: string, tmp: string): Promise<void> {
  let db: Database.Database;
  try {
    db = openChecked(source);
  } catch (e) {
    throw new NotAdopted(
      'unusable',
      `the queue in ${path.dirname(source)} was not adopted: ${source} cannot be read (${(e as Error).message})`,
    );
  }
  try {
    await db.backup(tmp);
  } finally {
    db.close();
  }
}

/** Read-only (the old queue stays as it was), sound, and of a schema this version can migrate. */
function openChecked(source: string): Database.Database {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`failed its integrity check (${String(check)})`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length)
      throw new Error(`a newer timeclock-kiosk wrote it (schema ${version}, this one knows ${migrations.length})`);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The copy made one self-contained file (its header says WAL, as the original's did: opened as it
 * is, it would grow a -wal and -shm under the temp name, left behind by the rename); and what it holds.
 */
function settleCopy(file: string): { total: number; waiting: number } {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const hasPunches = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'punches'").get();
    if (!hasPunches) return { total: 0, waiting: 0 }; // a database never migrated: no punch yet
    const r = db
      .prepare("SELECT COUNT(*) AS total, COALESCE(SUM(state <> 'sent'), 0) AS waiting FROM punches")
      .get() as { total: number; waiting: number };
    // Delivered punches in their compact form (migration 19) are punches it holds too.
    const compact = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'punches_delivered'").get();
    const moved = compact ? (db.prepare('SELECT COUNT(*) AS n FROM punches_delivered').get() as { n: number }).n : 0;
    return { total: r.total + moved, waiting: r.waiting };
  } finally {
    db.close();
  }
}

/**
 * The token as the old directory had it (0600, or none): a token file there that others may read is refused, not
 * copied.
 */
function copyTokenFile(from: string, to: string, name: string): void {
  let content: Buffer | null;
  try {
    content = readPrivateFile(path.join(from, name));
  } catch (e) {
    throw new NotAdopted('unusable', `the queue in ${from} was not adopted: ${(e as Error).message}`);
  }
  if (content === null) removePrivateFile(path.join(to, name));
  else writePrivateFile(path.join(to, name), content);
}

/**
 * `from`'s terminal id into `to` unless `to` has one: a temp copy synced, then linked to the name (which never replaces
 * one).
 */
function carryTerminalId(from: string, to: string): void {
  const source = path.join(from, TERMINAL_ID_FILE);
  const target = path.join(to, TERMINAL_ID_FILE);
  if (!hasFile(source) || hasFile(target)) return;
  const tmp = `${target}.${process.pid}.adopting.tmp`;
  try {
    fs.copyFileSync(source, tmp);
    fs.chmodSync(tmp, 0o644); // no secret: tools may read it, as ensureTerminalIdFile leaves it
    fsyncFile(tmp);
    try {
      fs.linkSync(tmp, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** True when `file` exists; an error other than "not there" (a directory we may not search) is thrown. */
function hasFile(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw new NotAdopted('unusable', `${file} cannot be read (${code ?? (e as Error).message})`);
  }
}

function targetHasData(from: string, to: string): NotAdopted {
  return new NotAdopted(
    'target-has-data',
    `the old data directory ${from} still holds a queue and was not adopted: ${to} already has its own database (left as it is)`,
  );
}

function inUse(dir: string, pid: number): NotAdopted {
  return new NotAdopted(
    'in-use',
    `the queue in ${dir} was not adopted: a running timeclock agent${pid > 0 ? ` (pid ${pid})` : ''} is using it; stop that agent first`,
  );
}

/** 2024-05-06T07:08:09.123Z → 20240506T070809Z */
function utcStamp(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

function freeName(base: string): string {
  let name = base;
  for (let n = 2; fs.existsSync(name); n++) name = `${base}-${n}`;
  return name;
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
