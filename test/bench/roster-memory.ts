/**
 * Part 2 of the roster bench (roster.bench.ts): the agent process's peak RSS with a roster of
 * 100,000 employees.
 *
 * A child node process (rss-child.ts) builds a real agent against the mock (in a process of its
 * own, 100,000 employees), syncs the whole roster (1,000 pages of 100), enrolls 100,000 badges,
 * punches 10,000 of them with the uploader running, and reports its
 * `process.resourceUsage().maxRSS`. Baseline: a child that only builds an agent (empty roster).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startMockProcess } from './mock-process.js';
import type { Cell, Table } from './report.js';
import {
  AGENT_RATE,
  CHILD_LIMIT_MS,
  EMPLOYEES,
  MIB,
  mib,
  MOCK_RULE,
  PRODUCTION_RATE,
  type RosterPart,
} from './roster-setup.js';
import type { ChildArgs, ChildReport } from './rss-child.js';
import { MALLOC_ENV, tempDir } from './support.js';

/** The V8 flags the terminal is launched with (package.json start, assets/bin/timeclock). */
const V8_FLAGS = ['--max-semi-space-size=4', '--optimize-for-size'];
/** Mirrors ENROLL_CACHE_KIB of rss-child.ts (importing it would run the child). */
const ENROLL_CACHE_KIB = 1024;

const RSS_PUNCHES = 10_000;
/** The goal is 150 MB: decimal megabytes, 150 × 10^6 bytes (= 143.05 MiB). */
const TARGET_RSS_MB = 150;
const CHILD_FLUSH_MAX_MS = 30_000;

const MB = 1e6;
const CHILD_SCRIPT = fileURLToPath(new URL('./rss-child.js', import.meta.url));

type ChildRun = { report: ChildReport; wallMs: number };

function runChild(args: ChildArgs): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // Launched as the terminal is (assets/bin/timeclock, npm start): V8's young generation at 4 MiB.
    const child = spawn(process.execPath, [...V8_FLAGS, CHILD_SCRIPT, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // and with glibc's settings (assets/bin/timeclock).
      env: { ...process.env, ...MALLOC_ENV },
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CHILD_LIMIT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      const tail = stderr.trim().split('\n').slice(-15).join('\n');
      if (timedOut)
        return reject(
          new Error(
            `rss child (${args.mode}) did not finish within ${CHILD_LIMIT_MS / 1000} s and was killed\n${tail}`,
          ),
        );
      if (code !== 0) return reject(new Error(`rss child (${args.mode}) exited with ${code ?? signal}\n${tail}`));
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve({ report: JSON.parse(line) as ChildReport, wallMs });
      } catch {
        reject(new Error(`rss child (${args.mode}) printed no report: ${JSON.stringify(stdout.slice(-500))}\n${tail}`));
      }
    });
  });
}

async function measureRss(): Promise<{ empty: ChildRun; full: ChildRun; fast: ChildRun; mockStartMs: number }> {
  const t0 = performance.now();
  const mock = await startMockProcess({ employees: EMPLOYEES, rule: MOCK_RULE });
  const mockStartMs = performance.now() - t0;
  const emptyDir = tempDir('timeclock-bench-rss-empty-');
  const fullDir = tempDir('timeclock-bench-rss-full-');
  const fastDir = tempDir('timeclock-bench-rss-fast-');
  try {
    const common = {
      baseUrl: mock.url,
      employees: EMPLOYEES,
      punches: RSS_PUNCHES,
      rateLimit: AGENT_RATE,
      flushMaxMs: CHILD_FLUSH_MAX_MS,
    };
    const empty = await runChild({ ...common, mode: 'empty', dataDir: emptyDir.dir });
    // As at a site: roster loaded (fast), then punching with the production rate limit.
    const full = await runChild({ ...common, mode: 'full', dataDir: fullDir.dir, punchRateLimit: PRODUCTION_RATE });
    // Harder than any site: the uploader delivering the 10,000 punches at the sync's limit.
    fastDir.cleanup();
    const fast = await runChild({ ...common, mode: 'full', dataDir: fastDir.dir });
    return { empty, full, fast, mockStartMs };
  } finally {
    await mock.close();
    emptyDir.cleanup();
    fullDir.cleanup();
    fastDir.cleanup();
  }
}

/** process.resourceUsage().maxRSS is in KiB (1,024 bytes) on Linux. */
const peakBytes = (r: ChildReport) => r.maxRssKb * 1024;

export async function rosterMemory(): Promise<RosterPart> {
  const rss = await measureRss();
  const e = rss.empty.report;
  const f = rss.full.report;
  const memRow = (name: string, r: ChildReport, wallMs: number): Cell[] => [
    name,
    peakBytes(r) / MIB,
    peakBytes(r) / MB,
    mib(r.memoryUsage.rss),
    mib(r.memoryUsage.heapTotal),
    mib(r.memoryUsage.heapUsed),
    mib(r.memoryUsage.external),
    mib(r.memoryUsage.arrayBuffers),
    wallMs / 1000,
  ];
  const rssTable: Table = {
    title:
      'agent process memory (MiB = 2^20 bytes, MB = 10^6 bytes); peak = process.resourceUsage().maxRSS, the rest process.memoryUsage() at exit',
    columns: [
      'child',
      'peak RSS MiB',
      'peak RSS MB',
      'RSS at exit MiB',
      'heapTotal',
      'heapUsed',
      'external',
      'arrayBuffers',
      'wall s',
    ],
    rows: [
      memRow('empty roster, agent built only (baseline)', e, rss.empty.wallMs),
      memRow(
        `${EMPLOYEES} employees + ${EMPLOYEES} badges + ${RSS_PUNCHES} punches (production limit)`,
        f,
        rss.full.wallMs,
      ),
      memRow(
        `same, uploader delivering all ${RSS_PUNCHES} at ${AGENT_RATE.limit}/${AGENT_RATE.windowMs} ms`,
        rss.fast.report,
        rss.fast.wallMs,
      ),
      [
        'difference',
        (peakBytes(f) - peakBytes(e)) / MIB,
        (peakBytes(f) - peakBytes(e)) / MB,
        mib(f.memoryUsage.rss - e.memoryUsage.rss),
        mib(f.memoryUsage.heapTotal - e.memoryUsage.heapTotal),
        mib(f.memoryUsage.heapUsed - e.memoryUsage.heapUsed),
        mib(f.memoryUsage.external - e.memoryUsage.external),
        mib(f.memoryUsage.arrayBuffers - e.memoryUsage.arrayBuffers),
        null,
      ],
    ],
  };
  const phaseTable: Table = {
    title: 'full child, phase by phase (MiB)',
    columns: ['phase', 'ms', 'RSS after', 'peak so far', 'heapTotal after', 'heapUsed after'],
    rows: f.checkpoints.map((c) => [
      c.phase,
      Math.round(c.ms),
      mib(c.rssBytes),
      c.maxRssKbSoFar / 1024,
      mib(c.heapTotalBytes),
      mib(c.heapUsedBytes),
    ]),
  };
  const peakPhase = f.checkpoints.find((c) => c.maxRssKbSoFar >= f.maxRssKb)?.phase ?? '—';
  const afterSync = f.checkpoints.find((c) => c.phase.startsWith('roster sync'));
  return {
    tables: [rssTable, phaseTable],
    targets: [
      {
        what: `agent peak RSS with ${EMPLOYEES} employees + badges, punching at the production limit, MB (${(peakBytes(f) / MIB).toFixed(1)} MiB)`,
        value: peakBytes(f) / MB,
        target: `< ${TARGET_RSS_MB} MB (${((TARGET_RSS_MB * MB) / MIB).toFixed(2)} MiB)`,
        met: peakBytes(f) < TARGET_RSS_MB * MB,
      },
      {
        what: `same with the uploader delivering ${RSS_PUNCHES} punches at ${AGENT_RATE.limit}/s (stress, not a site), MB (${(peakBytes(rss.fast.report) / MIB).toFixed(1)} MiB)`,
        value: peakBytes(rss.fast.report) / MB,
        target: `< ${TARGET_RSS_MB} MB`,
        met: peakBytes(rss.fast.report) < TARGET_RSS_MB * MB,
      },
    ],
    notes: [
      `memory: each child is a fresh \`node\` running dist/test/bench/rss-child.js; the mock (${EMPLOYEES} employees, ${MOCK_RULE.limit} per ${MOCK_RULE.windowMs} ms) runs in a third process, started in ${Math.round(rss.mockStartMs)} ms; the agent's own budget is ${AGENT_RATE.limit} per ${AGENT_RATE.windowMs} ms (the config's maximum limit), so neither limits anything`,
      `memory: full child synced ${f.rosterSize} employees in ${f.syncRequests ?? '—'} requests, enrolled ${f.enrolled ?? '—'} badges in one transaction on a second connection of its own (openBookkeepingConnection: no quick_check; page cache ${ENROLL_CACHE_KIB} KiB instead of better-sqlite3's 16 MB), closed after, punched ${f.punchesOk ?? '—'} (refused/repeat ${f.punchesRefused ?? '—'}) with the uploader running, ${f.sent ?? '—'} delivered by the end (flush bounded at ${CHILD_FLUSH_MAX_MS / 1000} s${f.flushDone === false ? ', NOT all delivered' : ''})`,
      `memory: the full child reached its peak during "${peakPhase}"; its peak up to the end of the roster sync alone was ${afterSync ? (afterSync.maxRssKbSoFar / 1024).toFixed(1) : '—'} MiB`,
      `memory: MB = 10^6 bytes, MiB = 2^20 = 1,048,576 bytes; the goal, ${TARGET_RSS_MB} MB, is ${((TARGET_RSS_MB * MB) / MIB).toFixed(2)} MiB; maxRSS is read in KiB and converted`,
    ],
    raw: {
      rss: {
        punches: RSS_PUNCHES,
        empty: rss.empty,
        full: rss.full,
        fast: rss.fast,
        mockStartMs: rss.mockStartMs,
        agentRate: AGENT_RATE,
        mockRule: MOCK_RULE,
      },
    },
  };
}
