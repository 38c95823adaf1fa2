import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations.js';
import { compactJournal } from './journal-compact.js';
import { ownerOnlyDatabaseFile } from './db-file-mode.js';

/** Any connection to the terminal's database: what code that only reads (or works on any handle) takes. */
export type Db = Database.Database;

declare const connectionKind: unique symbol;
/** A connection as it was opened; the brand exists only for the compiler. */
type Opened<K extends string> = Db & { readonly [connectionKind]: K };
/** The main connection, synchronous=FULL: a commit that returned is on disk. The punch path takes only this one. */
export type DurableDb = Opened<'durable'>;
/**
 * The second connection, synchronous=NORMAL: bookkeeping a power cut may undo (rate slots, outbox transitions,
 * retention).
 */
export type BookkeepingDb = Opened<'bookkeeping'>;
/** Opened read-only (`timeclock doctor`, journal and AFD readers): nothing that writes accepts it. */
export type ReadOnlyDb = Opened<'read-only'>;
/** A connection that may write: either of the agent's two. */
export type WritableDb = DurableDb | BookkeepingDb;

/** Raised when the terminal's database cannot be used; the message says what to do. */
export class StoreError extends Error {
  constructor(
    message: string,
    readonly code: 'unwritable' | 'corrupt' | 'too_new' | 'locked' | 'io' | 'migration',
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

export const DB_FILE_NAME = 'timeclock.sqlite';

/** Creates the data directory (owner-only) if needed and checks that it can be written. */
export function ensureDataDir(dataDir: string): string {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (e) {
    throw new StoreError(
      `data directory ${dataDir} is not writable: ${realCause(dataDir, e as NodeJS.ErrnoException)}`,
      'unwritable',
    );
  }
  return dataDir;
}

/**
 * A recursive mkdir reports ENOENT even when the real trouble is a read-only filesystem or a
 * file in the way; ask the nearest existing ancestor, so the installer reads the true reason.
 */
function realCause(dir: string, e: NodeJS.ErrnoException): string {
  if (e.code !== 'ENOENT') return e.message;
  let p = path.resolve(dir);
  while (!fs.existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
  try {
    if (!fs.statSync(p).isDirectory()) return `${p} is a file, not a directory`;
    fs.accessSync(p, fs.constants.W_OK);
  } catch (inner) {
    const code = (inner as NodeJS.ErrnoException).code;
    return code === 'EROFS' ? `${p} is on a read-only filesystem` : (inner as Error).message;
  }
  return e.message;
}

/**
 * `integrityCheck`: also run SQLite's quick_check, which reads the whole file (seconds on a year of
 * punches with a cold cache): only `timeclock doctor`, the explicit full check, asks for it. The
 * agent checks in the background instead (store/upkeep/integrity-check.ts).
 */
export type OpenOptions = { readonly?: boolean; integrityCheck?: boolean };
type OpenWritable = OpenOptions & { readonly?: false };
type OpenReadOnly = OpenOptions & { readonly: true };

/**
 * The write-ahead log is cut back to this after a checkpoint: a retention pass once grew it, it need not stay grown.
 */
export const WAL_SIZE_LIMIT = 8 * 1024 * 1024;

/** How many of quick_check's findings are kept: the first ones say enough. */
export const INTEGRITY_PROBLEMS_KEPT = 10;

/**
 * Opens (creating if needed) the terminal's database in `dataDir`, checks what is cheap to check,
 * and migrates it. WAL + synchronous=FULL: a commit that returned is on disk, so an acknowledged
 * punch survives kill -9 and power loss. A file that is not a database, a schema that cannot be
 * read or one too new is refused here; damage deeper in the file is found by the check the agent
 * runs in the background after it starts, and shown in status.
 */
export function openDatabase(dataDir: string, opts?: OpenWritable): DurableDb;
export function openDatabase(dataDir: string, opts: OpenReadOnly): ReadOnlyDb;
export function openDatabase(dataDir: string, opts: OpenOptions): DurableDb | ReadOnlyDb;
export function openDatabase(dataDir: string, opts: OpenOptions = {}): DurableDb | ReadOnlyDb {
  const file = path.join(dataDir, DB_FILE_NAME);
  if (!opts.readonly) {
    ensureDataDir(dataDir);
    try {
      ownerOnlyDatabaseFile(file);
    } catch (e) {
      throw new StoreError(`cannot create ${file}: ${(e as Error).message}`, 'io');
    }
  } else if (!fs.existsSync(file)) {
    throw new StoreError(`no database at ${file} (has the terminal ever run with this data directory?)`, 'io');
  }

  let db: Db;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  } catch (e) {
    throw new StoreError(`cannot open ${file}: ${(e as Error).message}`, 'io');
  }
  try {
    db.pragma('busy_timeout = 5000');
    // better-sqlite3 builds SQLite with a 16 MB page cache per connection; 4 MB keeps lookups in
    // a 100,000-employee roster far under a millisecond and the terminal's memory small.
    db.pragma('cache_size = -4000');
    if (!opts.readonly) {
      // A new file: pages freed by retention can then be given back (store/upkeep/retention.ts). Only
      // before its first page is written (switching WAL on writes one); a file of an earlier
      // version changes mode by one VACUUM (`timeclock data compact`).
      if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('auto_vacuum = INCREMENTAL');
      db.pragma('journal_mode = WAL');
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      db.pragma('synchronous = FULL');
    }
    db.pragma('foreign_keys = ON');
    // Reads the header and parses the schema (page 1): a file that is not a database, or whose
    // schema is damaged, fails here, in well under a millisecond.
    db.pragma('schema_version', { simple: true });
    if (opts.integrityCheck) {
      const problems = quickCheck(db);
      if (problems.length > 0) {
        throw new StoreError(
          `database ${file} failed its integrity check (${problems.join('; ')}). Nothing was changed. ` +
            `Stop the terminal, copy the file aside for support, and see README "Troubleshooting".`,
          'corrupt',
        );
      }
    }
    if (!opts.readonly) {
      const before = db.pragma('user_version', { simple: true }) as number;
      migrate(db);
      // Migration 14's copy of older journal rows, a batch per transaction (a no-op once done).
      const moved = compactJournal(db as WritableDb);
      // Migrations rewrite the schema (and the copy every journal row) into the log: give its space back
      // at once rather than at the first checkpoint, on a disk that may have little to spare.
      if (before !== migrations.length || moved.marks + moved.facts > 0) db.pragma('wal_checkpoint(TRUNCATE)');
    } else assertKnownVersion(db);
  } catch (e) {
    db.close();
    if (e instanceof StoreError) throw e;
    const msg = (e as Error).message;
    if (/not a database|malformed|corrupt/i.test(msg)) {
      throw new StoreError(
        `database ${file} is damaged (${msg}). Nothing was changed; see README "Troubleshooting".`,
        'corrupt',
      );
    }
    throw new StoreError(`cannot use ${file}: ${msg}`, 'io');
  }
  return opts.readonly ? (db as ReadOnlyDb) : (db as DurableDb);
}

/** SQLite's quick_check on the whole file: [] when sound, else its first findings. Blocks for the whole read. */
export function quickCheck(db: Db, max = INTEGRITY_PROBLEMS_KEPT): string[] {
  const rows = db.pragma(`quick_check(${max})`) as { quick_check: string }[];
  const found = rows.map((r) => r.quick_check);
  return found.length === 1 && found[0] === 'ok' ? [] : found;
}

/**
 * A second connection to an already opened and migrated database, with synchronous=NORMAL, for
 * bookkeeping that need not cost an fsync of its own (rate-window slots, outbox transitions after
 * an answer, which reconciliation repairs if a power cut undoes them). In WAL mode its
 * commits survive a crash of the process at once, and a power loss from the next FULL commit of
 * the main connection on, which syncs the same log.
 */
export function openBookkeepingConnection(dataDir: string): BookkeepingDb {
  const db = new Database(path.join(dataDir, DB_FILE_NAME), { fileMustExist: true }) as BookkeepingDb;
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -1000');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  return db;
}

function assertKnownVersion(db: Db): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    throw new StoreError(
      `database schema version ${version} is newer than this program knows (${migrations.length}); ` +
        `a newer timeclock-kiosk wrote it. Install that version again rather than risk the data.`,
      'too_new',
    );
  }
  return version;
}

/**
 * Runs the missing migrations. Foreign keys are off meanwhile (SQLite's way of rebuilding a table
 * that others reference: the pragma cannot change inside a transaction) and checked before each
 * commit, so a migration can never leave a dangling reference behind.
 */
export function migrate(db: Db): void {
  const version = assertKnownVersion(db);
  if (version === migrations.length) return;
  const fk = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (let v = version; v < migrations.length; v++) {
      db.transaction(() => {
        db.exec(migrations[v] as string);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0)
          throw new StoreError(
            `migration ${v + 1} would leave ${broken.length} broken references; nothing was changed`,
            'migration',
          );
        db.pragma(`user_version = ${v + 1}`);
      })();
    }
  } finally {
    db.pragma(`foreign_keys = ${fk ? 'ON' : 'OFF'}`);
  }
}

/** True when an error from SQLite means the disk (or the file's size limit) is full. */
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return code === 'SQLITE_FULL' || (e instanceof Error && /disk is full|database or disk is full/i.test(e.message));
}
