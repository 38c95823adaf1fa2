/**
 * Backlog drain: 600 punches captured while nothing could be sent, then delivered to the mock
 * under its sliding-window rate limit (60 per 1,000 ms here, so the run is short; the production
 * default is 60 per 60 s). How close does the agent get to the allowed rate without a single 429?
 *
 * Baselines in the same run, each against a fresh mock with the same limit, sending the same 600
 * `POST /times` bodies with undici `request`, through
 *   (a) bottleneck: reservoir 60, refreshed to 60 every 1,000 ms;
 *   (b) p-queue:   intervalCap 60 per 1,000 ms.
 * Both baselines run BASELINE_CONCURRENCY requests at once; neither retries a 429 (each 429 is
 * counted: it is a punch that was not delivered and would need a retry).
 *
 * Everything is measured from the mock's request log (arrival times of `POST /times`). The mock
 * runs in a process of its own, as the real service does, so its work does not eat into the
 * event loop of the client under test.
 */
import Bottleneck from 'bottleneck';
import PQueue from 'p-queue';
import { Pool, request } from 'undici';
import type { Agent } from '../../src/agent/facade/agent.js';
import { API_VERSION_SEGMENT, BASIC_AUTH_USER, buildPunchBody, defaultApiDialect } from '../../src/api/shapes.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { maxInAnyWindow, type WindowRule } from '../../src/domain/rate/sliding-window.js';
import { configSchema } from '../../src/config.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { startMockProcess, type MockProcess } from './mock-process.js';
import type { Cell, Result, Target } from './report.js';
import { benchAgent, sleep, tempDir, withTimeout } from './support.js';

const N = 600;
const RULE: WindowRule = { limit: 60, windowMs: 1_000 };
const BASELINE_CONCURRENCY = 8;
/** Hard limit for each drain (the ideal drain takes (N / limit - 1) windows = 9 s). */
const DRAIN_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const TARGET_RATE_RATIO = 0.98;
const externalId = (i: number) => String(100000 + i);
const SITE_ID = objectIdFor('gen-site', 0);
/** The agent runs with its default configuration: this many requests in flight at most. */
const AGENT_IN_FLIGHT = configSchema.parse({ dataDir: '.' }).upload.maxInFlight;

export type DrainStats = {
  limiter: string;
  concurrency: number;
  posts: number;
  delivered: number;
  rateLimited: number;
  otherStatus: number;
  clientErrors: number;
  maxInAnyWindow: number;
  steadyPerWindow: number | null;
  rateRatio: number | null;
  firstToLastMs: number | null;
  /** Median over i of t[i + limit] − t[i] (delivered arrivals): how long a slot takes to come back. */
  slotReuseMedianMs: number | null;
  slotReuseMaxMs: number | null;
  /** t[limit−1] − t[0] and t[N−1] − t[N−limit] of the delivered arrivals: how long a window's burst took. */
  firstWindowSpreadMs: number | null;
  lastWindowSpreadMs: number | null;
  totalMs: number;
  timedOut: boolean;
  recordsOnServer: number;
  duplicateRecords: number;
};

/** Each limiter gets a fresh mock in a process of its own, as the real service would be. */
function freshMock(): Promise<MockProcess> {
  return startMockProcess({ employees: N, rule: RULE });
}

/**
 * Steady rate from the arrival times of the delivered (2xx) punches, in requests per window.
 *
 * A sliding-window limiter that starts with an empty window may send `limit` requests at once;
 * after that, each further window admits exactly `limit` more. So N requests need at least
 * (N − limit) / limit windows between the first arrival and the last one, and
 *     rate = (N − limit) / (t_last − t_first) × windowMs
 * equals `limit` for a perfect limiter: rate ÷ limit = 1.0 (600 at 60 per 1,000 ms: first 60 at
 * t=0, last 60 at t=9,000 → 540 / 9,000 ms × 1,000 = 60). Below 1.0 is lost throughput; above 1.0
 * means the server admitted more than the rule allows (impossible without 429s elsewhere).
 */
export function steadyRate(
  deliveredAt: readonly number[],
  rule: WindowRule,
): { perWindow: number | null; firstToLastMs: number | null } {
  if (deliveredAt.length === 0) return { perWindow: null, firstToLastMs: null };
  const t = [...deliveredAt].sort((a, b) => a - b);
  const span = (t[t.length - 1] as number) - (t[0] as number);
  if (t.length <= rule.limit || span <= 0) return { perWindow: null, firstToLastMs: span };
  return { perWindow: ((t.length - rule.limit) / span) * rule.windowMs, firstToLastMs: span };
}

/**
 * Median and max of t[i + limit] − t[i] over the delivered arrivals. A perfect sliding-window
 * limiter has exactly windowMs here whatever the shape of its bursts, so windowMs / median is a
 * per-slot efficiency that, unlike `steadyRate`, does not charge a sender for how its last window's
 * `limit` requests are spread out (a sequential sender cannot send them all at one instant).
 */
export function slotReuse(
  deliveredAt: readonly number[],
  rule: WindowRule,
): { medianMs: number | null; maxMs: number | null } {
  const t = [...deliveredAt].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 0; i + rule.limit < t.length; i++) gaps.push((t[i + rule.limit] as number) - (t[i] as number));
  if (gaps.length === 0) return { medianMs: null, maxMs: null };
  gaps.sort((a, b) => a - b);
  return { medianMs: gaps[Math.floor((gaps.length - 1) / 2)] as number, maxMs: gaps[gaps.length - 1] as number };
}

async function statsFromMock(
  mock: MockProcess,
  base: { limiter: string; concurrency: number; totalMs: number; timedOut: boolean; clientErrors: number },
): Promise<DrainStats> {
  const posts = (await mock.requests()).filter((r) => r.method === 'POST' && r.path === `${API_VERSION_SEGMENT}/times`);
  const delivered = posts.filter((r) => r.status !== null && r.status >= 200 && r.status < 300);
  const rateLimited = posts.filter((r) => r.status === 429).length;
  const deliveredAt = delivered.map((r) => r.at);
  const rate = steadyRate(deliveredAt, RULE);
  const reuse = slotReuse(deliveredAt, RULE);
  const sorted = [...deliveredAt].sort((a, b) => a - b);
  const enough = sorted.length >= RULE.limit;
  const records = await mock.records();
  const perKey = new Map<string, number>();
  for (const r of records)
    perKey.set(`${r.employee_id}|${r.time}`, (perKey.get(`${r.employee_id}|${r.time}`) ?? 0) + 1);
  let duplicateRecords = 0;
  for (const n of perKey.values()) duplicateRecords += n - 1;
  return {
    ...base,
    posts: posts.length,
    delivered: delivered.length,
    rateLimited,
    otherStatus: posts.length - delivered.length - rateLimited,
    // Over every POST that arrived (admitted or not): what the client's own limiter let through.
    maxInAnyWindow: maxInAnyWindow(
      posts.map((r) => r.at),
      RULE.windowMs,
    ),
    steadyPerWindow: rate.perWindow,
    rateRatio: rate.perWindow === null ? null : rate.perWindow / RULE.limit,
    firstToLastMs: rate.firstToLastMs,
    slotReuseMedianMs: reuse.medianMs,
    slotReuseMaxMs: reuse.maxMs,
    firstWindowSpreadMs: enough ? (sorted[RULE.limit - 1] as number) - (sorted[0] as number) : null,
    lastWindowSpreadMs: enough
      ? (sorted[sorted.length - 1] as number) - (sorted[sorted.length - RULE.limit] as number)
      : null,
    recordsOnServer: records.length,
    duplicateRecords,
  };
}

// ---- the agent ----------------------------------------------------------------------------------

async function drainAgent(): Promise<DrainStats> {
  const mock = await freshMock();
  const dir = tempDir('timeclock-bench-drain-');
  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: dir.dir, baseUrl: mock.url, siteId: SITE_ID, rateLimit: RULE });
    // The roster sync draws on the rate budget, not on the uploader: it works before start().
    const synced = await withTimeout(agent.syncRoster(), 30_000);
    if (synced.timedOut) throw new Error('roster sync did not finish within 30 s');
    if (!synced.value.ok) throw new Error(`roster sync failed: ${synced.value.error}`);
    // Let the roster requests leave both windows (the agent's budget and the mock's), so the drain
    // starts with a full window like the baselines do.
    await sleep(RULE.windowMs + 100);
    // Capture the backlog before start(): punch() commits and wakes an uploader that is not
    // running yet, so nothing is sent until start().
    for (let i = 0; i < N; i++) {
      const r = await agent.punch({ kind: 'badge', value: externalId(i) });
      if (!r.ok || r.repeat) throw new Error(`punch ${i} not registered: ${JSON.stringify(r)}`);
    }
    const t0 = performance.now();
    await agent.start({ roster: false });
    const flushed = await withTimeout(agent.flush({ maxWaitMs: DRAIN_TIMEOUT_MS }), DRAIN_TIMEOUT_MS + 2_000);
    const totalMs = performance.now() - t0;
    const timedOut = flushed.timedOut || !flushed.value.done || agent.status().queue.sent !== N;
    return await statsFromMock(mock, {
      limiter: 'agent uploader (sliding-window budget)',
      concurrency: AGENT_IN_FLIGHT,
      totalMs,
      timedOut,
      clientErrors: 0,
    });
  } finally {
    await agent?.stop();
    await mock.close();
    dir.cleanup();
  }
}

// ---- baselines ----------------------------------------------------------------------------------

type Sender = { send: (i: number) => Promise<void>; clientErrors: () => number; close: () => Promise<void> };

function undiciSender(mock: MockProcess): Sender {
  const pool = new Pool(mock.origin, { connections: BASELINE_CONCURRENCY });
  const auth = `Basic ${Buffer.from(`${BASIC_AUTH_USER}:demo-token`).toString('base64')}`;
  const local = localDateTime(Date.now(), 'America/Sao_Paulo');
  let errors = 0;
  return {
    async send(i) {
      const body = JSON.stringify(
        buildPunchBody(defaultApiDialect, { kind: 'external_id', value: externalId(i) }, local.date, local.time),
      );
      try {
        const res = await request(`${mock.url}/times`, {
          method: 'POST',
          dispatcher: pool,
          headers: { authorization: auth, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await res.body.dump();
        // No retry on 429 (or anything else): the mock's log counts it.
      } catch {
        errors++;
      }
    },
    clientErrors: () => errors,
    close: () => pool.destroy(),
  };
}

async function drainBottleneck(): Promise<DrainStats> {
  const mock = await freshMock();
  const sender = undiciSender(mock);
  const limiter = new Bottleneck({
    maxConcurrent: BASELINE_CONCURRENCY,
    reservoir: RULE.limit,
    reservoirRefreshAmount: RULE.limit,
    reservoirRefreshInterval: RULE.windowMs,
  });
  try {
    const t0 = performance.now();
    const all = Promise.allSettled(Array.from({ length: N }, (_, i) => limiter.schedule(() => sender.send(i))));
    const done = await withTimeout(all, DRAIN_TIMEOUT_MS);
    const totalMs = performance.now() - t0;
    if (done.timedOut) await withTimeout(limiter.stop({ dropWaitingJobs: true }), REQUEST_TIMEOUT_MS);
    return await statsFromMock(mock, {
      limiter: 'bottleneck reservoir 60 / 1000 ms',
      concurrency: BASELINE_CONCURRENCY,
      totalMs,
      timedOut: done.timedOut,
      clientErrors: sender.clientErrors(),
    });
  } finally {
    await limiter.disconnect();
    await sender.close();
    await mock.close();
  }
}

async function drainPQueue(): Promise<DrainStats> {
  const mock = await freshMock();
  const sender = undiciSender(mock);
  const queue = new PQueue({ concurrency: BASELINE_CONCURRENCY, intervalCap: RULE.limit, interval: RULE.windowMs });
  try {
    const t0 = performance.now();
    const all = Promise.allSettled(Array.from({ length: N }, (_, i) => queue.add(() => sender.send(i))));
    const done = await withTimeout(all, DRAIN_TIMEOUT_MS);
    const totalMs = performance.now() - t0;
    if (done.timedOut) {
      queue.pause();
      queue.clear();
    }
    return await statsFromMock(mock, {
      limiter: 'p-queue intervalCap 60 / 1000 ms',
      concurrency: BASELINE_CONCURRENCY,
      totalMs,
      timedOut: done.timedOut,
      clientErrors: sender.clientErrors(),
    });
  } finally {
    queue.clear();
    await sender.close();
    await mock.close();
  }
}

// ---- the bench ----------------------------------------------------------------------------------

export async function benchDrain(): Promise<Result> {
  const agent = await drainAgent();
  const bottleneck = await drainBottleneck();
  const pqueue = await drainPQueue();
  const runs = [agent, bottleneck, pqueue];
  const row = (s: DrainStats): Cell[] => [
    s.limiter,
    s.concurrency,
    s.posts,
    s.delivered,
    s.rateLimited,
    s.otherStatus + s.clientErrors,
    s.maxInAnyWindow,
    s.steadyPerWindow,
    s.rateRatio,
    s.firstToLastMs,
    s.slotReuseMedianMs,
    s.slotReuseMedianMs === null ? null : RULE.windowMs / s.slotReuseMedianMs,
    Math.round(s.totalMs),
    s.timedOut ? 'YES' : 'no',
  ];
  const targets: Target[] = [
    {
      what: 'agent: achieved ÷ allowed rate',
      value: agent.rateRatio,
      target: `≥ ${TARGET_RATE_RATIO}`,
      met: agent.rateRatio === null ? null : agent.rateRatio >= TARGET_RATE_RATIO,
    },
    { what: 'agent: 429s seen by the mock', value: agent.rateLimited, target: '0', met: agent.rateLimited === 0 },
    {
      what: `agent: max POSTs in any ${RULE.windowMs} ms window`,
      value: agent.maxInAnyWindow,
      target: `≤ ${RULE.limit}`,
      met: agent.maxInAnyWindow <= RULE.limit,
    },
    {
      what: 'agent: records on the server (exactly once)',
      value: agent.recordsOnServer - agent.duplicateRecords,
      target: `${N}, 0 duplicates`,
      met: agent.recordsOnServer === N && agent.duplicateRecords === 0 && !agent.timedOut,
    },
  ];
  return {
    name: 'drain',
    title: `drain: ${N}-punch backlog at ${RULE.limit} per ${RULE.windowMs} ms (sliding window on the mock)`,
    tables: [
      {
        title: 'delivery of the backlog',
        columns: [
          'limiter',
          'conc.',
          'POSTs',
          'delivered',
          '429s',
          'other/err',
          `max/${RULE.windowMs}ms`,
          'rate/window',
          'rate ÷ allowed',
          'first→last ms',
          'reuse ms',
          `${RULE.windowMs}/reuse`,
          'total ms',
          'timed out',
        ],
        rows: runs.map(row),
      },
    ],
    targets,
    notes: [
      `rate = (delivered − ${RULE.limit}) / (t_last − t_first) × ${RULE.windowMs} ms over the mock's arrival times of delivered POST /times: the first ${RULE.limit} may go at once, then each window admits ${RULE.limit} more, so a perfect limiter scores rate ÷ allowed = 1.000`,
      `reuse ms = median over i of t[i+${RULE.limit}] − t[i] (delivered arrivals), ${RULE.windowMs}/reuse its efficiency: 1.000 for any perfect limiter whatever its burst shape. The rate above also charges the spread of the LAST window's ${RULE.limit} sends (a sequential sender needs ~${RULE.limit} × one request's time for them), which reuse does not`,
      `agent: the first window's ${RULE.limit} sends arrived over ${agent.firstWindowSpreadMs ?? '—'} ms, the last window's over ${agent.lastWindowSpreadMs ?? '—'} ms (at most ${AGENT_IN_FLIGHT} requests in flight, one durable commit each before sending); slot reuse max ${agent.slotReuseMaxMs ?? '—'} ms`,
      `max/${RULE.windowMs}ms counts every POST /times that arrived (admitted or refused) in any sliding window`,
      `the agent's uploader keeps at most ${AGENT_IN_FLIGHT} requests in flight (its default upload.maxInFlight); both baselines run ${BASELINE_CONCURRENCY} concurrent requests over one undici Pool; the mock runs in a separate process`,
      'baselines do NOT retry 429s: each 429 above is a punch that was not delivered and would need a retry (and a later slot), so their "delivered" falls short of the backlog',
      `agent: roster synced before start(), then one window of quiet, then ${N} punches captured before start() (roster refresh off during the drain); total = start() → flush() done (50 ms poll)`,
      'the mock runs in a process of its own (as the real service does); arrival times are its clock',
      `each drain is bounded by ${DRAIN_TIMEOUT_MS / 1000} s; each baseline request by ${REQUEST_TIMEOUT_MS / 1000} s`,
    ],
    raw: { n: N, rule: RULE, baselineConcurrency: BASELINE_CONCURRENCY, agent, bottleneck, pqueue },
  };
}
