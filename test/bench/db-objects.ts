/**
 * Where a database's bytes go: each table's and index's pages (SQLite's dbstat), and what the
 * punches table costs beside the journal. Used by the journal archive bench (the size goal is the
 * whole database file, not only the journal's rows).
 */
import { localDateTime } from '../../src/domain/local-time.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { tempDir } from './support.js';

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
 * `n` punches written as the terminal writes them (Outbox.insert with its journal mark, then
 * delivered with the service's id), 500 employees 4 times a day: each table's and index's bytes
 * per punch. The punches table keeps delivered punches retention.deliveredDays (default 90).
 */
export function punchRowCosts(n: number): { name: string; perPunch: number }[] {
  const t = tempDir('timeclock-bench-punch-rows-');
  try {
    const db = openDatabase(t.dir);
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
      });
      journal.settle();
      if (r.inserted)
        outbox.markSent(
          r.id,
          at + 2_000,
          (BigInt(i + 7) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24),
          'created',
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
