/**
 * Capture latency: how long `agent.punch()` takes until the punch is committed (synchronous=FULL)
 * and the answer can be shown, against the floor of one durable SQLite commit of the same row.
 *
 * Agent: real agent, real SQLite file in a temp dir, roster loaded from the mock, uploader running
 * against the mock (as in production) so delivery writes interleave with capture.
 * Baseline: one autocommit `INSERT` of an equivalent row into a plain table (same columns, no
 * secondary indexes, no journal row) in a separate SQLite file with the same pragmas.
 * Between them, the floor the punch's own transaction sets: `Outbox.insert` of the same punch (its row, indexes,
 * counters, journal line and hash-chained mark, one IMMEDIATE transaction) in a third file with the agent's schema,
 * without anything around it (credential lookup, local time, receipt, the day list).
 * All are measured per call with process.hrtime.bigint(), interleaved call by call, yielding to
 * the event loop between calls, after the same number of unmeasured warm-up calls.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Agent } from '../../src/agent/facade/agent.js';
import { openDatabase } from '../../src/store/database.js';
import { EvidenceJournal } from '../../src/store/journal/evidence-journal.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed, objectIdFor } from '../../src/mock/seed.js';
import { flushSweep } from './capture-flush.js';
import { ratio, summarizeNs, type LatencySummary, type Result } from './report.js';
import { benchAgent, tempDir, tempFsInfo, withTimeout, yieldToLoop, type TempDir } from './support.js';

const N = 2_000;
export const WARMUP = 50;
const RATE = { limit: 60, windowMs: 1_000 };
const TARGET_P99_RATIO = 2.0;
/** Issue 28 item 8: the median punch at most this many times the bare INSERT's. */
const TARGET_P50_RATIO = 1.5;
const externalId = (i: number) => String(100000 + i);

/** The columns of `punches` (migration 1), without its UNIQUE constraint and indexes. */
const BARE_TABLE = `
  CREATE TABLE punches (
    id INTEGER PRIMARY KEY, captured_at INTEGER NOT NULL, local_date TEXT NOT NULL, local_time TEXT NOT NULL,
    time_zone TEXT NOT NULL, employee_key TEXT NOT NULL, employee_external_id TEXT, employee_name TEXT NOT NULL,
    credential_kind TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL, last_error TEXT, reject_reason TEXT, remote_id TEXT, sent_at INTEGER,
    clock_flag TEXT, updated_at INTEGER NOT NULL
  )`;

type BareDb = { insert: (i: number) => bigint; close: () => void };

const ZONE = 'America/Sao_Paulo';

/** The columns every series writes for employee `i`, taken now. */
function rowOf(i: number) {
  const now = Date.now();
  const local = localDateTime(now, ZONE);
  return {
    capturedAt: now,
    localDate: local.date,
    localTime: local.time,
    timeZone: ZONE,
    employeeKey: objectIdFor('gen-employee', i),
    employeeExternalId: externalId(i),
    employeeName: 'Maria Oliveira Santos',
    credentialKind: 'badge',
    clockFlag: null,
  };
}

/** The baseline: a separate SQLite file with the same pragmas and one plain table. */
function openBare(dir: TempDir): BareDb {
  const db = new Database(path.join(dir.dir, 'bare.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(BARE_TABLE);
  } catch (e) {
    db.close();
    throw e;
  }
  const stmt = db.prepare(
    `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_external_id,
       employee_name, credential_kind, state, next_attempt_at, clock_flag, updated_at)
     VALUES (@capturedAt, @localDate, @localTime, @timeZone, @employeeKey, @employeeExternalId,
       @employeeName, @credentialKind, 'pending', @capturedAt, @clockFlag, @capturedAt)`,
  );
  return {
    insert(i) {
      // Row values are computed outside the measured call: the baseline is the durable write alone.
      const values = rowOf(i);
      const t0 = process.hrtime.bigint();
      stmt.run(values);
      return process.hrtime.bigint() - t0;
    },
    close: () => db.close(),
  };
}

/** The floor of the punch's own transaction: the outbox's insert into a file with the agent's schema. */
function openTransactionOnly(dir: TempDir): BareDb {
  const db = openDatabase(dir.dir);
  let outbox: Outbox;
  try {
    // As the agent opens it (agent/journal/open-journal.ts): the chain's head file written after the answer.
    const journal = new EvidenceJournal(db, { headLater: (write) => void setImmediate(write) });
    journal.open();
    outbox = new Outbox(db, db, journal);
  } catch (e) {
    db.close();
    throw e;
  }
  return {
    insert(i) {
      const row = rowOf(i);
      const punch = {
        ...row,
        time: { wall: row.capturedAt, mono: performance.now(), bootId: 'bench', anchored: true },
        mayRepeatLocalMinute: false,
        cpf: null,
        chain: '',
      };
      const t0 = process.hrtime.bigint();
      const r = outbox.insert(punch);
      const dt = process.hrtime.bigint() - t0;
      if (!r.inserted) throw new Error(`transaction-only insert ${i} was taken as a repeat`);
      return dt;
    },
    close: () => db.close(),
  };
}

export type Measured = {
  agent: LatencySummary;
  bare: LatencySummary;
  transaction: LatencySummary;
  refused: number;
  sentDuringCapture: number;
  rosterSize: number;
};

/**
 * Agent and baseline measured interleaved (punch, insert, punch, insert… alternating which goes
 * first), so both see the same disk and machine conditions: on a shared box an fsync stall that
 * hits only one of two back-to-back runs would decide the ratio.
 */
async function measure(
  mock: MockServer,
  dirs: Record<'agent' | 'bare' | 'transaction', TempDir>,
  n: number,
): Promise<Measured> {
  let agent: Agent | null = null;
  const bare = openBare(dirs.bare);
  let transaction: BareDb | null = null;
  try {
    transaction = openTransactionOnly(dirs.transaction);
    agent = benchAgent({
      dataDir: dirs.agent.dir,
      baseUrl: mock.url,
      siteId: objectIdFor('gen-site', 0),
      rateLimit: RATE,
    });
    const started = await withTimeout(agent.start({ roster: true, awaitRosterIfEmpty: true }), 30_000);
    if (started.timedOut) throw new Error('agent start (roster sync) did not finish within 30 s');
    const rosterSize = agent.status().roster.size;
    if (rosterSize < n + WARMUP) throw new Error(`roster has ${rosterSize} employees, need ${n + WARMUP}`);

    let refused = 0;
    // punch() resolves after the commit; awaiting it is what a bridge does before it answers.
    const punch = async (i: number): Promise<bigint> => {
      const t0 = process.hrtime.bigint();
      const r = await (agent as Agent).punch({ kind: 'badge', value: externalId(i) });
      const dt = process.hrtime.bigint() - t0;
      if (!r.ok || r.repeat) refused++;
      return dt;
    };
    const txn = transaction;
    // The three in turn, the one that goes first rotating: disk stalls and cache warmth fall on all alike.
    const order: ReadonlyArray<(i: number) => Promise<bigint>> = [
      punch,
      async (i) => bare.insert(i),
      async (i) => txn.insert(i),
    ];
    const samples: bigint[][] = [new Array<bigint>(n), new Array<bigint>(n), new Array<bigint>(n)];
    for (let i = -WARMUP; i < n; i++) {
      const k = n + WARMUP + i; // the warm-up punches take employees past the measured ones
      for (let j = 0; j < 3; j++) {
        const which = ((((i % 3) + 3) % 3) + j) % 3;
        const dt = await (order[which] as (n: number) => Promise<bigint>)(i < 0 ? k : i);
        if (i >= 0) (samples[which] as bigint[])[i] = dt;
        // Yield after each call: the uploader (and its SQLite writes) runs between punches, as it
        // would at a kiosk; the baselines get the same treatment.
        await yieldToLoop();
      }
    }
    const [agentNs, bareNs, txnNs] = samples as [bigint[], bigint[], bigint[]];
    const sentDuringCapture = agent.status().queue.sent;
    return {
      agent: summarizeNs(agentNs),
      bare: summarizeNs(bareNs),
      transaction: summarizeNs(txnNs),
      refused,
      sentDuringCapture,
      rosterSize,
    };
  } finally {
    await agent?.stop();
    bare.close();
    transaction?.close();
  }
}

/** The three series, `n` calls each, against a mock of their own in fresh files: this run and each flush child's. */
export async function measureFresh(n: number): Promise<Measured> {
  const mock = await startMockServer({ seed: generatedSeed({ employees: n + WARMUP, sites: 1 }), rateLimit: RATE });
  const dirs = {
    agent: tempDir('timeclock-bench-capture-'),
    bare: tempDir('timeclock-bench-bare-'),
    transaction: tempDir('timeclock-bench-capture-txn-'),
  };
  try {
    return await measure(mock, dirs, n);
  } finally {
    await mock.close();
    for (const d of Object.values(dirs)) d.cleanup();
  }
}

export async function benchCapture(): Promise<Result> {
  const m = await measureFresh(N);
  // The same series where a flush costs what a terminal's flash charges (capture-flush.ts).
  const sweep = await flushSweep(TARGET_P50_RATIO);
  const a = { lat: m.agent, refused: m.refused, sentDuringCapture: m.sentDuringCapture, rosterSize: m.rosterSize };
  const bare = m.bare;
  const txn = m.transaction;
  const p99Ratio = ratio(a.lat.p99Ms, bare.p99Ms);
  const p50Ratio = ratio(a.lat.p50Ms, bare.p50Ms);
  const fsInfo = tempFsInfo();
  const row = (name: string, s: LatencySummary) => [name, s.n, s.p50Ms, s.p90Ms, s.p99Ms, s.maxMs, s.meanMs];
  return {
    name: 'capture',
    title: `capture: agent.punch() vs bare durable INSERT (N=${N} each, ${WARMUP} warm-up)`,
    tables: [
      {
        title: 'latency per call (ms)',
        columns: ['', 'n', 'p50', 'p90', 'p99', 'max', 'mean'],
        rows: [
          row('agent.punch()', a.lat),
          row('bare INSERT (baseline)', bare),
          row("the punch's transaction alone", txn),
          [
            'ratio agent/bare',
            null,
            p50Ratio,
            ratio(a.lat.p90Ms, bare.p90Ms),
            p99Ratio,
            ratio(a.lat.maxMs, bare.maxMs),
            ratio(a.lat.meanMs, bare.meanMs),
          ],
          [
            'ratio transaction/bare',
            null,
            ratio(txn.p50Ms, bare.p50Ms),
            ratio(txn.p90Ms, bare.p90Ms),
            ratio(txn.p99Ms, bare.p99Ms),
            ratio(txn.maxMs, bare.maxMs),
            ratio(txn.meanMs, bare.meanMs),
          ],
        ],
      },
      ...('table' in sweep ? [sweep.table] : []),
    ],
    targets: [
      {
        what: 'p50(punch) / p50(bare INSERT)',
        value: p50Ratio,
        target: `≤ ${TARGET_P50_RATIO.toFixed(1)}`,
        met: p50Ratio === null ? null : p50Ratio <= TARGET_P50_RATIO,
      },
      {
        what: 'p99(punch) / p99(bare INSERT)',
        value: p99Ratio,
        target: `≤ ${TARGET_P99_RATIO.toFixed(1)}`,
        met: p99Ratio === null ? null : p99Ratio <= TARGET_P99_RATIO,
      },
    ],
    notes: [
      `temp dirs in ${fsInfo.tmpdir} (${fsInfo.fsType}); all three files WAL + synchronous=FULL`,
      `uploader running against the mock at ${RATE.limit} per ${RATE.windowMs} ms during capture; it delivered ${a.sentDuringCapture} punches meanwhile`,
      `roster ${a.rosterSize} employees, each punch a distinct employee; punches refused or repeated: ${a.refused}`,
      'baseline row: same columns as `punches`, plain table (no UNIQUE, no indexes, no journal row), one autocommit INSERT',
      "the punch's transaction alone: Outbox.insert of the same punch (row, indexes, counters, journal line, hash-chained mark) in a file with the agent's schema, nothing around it: the floor of the punch on this disk",
      'the three measured interleaved call by call (the first rotating), so disk stalls hit all alike',
      'table' in sweep
        ? "slower flush: each row a fresh child process with slow-flush.so preloaded (fsync/fdatasync, then the delay); the delay is added to every flush of the process, the bare INSERT's as well as the punch's"
        : `slower flush: not measured (${sweep.skipped})`,
    ],
    raw: {
      n: N,
      warmup: WARMUP,
      rate: RATE,
      agent: a.lat,
      bare,
      transaction: txn,
      p50Ratio,
      p99Ratio,
      refused: a.refused,
      sentDuringCapture: a.sentDuringCapture,
      fs: fsInfo,
      flushSweep: 'rows' in sweep ? sweep.rows : null,
    },
  };
}
