import type { Db, WritableDb } from '../database.js';

/**
 * The tables behind the cached roster. A sync fills `roster_staging`; the swap renames it to
 * `roster_employees` (the old one to `roster_retired_<n>`) in one short transaction, so no row is
 * copied; the retired table is then emptied in small batches and dropped (`reclaimStep`).
 *
 * SQLite's index names are global and follow a renamed table: each new staging table is a clone
 * of the table in use (columns and every index, whatever migrations gave it) whose indexes carry a
 * generation tag of their own, `roster_g<n>_…`. Prepared statements naming roster_employees are
 * re-prepared by SQLite on the schema change and then read the new table.
 */
export const IN_USE = 'roster_employees';
export const STAGING = 'roster_staging';
const RETIRED = 'roster_retired_';

/** Rows deleted from a retired table per step: a few ms of work and one commit. */
export const RECLAIM_ROWS = 500;

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };

const quoted = (n: string) => `"${n.replace(/"/g, '""')}"`;

/** The highest generation tag or retired number in the schema: names made from it + 1 never clash. */
function lastGeneration(db: Db): number {
  const rows = db
    .prepare(`SELECT name FROM sqlite_master WHERE name GLOB 'roster_g[0-9]*' OR name GLOB '${RETIRED}[0-9]*'`)
    .all() as { name: string }[];
  let max = 0;
  for (const { name } of rows) {
    const m = /^roster_(?:g(\d+)_|retired_(\d+)$)/.exec(name);
    if (m) max = Math.max(max, Number(m[1] ?? m[2]));
  }
  return max;
}

/** CREATE statements of the table in use, rewritten for a new staging table of generation `gen`. */
function cloneStatements(db: Db, gen: number): string[] {
  const rows = db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type = 'index'",
    )
    .all(IN_USE) as SchemaRow[];
  const table = rows.find((r) => r.type === 'table');
  if (!table?.sql) throw new Error(`no ${IN_USE} table to clone`);
  const tableName = /^CREATE TABLE\s+(?:"(?:[^"]|"")+"|\w+)/i;
  const out = [table.sql.replace(tableName, `CREATE TABLE ${STAGING}`)];
  for (const r of rows) {
    if (r.type !== 'index' || !r.sql) continue;
    // The same index under this generation's name: roster_by_cpf / roster_g7_by_cpf → roster_g8_by_cpf.
    const base = r.name.replace(/^roster_(g\d+_)?/, '');
    const head = /^CREATE\s+(UNIQUE\s+)?INDEX\s+(?:"(?:[^"]|"")+"|\w+)\s+ON\s+(?:"(?:[^"]|"")+"|\w+)/i;
    if (!head.test(r.sql)) throw new Error(`cannot clone index ${r.name}: ${r.sql}`);
    out.push(
      r.sql.replace(
        head,
        (_m, unique: string | undefined) =>
          `CREATE ${unique ? 'UNIQUE ' : ''}INDEX roster_g${gen}_${base} ON ${STAGING}`,
      ),
    );
  }
  return out;
}

/**
 * Renames the staging table out of the way (its rows are reclaimed later) and creates an empty
 * one. Call inside a transaction. Cheap whatever the staging table holds.
 */
export function retireStaging(db: WritableDb): void {
  const gen = lastGeneration(db) + 1;
  db.exec(`ALTER TABLE ${STAGING} RENAME TO ${RETIRED}${gen}`);
  for (const sql of cloneStatements(db, gen + 1)) db.exec(sql);
}

/**
 * The swap itself: staging becomes the roster in use, the old one is retired, a fresh staging
 * table is cloned. Call inside a transaction: it is all or nothing, and costs the same (a few
 * schema rows) whatever the size of either roster.
 */
export function swapTables(db: WritableDb): void {
  const gen = lastGeneration(db) + 1;
  db.exec(`ALTER TABLE ${IN_USE} RENAME TO ${RETIRED}${gen}`);
  db.exec(`ALTER TABLE ${STAGING} RENAME TO ${IN_USE}`);
  for (const sql of cloneStatements(db, gen + 1)) db.exec(sql);
}

/** Retired tables still holding pages (a crash or a stop may leave some: reclaimed at the next start). */
export function retiredTables(db: Db): string[] {
  const rows = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB '${RETIRED}[0-9]*' ORDER BY name`)
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

/**
 * One bounded step of freeing retired tables. Dropping a 100,000-employee table at once frees every
 * page of it and its indexes in one statement (45–160 ms measured), and deleting its rows with the
 * indexes still there dirties index pages all over the file; so: its indexes dropped one a step
 * (each a few ms), then its rows deleted in rowid order, `rows` a step, then the empty table
 * dropped. Returns false when no retired table is left.
 */
export function reclaimStep(db: WritableDb, rows = RECLAIM_ROWS): boolean {
  const table = retiredTables(db)[0];
  if (table === undefined) return false;
  const index = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL LIMIT 1")
    .get(table) as { name: string } | undefined;
  const q = quoted(table);
  if (index) db.exec(`DROP INDEX ${quoted(index.name)}`);
  else if (
    db.prepare(`DELETE FROM ${q} WHERE rowid IN (SELECT rowid FROM ${q} ORDER BY rowid LIMIT ?)`).run(rows).changes ===
    0
  )
    db.exec(`DROP TABLE ${q}`);
  return true;
}

/** WAL frames that trigger a checkpoint inside a staged page's commit (SQLite's default: 1,000). */
export const STAGING_CHECKPOINT_PAGES = 250;

/**
 * Returns a runner for work nobody was promised durably (a staged page, a reclaim step), with
 * synchronous=NORMAL: its commits skip the fsync (in WAL mode a crash of the process loses none of
 * it, a power cut at most what was committed since the last FULL commit or checkpoint, and it is
 * done again); and with checkpoints every STAGING_CHECKPOINT_PAGES: a sync writes the log fast, and
 * SQLite's checkpoint of 1,000 pages (a copy and an fsync, inside a commit) stalled the loop for
 * 25–53 ms. `elsewhere`: no checkpoint inside its commits at all, the caller has them done off the
 * loop (roster-checkpoints.ts) between two runs. Inside a transaction nothing changes: the outer
 * commit decides.
 *
 * The pragmas are prepared afresh each time (`exec`, `pragma`): SQLite applies a setting pragma
 * when it compiles it and reads a pragma's value then too, so a statement prepared once and run
 * again neither sets nor reads anything (the runner once kept FULL and 1,000 for every page).
 */
export function relaxedCommits(db: WritableDb): <T>(fn: () => T, elsewhere?: boolean) => T {
  return (fn, elsewhere = false) => {
    if (db.inTransaction) return fn();
    const was = {
      sync: db.pragma('synchronous', { simple: true }) as number,
      checkpointAt: db.pragma('wal_autocheckpoint', { simple: true }) as number,
    };
    // 0: checkpoints are someone else's (a worker's) for now; left so.
    const to = elsewhere ? 0 : STAGING_CHECKPOINT_PAGES;
    const lower = was.checkpointAt > to;
    db.exec('PRAGMA synchronous = NORMAL');
    if (lower) db.exec(`PRAGMA wal_autocheckpoint = ${to}`);
    try {
      return fn();
    } finally {
      db.exec(`PRAGMA synchronous = ${was.sync}`);
      if (lower) db.exec(`PRAGMA wal_autocheckpoint = ${was.checkpointAt}`);
    }
  };
}
