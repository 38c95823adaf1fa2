/**
 * Migrations keep data: at every version, one row is written into every table the schema has then
 * (every column filled), the next migration runs, and each row reads back with the values it had.
 * The tables a migration derives from others (punch and badge counts) are checked against them.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, migrate, openDatabase, type Db } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

type Column = { name: string; type: string; pk: number };
type Row = Record<string, unknown>;

/** Filled by the migrations themselves (seeded counts, the journal's one row), not by hand. */
const DERIVED = new Set(['punch_counts', 'badge_count', 'journal_meta']);
/** A staging table holds a sync in progress; migration 10 drops it and makes it again, empty, by design. */
const EMPTIED_BY = new Map<number, string[]>([[10, ['roster_staging']]]);

const tablesOf = (db: Db): string[] =>
  (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as { name: string }[]
  ).map((r) => r.name);
const columnsOf = (db: Db, table: string): Column[] =>
  db.prepare(`SELECT name, type, pk FROM pragma_table_info(?)`).all(table) as Column[];
const rowsOf = (db: Db, table: string, columns: readonly string[]): Row[] =>
  // Ordered by every column: some tables have no rowid.
  db
    .prepare(
      `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}" ORDER BY ${columns.map((_, i) => i + 1).join(', ')}`,
    )
    .all() as Row[];

/** A value for every column, distinct per version, that the schema's checks accept. */
function valueFor(table: string, c: Column, version: number, punchId: number): unknown {
  if (c.name === 'state') return 'pending';
  if (c.name === 'punch_id') return punchId;
  if (c.name === 'line') return 'x'.repeat(137);
  if (c.name === 'one') return 1;
  const type = c.type.toUpperCase();
  if (type.includes('INT')) return version * 1_000 + columnsSeed(table, c.name);
  if (type.includes('REAL')) return version + 0.5;
  if (type.includes('BLOB')) return Buffer.from(`v${version}-${c.name}`);
  return `v${version}-${table}-${c.name}`;
}
const columnsSeed = (table: string, column: string): number =>
  [...`${table}.${column}`].reduce((n, ch) => (n * 31 + ch.charCodeAt(0)) % 997, 7);

/** One row in every (hand-written) table at this version; punches first, so the journal can name one. */
function seed(db: Db, version: number): void {
  const punchId = version * 1_000 + columnsSeed('punches', 'id');
  const tables = tablesOf(db).filter((t) => !DERIVED.has(t) && !t.startsWith('journal_'));
  tables.sort((a, b) => (a === 'punches' ? -1 : b === 'punches' ? 1 : a.localeCompare(b)));
  for (const table of tables) {
    const cols = columnsOf(db, table);
    const values = cols.map((c) =>
      table === 'punches' && c.name === 'id' ? punchId : valueFor(table, c, version, punchId),
    );
    // A one-row table (`one = 1`) keeps the row of the version that made it.
    const verb = cols.some((c) => c.name === 'one') ? 'INSERT OR IGNORE' : 'INSERT';
    db.prepare(
      `${verb} INTO "${table}" (${cols.map((c) => `"${c.name}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ).run(...values);
  }
}

/** A file at `version`, with rows written at each version on the way. */
function fileAt(version: number): { dir: string; db: Db } {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const db = new Database(path.join(t.dir, DB_FILE_NAME));
  cleanups.push(() => db.open && db.close());
  // As migrate() runs them: a migration that rebuilds a table others reference needs this off.
  db.pragma('foreign_keys = OFF');
  for (let v = 0; v < version; v++) {
    db.exec(migrations[v] as string);
    db.pragma(`user_version = ${v + 1}`);
    seed(db, v + 1);
  }
  return { dir: t.dir, db };
}

describe('migrations keep the rows of the version before', () => {
  it.each(migrations.slice(1).map((_, i) => i + 1))(
    'rows written at version %i read the same after migration to the next',
    (version) => {
      const { db } = fileAt(version);
      const before = new Map(tablesOf(db).map((t) => [t, columnsOf(db, t).map((c) => c.name)] as const));
      const snapshot = new Map([...before].map(([t, cols]) => [t, rowsOf(db, t, cols)] as const));
      expect([...snapshot.values()].some((rows) => rows.length > 0)).toBe(true);

      db.exec(migrations[version] as string);
      db.pragma(`user_version = ${version + 1}`);

      const after = new Set(tablesOf(db));
      const emptied = EMPTIED_BY.get(version + 1) ?? [];
      for (const [table, cols] of before) {
        expect(after.has(table), `table ${table} kept by migration ${version + 1}`).toBe(true);
        if (emptied.includes(table)) continue;
        expect(rowsOf(db, table, cols), `${table} after migration ${version + 1}`).toEqual(snapshot.get(table));
      }
      expect(db.pragma('foreign_key_check')).toEqual([]);
    },
  );

  it('the counts migrations derive agree with the rows they count', () => {
    const at8 = fileAt(8).db;
    const byState = at8.prepare('SELECT state, COUNT(*) AS n FROM punches GROUP BY state ORDER BY state').all();
    expect(at8.prepare('SELECT state, n FROM punch_counts WHERE n > 0 ORDER BY state').all()).toEqual(byState);
    const at10 = fileAt(10).db;
    expect(at10.prepare('SELECT n FROM badge_count').pluck().get()).toBe(
      at10.prepare('SELECT COUNT(*) FROM badge_enrollments').pluck().get(),
    );
  });

  it('a file with rows of every version opens and migrates to the latest with them all', () => {
    const { dir, db } = fileAt(migrations.length - 1);
    const punches = db.prepare('SELECT id, state FROM punches ORDER BY id').all();
    db.close();
    const migrated = openDatabase(dir);
    cleanups.push(() => migrated.close());
    expect(migrated.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(migrated.prepare('SELECT id, state FROM punches ORDER BY id').all()).toEqual(punches);
    expect(punches).toHaveLength(migrations.length - 1);
    migrate(migrated);
  });
});
