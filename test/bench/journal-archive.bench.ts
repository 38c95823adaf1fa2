/**
 * Five years on a small disk (issue 26 item 9): a year of a 500-employee site (4 punches a day,
 * 730,000 punches) written to the evidence journal through its writer (marks and their
 * 'delivered' facts), with the real archiving (agent/journal/journal-archiver.ts) run after every day as
 * the retention pass runs it, and the freed pages given back as the pass does. Measures: the
 * database at the end of the year and its peak, the archives' bytes per punch, five years
 * (the database plus five years of archives), the event loop's longest wait while archiving.
 * Baseline, in the same run: the same rows without archiving, measured on a tenth of the year
 * (bytes per punch, scaled to the year).
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
import { localDateTime } from '../../src/domain/local-time.js';
import { DB_FILE_NAME, openDatabase, type DurableDb } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { ARCHIVE_DIR_NAME } from '../../src/store/journal/journal-archive.js';
import { verifyJournal } from '../../src/store/journal/journal-verify.js';
import type { Result } from './report.js';
import { SqliteSteps, stepText, type Step } from './sqlite-steps.js';
import { tempDir } from './support.js';
import { columnBytes, objectBytes, punchRowCosts } from './db-objects.js';

const EMPLOYEES = 500;
const PER_DAY = 4;
const YEAR_PUNCHES = EMPLOYEES * PER_DAY * 365;
const ZONE = 'America/Sao_Paulo';
const START = Date.parse('2026-01-01T03:00:00Z');
const DAY_MS = 86_400_000;
const MB = 1e6;

/** A valid-looking CPF per employee (the mark keeps 11 digits; check digits do not matter to the size). */
const cpfOf = (e: number) => String(10_000_000_000 + e * 7_919_111).slice(0, 11);
/** A service _id: 24 hex characters, as random as the service's. */
const randomId = (n: number) => (BigInt(n) * 0x9e3779b97f4a7c15n).toString(16).padStart(24, '0').slice(-24);

/** One day of punches: each employee at 08:00, 12:00, 13:00 and 17:00 local, give or take minutes. */
function writeDay(db: DurableDb, journal: EvidenceJournal, day: number, counter: { n: number }): void {
  db.transaction(() => {
    for (const base of [8, 12, 13, 17]) {
      for (let e = 0; e < EMPLOYEES; e++) {
        const n = counter.n++;
        const at = START + day * DAY_MS + (base - 0) * 3_600_000 + ((n * 7_919) % 1_800) * 1_000;
        const local = localDateTime(at, ZONE);
        const nsr = journal.reserveNsr(EMPLOYEES * PER_DAY);
        journal.appendMark({
          nsr,
          at,
          localDate: local.date,
          localTime: local.time,
          zone: ZONE,
          recordedAt: at,
          cpf: cpfOf(e),
          punchId: n + 1,
          chain: e % 10 === 0 ? 'cnpj:11444777000161' : '',
        });
        journal.facts.append(nsr, at + 2_000 + (n % 900), 'delivered', randomId(n));
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
    const counter = { n: 0 };
    for (let day = 0; day < days; day++) writeDay(db, journal, day, counter);
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
      writeDay(db, journal, day, counter);
      const now = START + (day + 1) * DAY_MS;
      const a0 = performance.now();
      // The retention pass as the agent runs it: its checkpoints in a worker, the archiving in its steps, then the
      // freed pages given back.
      let r: Awaited<ReturnType<typeof archiveJournal>> | null = null;
      const watch = new RetentionWatch({
        store: new RetentionStore(db),
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
            db,
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
    freePages(db);
    const v = await verifyJournal(db);
    const inDb = (db.prepare('SELECT COUNT(*) AS n FROM journal_marks').get() as { n: number }).n;
    const objects = objectBytes(db).filter((o) => o.bytes > 8_192);
    const columns = { marks: columnBytes(db, 'journal_marks'), facts: columnBytes(db, 'journal_facts') };
    db.close();
    // The punches table beside the journal: delivered punches stay retention.deliveredDays.
    const punchSample = 20_000;
    const punchCosts = punchRowCosts(punchSample).filter((o) => !o.name.startsWith('journal_') && o.perPunch >= 0.5);
    const punchPerPunch = punchCosts.reduce((a, o) => a + o.perPunch, 0);
    const punchesKept = (YEAR_PUNCHES / 365) * DEFAULT_RETENTION.deliveredDays;
    const scale = YEAR_PUNCHES / counter.n;
    const dbEnd = dbBytes(t.dir);
    const archives = dirBytes(path.join(t.dir, ARCHIVE_DIR_NAME));
    const archivePerPunch = archives / archived;
    const baseYear = base.perPunch * YEAR_PUNCHES;
    const fiveYears = dbEnd + archivePerPunch * YEAR_PUNCHES * 5;
    const raw = {
      days,
      punches: counter.n,
      archivedPunches: archived,
      dbEndBytes: dbEnd,
      dbPeakBytes: peak,
      archiveBytes: archives,
      archivePerPunch,
      baseline: base,
      baselineYearBytes: baseYear,
      fiveYearsBytes: fiveYears,
      longestStepMs: longestStep,
      longestSqlSteps: longestSql,
      maxLoopStallMs: stall,
      quietPassStallMs: quietStall,
      stallsOfArchivingPasses: stalls.map((x) => +x.toFixed(1)),
      afterDays,
      archiveMs,
      writeAndArchiveMs,
      verify: { ok: v.ok, marks: v.marks, facts: v.facts, ms: v.ms },
      objects,
      columns,
      marksInDb: inDb,
      punchCosts,
      punchPerPunch,
      punchesKept,
    };
    return {
      name: 'journal-archive',
      title: `evidence journal archives: ${counter.n.toLocaleString('en')} punches over ${days} days (${EMPLOYEES} employees × ${PER_DAY} a day), archived after ${afterDays} days`,
      tables: [
        {
          title: 'sizes (MB = 10^6 bytes)',
          columns: ['', 'MB', 'bytes per punch', 'vs baseline'],
          rows: [
            [
              'baseline: the year without archiving (tenth of it measured, scaled)',
              +(baseYear / MB).toFixed(1),
              Math.round(base.perPunch),
              1,
            ],
            [`database at the end (${days} days)`, +(dbEnd / MB).toFixed(1), null, +(dbEnd / baseYear).toFixed(3)],
            ['database, peak over the run', +(peak / MB).toFixed(1), null, +(peak / baseYear).toFixed(3)],
            [
              `archives (${archived.toLocaleString('en')} punches)`,
              +(archives / MB).toFixed(2),
              +archivePerPunch.toFixed(1),
              +(archivePerPunch / base.perPunch).toFixed(3),
            ],
            [
              'five years: database + 5 × a year of archives',
              +(fiveYears / MB).toFixed(1),
              null,
              +(fiveYears / (5 * baseYear)).toFixed(3),
            ],
            [
              `+ punches table and its journal, ${Math.round(punchesKept).toLocaleString('en')} delivered punches kept ${DEFAULT_RETENTION.deliveredDays} days (estimate)`,
              +((punchPerPunch * punchesKept) / MB).toFixed(1),
              Math.round(punchPerPunch),
              null,
            ],
            [
              '= the database file with punches (estimate)',
              +((dbEnd + punchPerPunch * punchesKept) / MB).toFixed(1),
              null,
              null,
            ],
          ],
        },
        {
          title: `where the database's bytes go at the end (${inDb.toLocaleString('en')} marks in it; pages, per mark)`,
          columns: ['table or index', 'MB', 'bytes per mark'],
          rows: objects.map((o) => [o.name, +(o.bytes / MB).toFixed(2), +(o.bytes / Math.max(1, inDb)).toFixed(1)]),
        },
        {
          title: 'journal columns: payload bytes per row (record headers and page overhead not included)',
          columns: ['table.column', 'bytes per row'],
          rows: [
            ...columns.marks.map((c) => [`journal_marks.${c.column}`, +(c.bytes / Math.max(1, inDb)).toFixed(1)]),
            ...columns.facts.map((c) => [`journal_facts.${c.column}`, +(c.bytes / Math.max(1, inDb)).toFixed(1)]),
          ],
        },
        {
          title: `punches as the terminal writes them (Outbox, ${punchSample.toLocaleString('en')} delivered punches), bytes per punch`,
          columns: ['table or index', 'bytes per punch'],
          rows: punchCosts.map((o) => [o.name, +o.perPunch.toFixed(1)]),
        },
        {
          title: 'work',
          columns: ['', 'ms', 'note'],
          rows: [
            [
              'retention passes with archiving, all together',
              Math.round(archiveMs),
              `${days} daily passes (RetentionWatch.runNow)`,
            ],
            ["  longest synchronous step (the pass's longestBatchMs)", +longestStep.toFixed(1), ''],
            [
              '  longest synchronous SQLite step on the loop (sqlite-steps.ts)',
              +(raw.longestSqlSteps[0]?.ms ?? 0).toFixed(1),
              raw.longestSqlSteps.map(stepText).join('; '),
            ],
            [
              '  event loop delay while archiving, max (monitorEventLoopDelay)',
              +stall.toFixed(1),
              `passes that wrote an archive: ${stalls.map((x) => x.toFixed(0)).join(', ')} ms; the others at most ${quietStall.toFixed(0)} ms`,
            ],
            [
              `verify at the end (archives + database)`,
              v.ms,
              v.ok ? `ok, ${v.marks} marks, ${v.facts} facts` : `NOT OK: ${v.firstProblem?.message}`,
            ],
          ],
        },
      ],
      targets: [
        { what: 'one-year database (MB)', value: dbEnd / MB, target: '< 60', met: dbEnd / MB < 60 },
        {
          what: 'one-year database with the punches table (MB, estimate)',
          value: (dbEnd + punchPerPunch * punchesKept) / MB,
          target: '< 60',
          met: (dbEnd + punchPerPunch * punchesKept) / MB < 60,
        },
        { what: 'archives, bytes per punch', value: archivePerPunch, target: '< 60', met: archivePerPunch < 60 },
        { what: 'five years in all (MB)', value: fiveYears / MB, target: '< 250', met: fiveYears / MB < 250 },
        { what: 'event loop delay while archiving, max (ms)', value: stall, target: '≤ 50', met: stall <= 50 },
      ],
      notes: [
        "the database measured holds journal rows only (marks and their delivered facts), written through EvidenceJournal as the terminal writes them; the punches table is retention's (retention.deliveredDays) and estimated beside it from a sample written through the Outbox",
        `five years = the database at the end + archives per punch × ${YEAR_PUNCHES.toLocaleString('en')} × 5 (a year's archives scaled; archives are kept journal.keepYears = 5)`,
        `scale to a year: ×${scale.toFixed(3)} (figures above are measured, not scaled, except the baseline and five years)`,
      ],
      raw,
    };
  } finally {
    t.cleanup();
  }
}
