/**
 * Where a database's bytes go: each table's and index's pages (SQLite's dbstat), and what the
 * punches table costs beside the journal. Used by the journal archive bench (the size goal is the
 * whole database file, not only the journal's rows).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { DB_FILE_NAME, openDatabase, type Db, type DurableDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { chainTailsFor } from '../helpers/journal.js';
import { tempDir } from './support.js';

/** A kernel boot id (/proc/sys/kernel/random/boot_id): what every punch row carries from its capture. */
export const BOOT_ID = '6f1c2d3e-4a5b-4c7d-8e9f-0a1b2c3d4e5f';

/** Bytes of each table and index in the file (pages, free space inside them included), largest first. */
export function objectBytes(db: Db): { name: string; bytes: number }[] {
  return db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as {
    name: string;
    bytes: number;
  }[];
}

/** The payload bytes of each column of `table` over its rows (SQLite's own sizes: a record's header not included). */
export function columnBytes(db: Db, table: string): { column: string; bytes: number }[] {
  const cols = (
    db.prepare(`SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0`).all(table) as { name: string }[]
  ).map((c) => c.name);
  return cols.map((c) => ({
    column: c,
    bytes: (
      db
        .prepare(
          `SELECT COALESCE(SUM(CASE WHEN typeof("${c}") = 'integer' THEN (CASE WHEN "${c}" IN (0, 1) THEN 0 WHEN abs("${c}") < 128 THEN 1 WHEN abs("${c}") < 32768 THEN 2 WHEN abs("${c}") < 8388608 THEN 3 WHEN abs("${c}") < 2147483648 THEN 4 WHEN abs("${c}") < 140737488355328 THEN 6 ELSE 8 END) WHEN typeof("${c}") IN ('text', 'blob') THEN length(CAST("${c}" AS BLOB)) WHEN typeof("${c}") = 'real' THEN 8 ELSE 0 END), 0) AS b FROM "${table}"`,
        )
        .get() as { b: number }
    ).b,
  }));
}

/**
 * A database with the schema of version `version` (migrations 1..version only), opened as the store
 * opens its files: the layout an earlier release left, for a before/after in the same run.
 */
export function databaseAtVersion(dir: string, version: number): DurableDb {
  const db = new Database(path.join(dir, DB_FILE_NAME));
  db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.transaction(() => {
    for (const m of migrations.slice(0, version)) db.exec(m);
    db.pragma(`user_version = ${version}`);
  })();
  return db as unknown as DurableDb;
}

/**
 * `n` punches written as the terminal writes them (Outbox.insert with its journal mark and the clock
 * readings, then sending and delivered with the service's id), 500 employees 4 times a day: each
 * table's and index's bytes per punch, in a database of the current schema or of `version`'s.
 */
export function punchRowCosts(n: number, version?: number): { name: string; perPunch: number }[] {
  const t = tempDir('timeclock-bench-punch-rows-');
  try {
    const db = version === undefined ? openDatabase(t.dir) : databaseAtVersion(t.dir, version);
    // Today's journal seals through migration 18's chain tails (journal_* objects, not counted before it).
    if (version !== undefined && version < 18) chainTailsFor(db);
    const journal = new EvidenceJournal(db);
    journal.open();
    const outbox = new Outbox(db, db, journal);
    const zone = 'America/Sao_Paulo';
    const start = Date.parse('2026-01-01T11:00:00Z');
    for (let i = 0; i < n; i++) {
      const e = i % 500;
      const at =
        start +
        Math.floor(i / 2_000) * 86_400_000 +
        [0, 4, 5, 9][Math.floor(i / 500) % 4]! * 3_600_000 +
        ((i * 7_919) % 1_800) * 1_000;
      const local = localDateTime(at, zone);
      const r = outbox.insert({
        capturedAt: at,
        localDate: local.date,
        localTime: local.time,
        timeZone: zone,
        employeeKey: (BigInt(e + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24),
        employeeExternalId: String(10_000 + e),
        employeeName: `Funcionário Exemplo ${e}`,
        credentialKind: 'badge',
        clockFlag: null,
        cpf: String(10_000_000_000 + e * 7_919_111).slice(0, 11),
        time: { wall: at, mono: at / 1_000, bootId: BOOT_ID, anchored: true },
      });
      journal.settle();
      if (r.inserted) outbox.markSending(r.id, at + 1_000);
      if (r.inserted)
        outbox.markSent(
          r.id,
          at + 2_000,
          (BigInt(i + 7) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24),
          'created',
        );
      // Schema 15's release kept a delivered punch's clock readings (migration 17's delivery drops them): put back.
      if (r.inserted && version !== undefined && version < 16)
        db.prepare('UPDATE punches SET boot_id = ?, mono_at = ?, wall_at = ? WHERE id = ?').run(
          BOOT_ID,
          at / 1_000,
          at,
          r.id,
        );
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const out = objectBytes(db).map((o) => ({ name: o.name, perPunch: o.bytes / n }));
    db.close();
    return out;
  } finally {
    t.cleanup();
  }
}
