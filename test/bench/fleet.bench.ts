/**
 * Fleet drain as terminals are really installed (issue 24 item 9): N terminals on one token, each
 * started cold (a fresh data dir, `start()` syncing its roster from the mock), then a shift change:
 * every terminal's people badge through the capture path (`agent.punch`) at random times over the
 * first ARRIVAL_WINDOWS windows, twice the account's limit per window for the fleet, so a backlog
 * forms and the limit is what decides. Against a mock in a process of its own, with its Retry-After
 * in whole seconds; the employee's-day reads the agent makes after punches meet routes the mock
 * does not have (`absent-routes=/timesheets,/work-leaves`: 404, as a service without them answers). Modes:
 *   alone        — one terminal at the whole limit, no Redis (item 8: its drain rate, never a 429);
 *   split        — each terminal at floor(limit / N), no Redis: never a 429, never the whole limit
 *                  (the baseline of the same run);
 *   adaptive     — each at the whole limit, no Redis: each finds its share from 429s;
 *   redis        — the shared window in a real redis-server, distinct terminal ids;
 *   redis-cloned — the same, every terminal with one terminalId (as a cloned disk image has it).
 * The account's 60 per minute is scaled to 60 per 3 s and 60 per 12 s (BENCH_FLEET_WINDOWS_MS, e.g.
 * "60000" for the real minute); sizes 3 and 10 (BENCH_FLEET_SIZES); modes BENCH_FLEET_MODES; each
 * config BENCH_FLEET_REPEAT times (1). Runtime: each run is about PUNCH_WINDOWS + 1 windows plus a few
 * seconds to start, bounded by DRAIN_WINDOWS windows; the defaults (2 windows × 2 sizes × 4 modes)
 * take about 12 minutes, at most 16 runs × (DRAIN_WINDOWS windows + 30 s).
 *
 * Per terminal (from a tap in front of the mock, terminal-tap.ts): use of its even share, 429 %, the
 * longest wait with punches queued and nothing sent, its finish time. Per fleet (the mock's log):
 * use from the first punch to the last delivery, 429 %, spread; ratios against the split baseline
 * and against a perfect limiter on the same arrivals (fleet-stats.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Agent } from '../../src/agent/facade/agent.js';
import { buildAgent, realRuntime } from '../../src/agent/build-agent.js';
import { configSchema, type Config } from '../../src/config.js';
import { mulberry32 } from '../../src/domain/rate/seeded-random.js';
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import { silentLogger } from '../../src/log.js';
import { defaultRateKey } from '../../src/sync/window/redis-window.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { fleetFigures, type FleetFigures } from './fleet-stats.js';
import { startMockProcess, type MockProcess } from './mock-process.js';
import type { Cell, Result, Target } from './report.js';
import { sleep, type TempDir } from './support.js';
import { startTap, type TerminalTap } from './terminal-tap.js';

const LIMIT = 60;
const list = (env: string | undefined, fallback: number[]) =>
  env
    ? env
        .split(',')
        .map(Number)
        .filter((x) => x > 0)
    : fallback;
const WINDOWS_MS = list(process.env.BENCH_FLEET_WINDOWS_MS, [3_000, 12_000]);
const SIZES = list(process.env.BENCH_FLEET_SIZES, [3, 10]);
const REPEAT = Math.max(1, Number(process.env.BENCH_FLEET_REPEAT ?? 1));
export const MODES = ['alone', 'split', 'adaptive', 'redis', 'redis-cloned'] as const;
export type Mode = (typeof MODES)[number];
const RUN_MODES: readonly Mode[] = process.env.BENCH_FLEET_MODES
  ? MODES.filter((m) => (process.env.BENCH_FLEET_MODES as string).split(',').includes(m))
  : MODES;
/** The fleet's punches: this many windows of the account's work. */
const PUNCH_WINDOWS = 5;
/** ... arriving over this many windows from the shift change. */
const ARRIVAL_WINDOWS = 2.5;
const DRAIN_WINDOWS = 30;
/**
 * BENCH_FLEET_DEMAND=skewed: the first terminal (the main entrance) gets half the punches, the others
 * share the rest evenly; default even. Even demand is what a split share is best at.
 */
const SKEWED = process.env.BENCH_FLEET_DEMAND === 'skewed';
const SITE_ID = objectIdFor('gen-site', 0);
const GOALS = {
  alone: { use: 0.98, refused: 0 },
  redis: { use: 0.95, refused: 0.01 },
  'redis-cloned': { use: 0.95, refused: 0.01 },
  adaptive: { use: 0.9, refused: 0.05 },
} as const;

export type FleetRun = {
  mode: Mode;
  n: number;
  rule: WindowRule;
  each: number[];
  figures: FleetFigures;
  delivered: number;
  duplicates: number;
  timedOut: boolean;
  startMs: number;
  limitsAtEnd: number[];
};

const DATA_ROOT = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

function tempDir(prefix: string): TempDir {
  const dir = fs.mkdtempSync(path.join(DATA_ROOT, prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A terminal as installed: the defaults but for where it sends, its id and its rate settings. */
function fleetAgent(dataDir: string, baseUrl: string, terminalId: string, rateLimit: Record<string, unknown>): Agent {
  const config = configSchema.parse({
    dataDir,
    api: { baseUrl, token: 'demo-token', timeoutMs: 5_000 },
    siteId: SITE_ID,
    timezone: 'America/Sao_Paulo',
    terminalId,
    rateLimit,
  }) as Config & { api: NonNullable<Config['api']> };
  return buildAgent(config, realRuntime(silentLogger));
}

async function waitUntil(pred: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}

/** Punches per terminal: the fleet's total, evenly or skewed (SKEWED). */
function demand(n: number, total: number): number[] {
  if (!SKEWED || n === 1) return Array.from({ length: n }, () => Math.floor(total / n));
  const rest = Math.floor(total / 2 / (n - 1));
  return [total - rest * (n - 1), ...Array.from({ length: n - 1 }, () => rest)];
}

/** Each terminal's arrival offsets (ms from the shift change): uniform over the arrival windows, seeded. */
function arrivals(each: number[], rule: WindowRule): number[][] {
  return each.map((count, i) => {
    const rnd = mulberry32(1_000 + i);
    return Array.from({ length: count }, () => Math.floor(rnd() * ARRIVAL_WINDOWS * rule.windowMs)).sort(
      (a, b) => a - b,
    );
  });
}

/** People badging at terminal `i` at their times; resolves with when each punch was committed. */
async function badge(agent: Agent, i: number, from: number, offsets: number[], t0: number): Promise<number[]> {
  const at: number[] = [];
  for (let k = 0; k < offsets.length; k++) {
    const wait = t0 + (offsets[k] as number) - Date.now();
    if (wait > 0) await sleep(wait);
    const r = await agent.punch({ kind: 'badge', value: String(100000 + from + k) });
    if (!r.ok) throw new Error(`punch ${i}/${k} not registered: ${JSON.stringify(r)}`);
    at.push(Date.now());
  }
  return at;
}

export async function fleetRun(n: number, mode: Mode, rule: WindowRule, redis: RedisProcess | null): Promise<FleetRun> {
  const each = demand(n, PUNCH_WINDOWS * rule.limit);
  const total = each.reduce((a, b) => a + b, 0);
  const firstOf = each.map((_, i) => each.slice(0, i).reduce((a, b) => a + b, 0));
  const share = Math.floor(rule.limit / n);
  const mock: MockProcess = await startMockProcess({
    employees: total,
    rule,
    variants: ['absent-routes=/timesheets,/work-leaves'],
  });
  const dirs: TempDir[] = [];
  const taps: TerminalTap[] = [];
  const agents: Agent[] = [];
  // The key each terminal derives from the service's address and the token; the taps' addresses differ.
  const redisKey = defaultRateKey(mock.url, 'demo-token');
  try {
    for (let i = 0; i < n; i++) {
      const dir = tempDir(`timeclock-bench-fleet-${i}-`);
      dirs.push(dir);
      const tap = await startTap(mock.url);
      taps.push(tap);
      const shared = mode === 'redis' || mode === 'redis-cloned';
      const rateLimit = {
        ...rule,
        limit: mode === 'adaptive' ? rule.limit : share,
        accountLimit: rule.limit,
        ...(shared ? { redisUrl: (redis as RedisProcess).url, redisKey } : {}),
      };
      agents.push(fleetAgent(dir.dir, tap.url, mode === 'redis-cloned' ? 'kiosk' : `T${i}`, rateLimit));
    }
    // Cold: all switched on together, each syncing its roster at start.
    const started = Date.now();
    await Promise.all(agents.map((a) => a.start()));
    if (!(await waitUntil(() => agents.every((a) => a.status().roster.size >= total), DRAIN_WINDOWS * rule.windowMs)))
      throw new Error('rosters not in');
    const startMs = Date.now() - started;
    const t0 = Date.now();
    const offsets = arrivals(each, rule);
    const captured = await Promise.all(
      agents.map((a, i) => badge(a, i, firstOf[i] as number, offsets[i] as number[], t0)),
    );
    const timedOut = !(await waitUntil(
      () => agents.every((a, i) => a.status().queue.sent === each[i]),
      DRAIN_WINDOWS * rule.windowMs,
    ));
    const limitsAtEnd = agents.map((a) => a.status().rateWindow.limit);
    await sleep(200); // the taps note the last answers' ends
    const records = await mock.records();
    const keys = new Set(records.map((r) => `${r.employee_external_id ?? r.employee_id}|${r.time}`));
    const figures = fleetFigures({ rule, requests: await mock.requests(), taps: taps.map((t) => t.log), captured });
    return {
      mode,
      n,
      rule,
      each,
      figures,
      delivered: keys.size,
      duplicates: records.length - keys.size,
      timedOut,
      startMs,
      limitsAtEnd,
    };
  } finally {
    await Promise.allSettled(agents.map((a) => a.stop()));
    await Promise.allSettled(taps.map((t) => t.close()));
    await mock.close();
    for (const d of dirs) d.cleanup();
  }
}

const s1 = (ms: number) => Number((ms / 1000).toFixed(1));
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function fleetRow(r: FleetRun, baseline: FleetRun | undefined): Cell[] {
  const f = r.figures;
  const lo = Math.min(...r.limitsAtEnd);
  const hi = Math.max(...r.limitsAtEnd);
  return [
    `${r.rule.windowMs / 1000} s`,
    r.n,
    r.mode,
    s1(r.startMs),
    f.requests,
    f.refused,
    pct(f.refusedShare),
    Number(f.windows.toFixed(1)),
    Number(f.use.toFixed(3)),
    Number((f.use / f.idealUse).toFixed(3)),
    f.drainRate === null ? null : Number(f.drainRate.toFixed(3)),
    baseline ? Number((f.use / baseline.figures.use).toFixed(2)) : null,
    s1(Math.max(...f.terminals.map((t) => t.longestWaitMs))),
    s1(Math.min(...f.terminals.map((t) => t.doneAfterMs))),
    s1(Math.max(...f.terminals.map((t) => t.doneAfterMs))),
    s1(f.spreadMs),
    s1(f.idealSpreadMs),
    lo === hi ? String(lo) : `${lo}–${hi}`,
    r.delivered === r.each.reduce((a, b) => a + b, 0) && r.duplicates === 0 && !r.timedOut
      ? 'yes'
      : `NO (${r.delivered}, ${r.duplicates} dup${r.timedOut ? ', timed out' : ''})`,
  ];
}

function terminalRows(r: FleetRun): Cell[][] {
  return r.figures.terminals.map((t, i) => [
    `${r.rule.windowMs / 1000} s`,
    r.n,
    r.mode,
    `T${i}`,
    t.requests,
    t.refused,
    pct(t.refusedShare),
    Number(t.use.toFixed(2)),
    s1(t.longestWaitMs),
    s1(t.doneAfterMs),
  ]);
}

function targets(runs: FleetRun[]): Target[] {
  const out: Target[] = [];
  for (const r of runs) {
    if (r.mode === 'split') continue;
    const g = GOALS[r.mode];
    const tag = `${r.rule.windowMs / 1000} s, ${r.n} terminals, ${r.mode}`;
    if (r.mode === 'alone') {
      // Item 8: its backlog drains at the limit (how fast slots come back), never a 429.
      out.push({
        what: `${tag}: drain rate ÷ limit`,
        value: r.figures.drainRate,
        target: `≥ ${g.use}`,
        met: r.figures.drainRate !== null && r.figures.drainRate >= g.use,
      });
      out.push({
        what: `${tag}: requests answered 429`,
        value: r.figures.refused,
        target: '0',
        met: r.figures.refused === 0,
      });
      continue;
    }
    // The issue's goal is on use; a shift change's first window cannot be full, so it is judged against what a perfect
    // limiter gets.
    out.push({
      what: `${tag}: use of the account limit ÷ a perfect limiter's (absolute ${r.figures.use.toFixed(3)})`,
      value: r.figures.use / r.figures.idealUse,
      target: `≥ ${g.use}`,
      met: r.figures.use / r.figures.idealUse >= g.use,
    });
    out.push({
      what: `${tag}: share answered 429`,
      value: r.figures.refusedShare,
      target: `< ${g.refused}`,
      met: r.figures.refusedShare < g.refused,
    });
  }
  return out;
}

export async function benchFleet(): Promise<Result> {
  const redis = RUN_MODES.some((m) => m.startsWith('redis')) ? await startRedis() : null;
  const runs: FleetRun[] = [];
  try {
    for (const windowMs of WINDOWS_MS)
      for (const n of [1, ...SIZES])
        for (let k = 0; k < REPEAT; k++)
          for (const mode of RUN_MODES.filter((m) => (m === 'alone') === (n === 1))) {
            const run = await fleetRun(n, mode, { limit: LIMIT, windowMs }, redis);
            runs.push(run);
            process.stderr.write(
              `fleet ${windowMs} ms ${n} ${mode}: use ${run.figures.use.toFixed(3)}, 429 ${pct(run.figures.refusedShare)}\n`,
            );
          }
  } finally {
    await redis?.stop();
  }
  const baselineOf = (r: FleetRun) =>
    runs.find((b) => b.mode === 'split' && b.n === r.n && b.rule.windowMs === r.rule.windowMs);
  return {
    name: 'fleet',
    title: `fleet, cold start and a shift change: ${PUNCH_WINDOWS} windows of punches (${SKEWED ? 'half at the first terminal' : 'even'}) over ${ARRIVAL_WINDOWS} windows, ${SIZES.join(' and ')} terminals on one token, ${LIMIT} per ${WINDOWS_MS.map((w) => `${w / 1000} s`).join(' / ')} (real clock)`,
    tables: [
      {
        title: "per fleet (the mock's log, from the first punch to the last delivery)",
        columns: [
          'window',
          'N',
          'mode',
          'start s',
          'requests',
          '429s',
          '429 %',
          'windows',
          'use',
          'use ÷ ideal',
          'drain ÷ limit',
          'use ÷ split',
          'longest wait s',
          'first done s',
          'last done s',
          'spread s',
          'ideal spread s',
          'limit at end',
          'all once',
        ],
        rows: runs.map((r) => fleetRow(r, baselineOf(r))),
      },
      {
        title: 'per terminal (its tap)',
        columns: [
          'window',
          'N',
          'mode',
          'terminal',
          'requests',
          '429s',
          '429 %',
          'use of share',
          'longest wait s',
          'done s',
        ],
        rows: runs.flatMap(terminalRows),
      },
    ],
    targets: targets(runs),
    notes: [
      `use = requests the mock admitted ÷ (${LIMIT} × windows from the first punch captured to the last delivered, the last window counted whole); use ÷ ideal divides by what a perfect limiter (no round trip, only punches) gets from the same arrivals; use ÷ split by the split run of the same size and window`,
      'ideal spread s = the finish spread of a perfect limiter serving the same punches oldest first (a terminal whose last punch came early finishes early even then)',
      'start s = switch-on to every roster in (the roster syncs share the account too); longest wait = punches captured and undelivered while the terminal sent no POST /times; done = first punch to its last delivery',
      `drain ÷ limit = window ÷ the median of a[i + ${LIMIT}] − a[i] over admitted arrivals (how fast a slot comes back while the backlog lasts; 1 for a perfect limiter, whatever the arrivals)`,
      "use of share = a terminal's requests not answered 429 ÷ (limit / N × the fleet's windows)",
      `the mock's Retry-After is whole seconds (at a 3 s window a 429 pauses a third of a window or more); the employee's-day reads meet routes the mock does not have (404: GET /timesheets, /work-leaves)`,
      `each terminal: its own data dir on ${DATA_ROOT}, default configuration but rateLimit (split: floor(${LIMIT} / N); adaptive: ${LIMIT}; redis: the shared window, floor(${LIMIT} / N) as fallback) and terminalId (T<i>, or 'kiosk' on every one for redis-cloned)`,
      'the machine is shared with other work: timings are noisy, compare within a run',
    ],
    raw: { runs },
  };
}
