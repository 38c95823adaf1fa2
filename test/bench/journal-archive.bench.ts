/**
 * Five years on a small disk (issue 26 item 9): a year of a 500-employee site (4 punches a day,
 * 730,000 punches) written as the terminal writes them (Outbox: the punch row with its clock
 * readings and its mark, then sending and delivered with the service's id and its 'delivered' fact),
 * with the real retention pass (agent/journal/retention-watch.ts: delivered punches, their delivery log,
 * the journal's archiving in agent/journal/journal-archiver.ts, the freed pages given back) after every
 * day, with the default settings. Measures: the whole database file at the end of the year and its
 * peak, each table's and index's bytes, the archives' bytes per punch, five years (the database plus
 * five years of archives), the event loop's longest wait while archiving. In the same run: the same
 * rows kept whole, measured on a tenth of the year (scaled); and before migration 17 (schema version 15
 * and its 90-day retention: a sample written through the outbox at that layout, per punch, beside the
 * journal's rows measured at the end).
 *
 * TIMECLOCK_BENCH_ARCHIVE_DAYS: days simulated (default 365). TIMECLOCK_BENCH_ARCHIVE_AFTER_DAYS: the
 * horizon (journal.archiveAfterDays, default 90).
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { archiveJournal } from '../../src/agent/journal/journal-archiver.js';
import { RetentionWatch } from '../../src/agent/journal/retention-watch.js';
import { silentLogger } from '../../src/log.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
import { DEFAULT_RETENTION, RetentionStore } from '../../src/store/upkeep/retention.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { DB_FILE_NAME, openBookkeepingConnection, openDatabase, type DurableDb } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { ARCHIVE_DIR_NAME } from '../../src/store/journal/journal-archive.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import type { Result } from './report.js';
import { SqliteSteps, type Step } from './sqlite-steps.js';
import { tempDir } from './support.js';
import { archiveReport } from './journal-archive-report.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { BOOT_ID, columnBytes, objectBytes, punchRowCosts } from './db-objects.js';

const EMPLOYEES = 500;
const PER_DAY = 4;
const YEAR_PUNCHES = EMPLOYEES * PER_DAY * 365;
const ZONE = 'America/Sao_Paulo';
const START = Date.parse('2026-01-01T03:00:00Z');
const DAY_MS = 86_400_000;

/** A valid-looking CPF per employee (the mark keeps 11 digits; check digits do not matter to the size). */
const cpfOf = (e: number) => String(10_000_000_000 + e * 7_919_111).slice(0, 11);
/** A service _id: 24 hex characters, as random as the service's. */
const randomId = (n: number) => (BigInt(n) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24);

/** The service's _id of an employee: 24 hex characters. */
const employeeKeyOf = (e: number) => (BigInt(e + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24);

/**
 * One day of punches: each employee at 08:00, 12:00, 13:00 and 17:00 local, give or take minutes,
 * each captured, sent and delivered through the outbox as the uploader does it (one transaction a day
 * here: the bench measures bytes, not fsyncs).
 */
function writeDay(db: DurableDb, journal: EvidenceJournal, outbox: Outbox, day: number, counter: { n: number }): void {
  db.transaction(() => {
    journal.reserveNsr(EMPLOYEES * PER_DAY); // a day's NSRs at once, as a block
    for (const base of [8, 12, 13, 17]) {
      for (let e = 0; e < EMPLOYEES; e++) {
        const n = counter.n++;
        const at = START + day * DAY_MS + (base - 0) * 3_600_000 + ((n * 7_919) % 1_800) * 1_000;
        const local = localDateTime(at, ZONE);
        const r = outbox.insert({
          capturedAt: at,
          localDate: local.date,
          localTime: local.time,
          timeZone: ZONE,
          employeeKey: employeeKeyOf(e),
          employeeExternalId: String(10_000 + e),
          employeeName: `Funcionário Exemplo ${e}`,
          credentialKind: 'badge',
          clockFlag: null,
          cpf: cpfOf(e),
          chain: e % 10 === 0 ? 'cnpj:11444777000161' : '',
          time: { wall: at, mono: at / 1_000, bootId: BOOT_ID, anchored: true },
        });
        if (!r.inserted) throw new Error(`punch ${n} was taken as a repeat`);
        outbox.markSending(r.id, at + 1_000);
        outbox.markSent(r.id, at + 2_000 + (n % 900), randomId(n), 'created');
      }
    }
  }).immediate();
  journal.settle();
}

const dbBytes = (dir: string) =>
  ['', '-wal'].reduce(
    (s, x) =>
      s + (fs.existsSync(path.join(dir, DB_FILE_NAME + x)) ? fs.statSync(path.join(dir, DB_FILE_NAME + x)).size : 0),
    0,
  );
const dirBytes = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0) : 0;

function freePages(db: DurableDb): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) db.pragma('incremental_vacuum');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * The event loop's longest delay while `run` runs (perf_hooks.monitorEventLoopDelay at 1 ms
 * resolution, its max): how long the loop was kept from other work, a capture's screen included.
 */
async function loopStall<T>(run: () => Promise<T>): Promise<{ value: T; maxMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  try {
    const value = await run();
    return { value, maxMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

/** The same rows without archiving, for `days` days: bytes per punch. */
function baseline(days: number): { punches: number; bytes: number; perPunch: number } {
  const t = tempDir('timeclock-bench-archive-base-');
  try {
    const db = openDatabase(t.dir);
    const journal = new EvidenceJournal(db);
    journal.open();
    const outbox = new Outbox(db, db, journal);
    const counter = { n: 0 };
    for (let day = 0; day < days; day++) writeDay(db, journal, outbox, day, counter);
    freePages(db);
    db.close();
    const bytes = dbBytes(t.dir);
    return { punches: counter.n, bytes, perPunch: bytes / counter.n };
  } finally {
    t.cleanup();
  }
}

export async function benchJournalArchive(): Promise<Result> {
  const days = Math.max(120, Number(process.env.TIMECLOCK_BENCH_ARCHIVE_DAYS ?? 365));
  const base = baseline(Math.ceil(days / 10));
  const t = tempDir('timeclock-bench-archive-');
  try {
    const db = openDatabase(t.dir);
    const journal = new EvidenceJournal(db);
    journal.open();
    const outbox = new Outbox(db, db, journal);
    // The pass on the bookkeeping connection, as the agent runs it (agent/background-watches.ts):
    // what a power cut undoes, the next pass does again, so its commits skip the fsync.
    const book = openBookkeepingConnection(t.dir);
    const counter = { n: 0 };
    const afterDays = Number(process.env.TIMECLOCK_BENCH_ARCHIVE_AFTER_DAYS ?? 90);
    const sqlSteps = new SqliteSteps();
    let longestSql: Step[] = [];
    let stall = 0;
    let quietStall = 0;
    const stalls: number[] = [];
    db.pragma('wal_checkpoint(TRUNCATE)');
    let peak = 0;
    let longestStep = 0;
    let archiveMs = 0;
    let archived = 0;
    const t0 = performance.now();
    for (let day = 0; day < days; day++) {
      writeDay(db, journal, outbox, day, counter);
      const now = START + (day + 1) * DAY_MS;
      const a0 = performance.now();
      // The retention pass as the agent runs it: its checkpoints in a worker, the archiving in its steps, then the
      // freed pages given back.
      let r: Awaited<ReturnType<typeof archiveJournal>> | null = null;
      const watch = new RetentionWatch({
        store: new RetentionStore(book),
        policy: DEFAULT_RETENTION,
        clock: { now: () => now },
        mono: () => performance.now(),
        log: silentLogger,
        checkpointer: () => checkpointInWorker(t.dir),
        write: () => undefined,
        changed: () => undefined,
        firstAfterMs: 0,
        everyMs: DAY_MS,
        archive: async (step) =>
          (r = await archiveJournal({
            db: book,
            settings: { archiveAfterDays: afterDays, keepYears: 5 },
            now: () => now,
            mono: () => performance.now(),
            signer: () => null,
            ...step,
          })),
      });
      sqlSteps.install();
      const { value: pass, maxMs } = await loopStall(() => watch.runNow()).finally(() => sqlSteps.uninstall());
      await watch.stop();
      longestSql = [...longestSql, ...sqlSteps.take()].sort((x, y) => y.ms - x.ms).slice(0, 5);
      archiveMs += performance.now() - a0;
      const done = r as Awaited<ReturnType<typeof archiveJournal>> | null;
      if (done && done.archives.length > 0) stalls.push(maxMs);
      else quietStall = Math.max(quietStall, maxMs);
      stall = Math.max(stall, maxMs);
      archived += done?.marks ?? 0;
      longestStep = Math.max(longestStep, pass.longestBatchMs);
      peak = Math.max(peak, dbBytes(t.dir));
    }
    const writeAndArchiveMs = performance.now() - t0;
    book.close();
    freePages(db);
    const v = await verifyJournal(db);
    const inDb = (db.prepare('SELECT COUNT(*) AS n FROM journal_marks').get() as { n: number }).n;
    // Both forms of a punch (migration 19: delivered ones move into punches_delivered once their log is gone).
    const punchesInDb = (db.prepare('SELECT COUNT(*) AS n FROM punch_history').get() as { n: number }).n;
    const logLines = (db.prepare('SELECT COUNT(*) AS n FROM punch_journal').get() as { n: number }).n;
    const objects = objectBytes(db).filter((o) => o.bytes > 8_192);
    const columns = {
      marks: columnBytes(db, 'journal_marks'),
      facts: columnBytes(db, 'journal_facts'),
      punches: columnBytes(db, 'punches'),
    };
    db.close();
    const dbEnd = dbBytes(t.dir);
    const archives = dirBytes(path.join(t.dir, ARCHIVE_DIR_NAME));
    // Before migration 17: the same site at schema version 15 with its 90-day retention and no delivery-log pruning.
    const punchSample = 20_000;
    const before = punchRowCosts(punchSample, 15).filter((o) => !o.name.startsWith('journal_') && o.perPunch >= 0.5);
    return archiveReport({
      days,
      afterDays,
      yearPunches: YEAR_PUNCHES,
      punches: counter.n,
      archived,
      dbEnd,
      peak,
      archives,
      base,
      objects,
      columns,
      marksInDb: inDb,
      punchesInDb,
      logLines,
      before: { sample: punchSample, costs: before, keptDays: 90 },
      work: { archiveMs, writeAndArchiveMs, longestStep, longestSql, stall, quietStall, stalls },
      verify: v,
    });
  } finally {
    t.cleanup();
  }
}
