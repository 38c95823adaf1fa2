/**
 * Storage that stays small (issue 14, item 5): the database file after one year of a 500-employee
 * site — 500 × 2 punches × 250 working days = 250,000 delivered punches with their 750,000 journal
 * rows — with the default retention applied as the terminal applies it (the agent's RetentionWatch,
 * on the bookkeeping connection, the clock at the end of the year, then incremental vacuum), beside
 * the same year kept whole. With PINs on every punch, each punch also leaves a 'pin_ok' audit line
 * (kept 400 days: the whole year stays). And the first pass of a year: the event loop's longest
 * stall while it runs, and how long it takes. A file of an earlier version (auto_vacuum none): what
 * the pass leaves, and what `timeclock data compact` (compactDatabase) makes of it.
 * Goal: < 60 MB (10^6 bytes) with the default retention.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RetentionWatch, type RetentionPassRecord } from '../../src/agent/journal/retention-watch.js';
import { silentLogger } from '../../src/log.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
import {
  DB_FILE_NAME,
  openBookkeepingConnection,
  openDatabase,
  type DurableDb as Db,
  type WritableDb,
} from '../../src/store/database.js';
import { compactDatabase, DEFAULT_RETENTION, RetentionStore } from '../../src/store/upkeep/retention.js';
import { fillDelivered, type History } from '../helpers/history.js';
import type { Result, Table, Target } from './report.js';
import { tempDir, type TempDir } from './support.js';
import { SqliteSteps, stepText, type Step } from './sqlite-steps.js';
import { archiveJournal } from '../../src/agent/journal/journal-archiver.js';

const EMPLOYEES = 500;
const PUNCHES = EMPLOYEES * 2 * 250;
const GOAL_MB = 60;
const MIB = 1024 * 1024;

type Size = { bytes: number };
const sizeOf = (dir: string): Size => {
  const f = (name: string) => (fs.existsSync(path.join(dir, name)) ? fs.statSync(path.join(dir, name)).size : 0);
  return { bytes: f(DB_FILE_NAME) + f(`${DB_FILE_NAME}-wal`) };
};
const mb = (b: number) => b / 1e6;
const mib = (b: number) => b / MIB;

/** A year's file as openDatabase creates one now (auto_vacuum incremental), closed as the terminal leaves it. */
function year(dir: string): History {
  const db = openDatabase(dir);
  try {
    return fillDelivered(db, { punches: PUNCHES, employees: EMPLOYEES, journal: true, keyOf: (e) => objectId(e) });
  } finally {
    checkpointClose(db);
  }
}

/** The same year in another directory: a copy of the file (quicker than writing it again). */
function copyOf(from: string, to: string, o: { pins?: boolean; oldFormat?: boolean }): void {
  fs.copyFileSync(path.join(from, DB_FILE_NAME), path.join(to, DB_FILE_NAME));
  const db = openDatabase(to);
  if (o.pins) fillPinAudit(db);
  if (o.oldFormat) {
    // What an earlier version made: auto_vacuum none (VACUUM applies the change).
    db.pragma('auto_vacuum = NONE');
    db.exec('VACUUM');
  }
  checkpointClose(db);
}

const objectId = (e: number) => `64b7f0c2a1e3d4${String(e).padStart(10, '0')}`;

/** One 'pin_ok' line per punch, at the punch's time (same schedule as fillDelivered). */
function fillPinAudit(db: Db): void {
  const rows = db.prepare('SELECT captured_at, employee_key FROM punches ORDER BY id').all() as {
    captured_at: number;
    employee_key: string;
  }[];
  const insert = db.prepare(`INSERT INTO audit_log (at, event, employee_id, detail) VALUES (?, 'pin_ok', ?, NULL)`);
  db.transaction(() => {
    for (const r of rows) insert.run(r.captured_at - 2_000, r.employee_key);
  })();
}

/** As the terminal's last connection closing leaves it: the log checkpointed into the file and removed. */
function checkpointClose(db: WritableDb): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The longest gap of a 1 ms timer with nothing else running: what the machine itself adds. */
async function idleGap(ms: number): Promise<number> {
  let last = performance.now();
  let gap = 0;
  const tick = setInterval(() => {
    const t = performance.now();
    gap = Math.max(gap, t - last);
    last = t;
  }, 1);
  await new Promise((r) => setTimeout(r, ms));
  clearInterval(tick);
  return gap;
}

/** Per slice (batch or vacuum chunk): its wall time and the CPU time this process spent in it. */
type Slice = { kind: string; size: number; wallMs: number; cpuMs: number };
type Pass = {
  record: RetentionPassRecord;
  wallMs: number;
  loopMaxMs: number;
  gapMaxMs: number;
  slices: Slice[];
  /** The longest synchronous SQLite steps on the loop during the pass (sqlite-steps.ts), longest first. */
  steps: Step[];
};

/** The store with each slice timed, wall and CPU: a slice far longer than its CPU time waited for the machine. */
function timedStore(db: WritableDb, slices: Slice[]): RetentionStore {
  const store = new RetentionStore(db);
  const wrap =
    <A extends unknown[], R>(kind: string, fn: (...a: A) => R) =>
    (...a: A): R => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      try {
        return fn(...a);
      } finally {
        const c = process.cpuUsage(c0);
        slices.push({
          kind,
          size: Number(a[a.length - 1]),
          wallMs: performance.now() - t0,
          cpuMs: (c.user + c.system) / 1000,
        });
      }
    };
  store.pruneDelivered = wrap('punches', store.pruneDelivered.bind(store));
  store.pruneAudit = wrap('audit lines', store.pruneAudit.bind(store));
  store.incrementalVacuum = wrap('pages vacuumed', store.incrementalVacuum.bind(store));
  return store;
}

const longestOf = (slices: Slice[]): string => {
  const l = slices.reduce((a, b) => (b.wallMs > a.wallMs ? b : a));
  return `${l.size} ${l.kind}, ${l.cpuMs.toFixed(1)} ms CPU`;
};

/** Linux pressure stall information: the share of the last minute some task here waited for the CPU / the disk. */
function pressure(): string {
  const some = (what: string) =>
    /some .*?avg60=([\d.]+)/.exec(
      fs.existsSync(`/proc/pressure/${what}`) ? fs.readFileSync(`/proc/pressure/${what}`, 'utf8') : '',
    )?.[1] ?? '?';
  return `cpu ${some('cpu')} %, io ${some('io')} %`;
}

/**
 * The agent's retention pass, as build-agent wires it (the journal's archiving too, with its defaults: these files have
 * no evidence journal, so it only looks), with the clock at `now`; the event loop watched meanwhile.
 */
async function prune(dir: string, now: number): Promise<Pass> {
  const book = openBookkeepingConnection(dir);
  const h = monitorEventLoopDelay({ resolution: 1 });
  const slices: Slice[] = [];
  const steps = new SqliteSteps();
  let last = performance.now();
  let gap = 0;
  const tick = setInterval(() => {
    const t = performance.now();
    gap = Math.max(gap, t - last);
    last = t;
  }, 1);
  try {
    const watch = new RetentionWatch({
      store: timedStore(book, slices),
      policy: DEFAULT_RETENTION,
      clock: { now: () => now },
      mono: () => performance.now(),
      log: silentLogger,
      checkpointer: () => checkpointInWorker(dir),
      write: () => {},
      changed: () => {},
      firstAfterMs: 3_600_000,
      everyMs: 3_600_000,
      archive: (step) =>
        archiveJournal({
          db: book,
          settings: { archiveAfterDays: 90, keepYears: 5 },
          now: () => now,
          mono: () => performance.now(),
          signer: () => null,
          ...step,
        }),
    });
    steps.install();
    h.enable();
    const t0 = performance.now();
    const record = await watch.runNow();
    const wallMs = performance.now() - t0;
    h.disable();
    steps.uninstall();
    await watch.stop();
    return { record, wallMs, loopMaxMs: h.max / 1e6, gapMaxMs: gap, slices, steps: steps.take() };
  } finally {
    steps.uninstall();
    clearInterval(tick);
    checkpointClose(book);
  }
}

export async function benchStorage(): Promise<Result> {
  const dirs: TempDir[] = [];
  const dir = (name: string) => {
    const t = tempDir(`timeclock-bench-storage-${name}-`);
    dirs.push(t);
    return t.dir;
  };
  try {
    const t0 = performance.now();
    const psiBefore = pressure();
    const idleGapMs = await idleGap(3_000);
    const whole = dir('whole');
    const h = year(whole);
    const end = h.lastCapturedAt + 8 * 3_600_000;
    const wholeSize = sizeOf(whole);

    const kept = dir('kept');
    copyOf(whole, kept, {});
    const pass = await prune(kept, end);
    const keptSize = sizeOf(kept);
    // The daily pass that follows, with nothing left to delete (the same clock): what every day costs the loop.
    const daily = await prune(kept, end);

    const pins = dir('pins');
    copyOf(whole, pins, { pins: true });
    const pinsWhole = sizeOf(pins);
    const pinsPass = await prune(pins, end);
    const pinsSize = sizeOf(pins);

    const old = dir('old');
    copyOf(whole, old, { oldFormat: true });
    const oldWhole = sizeOf(old);
    const db = openDatabase(old);
    const autoVacuumBefore = db.pragma('auto_vacuum', { simple: true }) as number;
    const c0 = performance.now();
    const compacted = compactDatabase(db, DEFAULT_RETENTION, end);
    const compactMs = performance.now() - c0;
    const autoVacuumAfter = db.pragma('auto_vacuum', { simple: true }) as number;
    checkpointClose(db);
    const oldCompacted = sizeOf(old);
    const setupS = (performance.now() - t0) / 1000;

    const row = (what: string, s: Size) => [what, mb(s.bytes), mib(s.bytes)];
    const sizes: Table = {
      title: `database file after one year of a ${EMPLOYEES}-employee site (${PUNCHES.toLocaleString('en')} delivered punches, ${(3 * PUNCHES).toLocaleString('en')} journal rows)`,
      columns: ['file', 'MB (10^6 bytes)', 'MiB (2^20 bytes)'],
      rows: [
        row('the year kept whole (no retention)', wholeSize),
        row(
          `default retention (${DEFAULT_RETENTION.deliveredDays} days delivered), after the pass and incremental vacuum`,
          keptSize,
        ),
        row('PINs on every punch: the year kept whole, with a pin_ok audit line per punch', pinsWhole),
        row(
          `PINs on every punch, default retention (audit lines kept ${DEFAULT_RETENTION.auditDays} days: all of the year's)`,
          pinsSize,
        ),
        row(
          'file of an earlier version (auto_vacuum none), the year whole: a pass leaves it this size (freed pages are reused by new rows)',
          oldWhole,
        ),
        row('the same after `timeclock data compact` (the pass, then VACUUM to auto_vacuum incremental)', oldCompacted),
      ],
    };
    const passRow = (what: string, p: Pass) => {
      const walls = p.slices.map((x) => x.wallMs).sort((a, b) => a - b);
      const over = p.slices.filter((x) => x.wallMs > 50);
      return [
        what,
        p.record.deleted.punches,
        p.record.deleted.journal + p.record.deleted.audit,
        p.slices.length,
        p.wallMs,
        walls[Math.floor(walls.length / 2)] ?? null,
        p.record.longestBatchMs,
        longestOf(p.slices),
        Math.max(...p.slices.map((x) => x.cpuMs)),
        over.length,
        over.length ? Math.max(...over.map((x) => x.cpuMs)) : null,
        p.loopMaxMs,
        p.gapMaxMs,
        p.steps[0]?.ms ?? null,
      ];
    };
    const passes: Table = {
      title: 'the first retention pass of a year (the agent does it in the background, 60 s after a start), ms',
      columns: [
        'file',
        'punches deleted',
        'journal + audit rows deleted',
        'slices',
        'pass, wall',
        'slice median',
        'longest slice',
        'it was',
        'most CPU in one slice',
        'slices > 50 ms',
        'their most CPU',
        'event loop delay max',
        'longest gap of a 1 ms timer',
        'longest SQLite step',
      ],
      rows: [
        passRow('delivered punches only', pass),
        passRow('PINs on (audit lines younger than 400 days: none deleted)', pinsPass),
        passRow('the daily pass after the first, nothing left to delete', daily),
        [
          "nothing running: the same 1 ms timer for 3 s (this machine's noise floor)",
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          idleGapMs,
          null,
        ],
      ],
    };
    const target: Target = {
      what: 'database file after a year with the default retention, MB',
      value: mb(keptSize.bytes),
      target: `< ${GOAL_MB}`,
      met: mb(keptSize.bytes) < GOAL_MB,
    };
    return {
      name: 'storage',
      title: 'storage that stays small: a year of a 500-employee site with and without retention',
      tables: [sizes, passes],
      targets: [
        target,
        {
          what: 'the same with PINs on every punch, MB',
          value: mb(pinsSize.bytes),
          target: `< ${GOAL_MB}`,
          met: mb(pinsSize.bytes) < GOAL_MB,
        },
        {
          what: 'longest event-loop stall during the daily pass (nothing to delete), ms',
          value: Math.max(daily.loopMaxMs, daily.gapMaxMs),
          target: '≤ 50',
          met: Math.max(daily.loopMaxMs, daily.gapMaxMs) <= 50,
        },
        {
          what: 'longest synchronous SQLite step on the loop in any pass, ms',
          value: Math.max(...[pass, pinsPass, daily].map((p) => p.steps[0]?.ms ?? 0)),
          target: '≤ 20 (a quiet machine)',
          met: Math.max(...[pass, pinsPass, daily].map((p) => p.steps[0]?.ms ?? 0)) <= 20,
        },
        {
          what: 'longest event-loop stall during the first pass of a year, ms',
          value: Math.max(pass.loopMaxMs, pass.gapMaxMs),
          target: '≤ 50',
          met: Math.max(pass.loopMaxMs, pass.gapMaxMs) <= 50,
        },
      ],
      notes: [
        'sizes: the database file plus its write-ahead log, after a checkpoint (as the terminal leaves them when it stops); 1 MB = 10^6 bytes, 1 MiB = 2^20 bytes',
        `the clock for the pass: ${new Date(end).toISOString()}, 8 h after the year's last punch; delivered punches are kept ${DEFAULT_RETENTION.deliveredDays} days from delivery: about ${Math.round((DEFAULT_RETENTION.deliveredDays * 5) / 7)} working days of them`,
        `a slice is one transaction (a batch of deletes) or one incremental_vacuum chunk on the event loop, sized by the pass to about 15 ms; its CPU time (process.cpuUsage) against its wall time tells the pass's own work from waiting for a busy machine; pressure during the run (Linux PSI, some avg60): before ${psiBefore}, after ${pressure()}`,
        "event loop delay max: perf_hooks.monitorEventLoopDelay (1 ms resolution) during the pass; longest gap: a 1 ms interval timer; longest batch: the pass's own timing of one transaction or vacuum chunk",
        `longest SQLite steps (one statement, exec or whole transaction on the loop: sqlite-steps.ts): first pass ${pass.steps.map(stepText).join('; ')}; with PINs ${pinsPass.steps.map(stepText).join('; ')}; daily pass ${daily.steps.map(stepText).join('; ')}`,
        `timeclock data compact of the earlier-version file (auto_vacuum ${autoVacuumBefore} before): ${compactMs.toFixed(0)} ms in one go (it refuses while an agent runs), ${compacted.deleted.punches.toLocaleString('en')} punches deleted, auto_vacuum ${autoVacuumAfter} after (2 = incremental)`,
        'no roster in these files (500 employees add about 0.2 MB); the status bench measures the year with its roster',
        `setup (a year written, copied three times, two passes, compact) ${setupS.toFixed(1)} s`,
      ],
      raw: {
        employees: EMPLOYEES,
        punches: PUNCHES,
        bytes: {
          whole: wholeSize.bytes,
          kept: keptSize.bytes,
          pinsWhole: pinsWhole.bytes,
          pins: pinsSize.bytes,
          oldWhole: oldWhole.bytes,
          oldCompacted: oldCompacted.bytes,
        },
        pass,
        pinsPass,
        daily,
        idleGapMs,
        compactMs,
      },
    };
  } finally {
    for (const d of dirs) d.cleanup();
  }
}
