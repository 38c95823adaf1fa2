/**
 * A shift change with the employee's-day fetches on and off. 300 employees punched in earlier
 * (their shifts are open, so the prefetch wants all their days: 600 self-service requests); then
 * 300 others punch in a burst. Their POST /times must drain at the same rate either way: the
 * fetches take the budget's lowest priority and stand aside while punches are due.
 *
 * Measured from the mock's request log (a process of its own, 60 per 1,000 ms sliding window):
 * the burst's steady rate (a window's worth of POSTs per median t[i+60] − t[i], which charges the
 * burst neither for where it began nor for its last window), when its last punch arrived, 429s,
 * and how many self-service requests went out while it drained. The slots self-service reads held
 * when the burst began are a one-time cost the burst's end shows (at most one window, for at most
 * selfService.maxShare of the limit). The two runs are the same run's baseline for each other.
 */
import { API_VERSION_SEGMENT } from '../../src/api/shapes.js';
import type { WindowRule } from '../../src/domain/rate/sliding-window.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { slotReuse, steadyRate } from './drain.bench.js';
import { startMockProcess } from './mock-process.js';
import type { Result } from './report.js';
import { benchAgent, sleep, tempDir, withTimeout } from './support.js';

const N = 300;
const RULE: WindowRule = { limit: 60, windowMs: 1_000 };
const SITE_ID = objectIdFor('gen-site', 0);
const externalId = (i: number) => String(100000 + i);

type Run = {
  selfService: boolean;
  burstPosts: number;
  delivered: number;
  rateLimited: number;
  /** POSTs a window in the burst's steady state. */
  steady: number | null;
  /**
   * (delivered − limit) / (first to last) × window: the drain bench's rate, which the burst's last window weighs on.
   */
  rate: number | null;
  /** From the burst's first punch to its last delivery. */
  lastMs: number;
  drainMs: number;
  selfServiceDuring: number;
  selfServiceTotal: number;
};

async function shiftChange(selfService: boolean): Promise<Run> {
  const mock = await startMockProcess({ employees: 2 * N, rule: RULE });
  const dir = tempDir('timeclock-bench-self-service-');
  const agent = benchAgent({
    dataDir: dir.dir,
    baseUrl: mock.url,
    siteId: SITE_ID,
    rateLimit: RULE,
    extra: { selfService: { enabled: selfService, prefetchEveryMs: 1_000 }, roster: { refreshMs: 3_600_000 } },
  });
  try {
    const synced = await withTimeout(agent.syncRoster(), 30_000);
    if (synced.timedOut || !synced.value.ok) throw new Error('roster sync failed');
    await agent.start({ roster: false });
    // Earlier: the first 300 punch in and are delivered; their open shifts feed the prefetch.
    for (let i = 0; i < N; i++)
      if (!(await agent.punch({ kind: 'badge', value: externalId(i) })).ok) throw new Error(`punch ${i}`);
    const early = await withTimeout(agent.flush({ maxWaitMs: 30_000 }), 32_000);
    if (early.timedOut || !early.value.done) throw new Error('the first punches did not drain');
    // Two windows for the self-service fetches to get going on what punches leave.
    await sleep(2 * RULE.windowMs);
    const t0 = Date.now();
    for (let i = N; i < 2 * N; i++)
      if (!(await agent.punch({ kind: 'badge', value: externalId(i) })).ok) throw new Error(`punch ${i}`);
    const burst = await withTimeout(agent.flush({ maxWaitMs: 30_000 }), 32_000);
    const drainMs = Date.now() - t0;
    if (burst.timedOut || !burst.value.done) throw new Error('the shift change did not drain');
    const requests = await mock.requests();
    const posts = requests.filter(
      (r) => r.method === 'POST' && r.path === `${API_VERSION_SEGMENT}/times` && r.at >= t0,
    );
    const delivered = posts.filter((r) => r.status !== null && r.status >= 200 && r.status < 300);
    const last = Math.max(...delivered.map((r) => r.at));
    const median = slotReuse(
      delivered.map((r) => r.at),
      RULE,
    ).medianMs;
    const isSelf = (p: string) => p.endsWith('/timesheets') || p.endsWith('/work-leaves');
    return {
      selfService,
      burstPosts: posts.length,
      delivered: delivered.length,
      rateLimited: requests.filter((r) => r.status === 429).length,
      steady: median === null ? null : (RULE.limit * RULE.windowMs) / median,
      rate: steadyRate(
        delivered.map((r) => r.at),
        RULE,
      ).perWindow,
      lastMs: last - t0,
      drainMs,
      selfServiceDuring: requests.filter((r) => isSelf(r.path) && r.at >= t0 && r.at <= last).length,
      selfServiceTotal: requests.filter((r) => isSelf(r.path)).length,
    };
  } finally {
    await agent.stop();
    await mock.close();
    dir.cleanup();
  }
}

export async function benchSelfService(): Promise<Result> {
  const off = await shiftChange(false);
  const on = await shiftChange(true);
  const ratio = on.steady !== null && off.steady !== null ? on.steady / off.steady : null;
  const later = on.lastMs - off.lastMs;
  return {
    name: 'self-service',
    title: `self-service: a ${N}-punch shift change with the employee's-day fetches on and off (${RULE.limit} per ${RULE.windowMs} ms)`,
    tables: [
      {
        title: 'the burst of punches',
        columns: [
          'fetches',
          'POSTs',
          'delivered',
          '429s',
          'steady/window',
          'first-to-last/window',
          'last delivered ms',
          'drain ms',
          'fetches during the drain',
          'fetches in all',
        ],
        rows: [off, on].map((r) => [
          r.selfService ? 'on' : 'off',
          r.burstPosts,
          r.delivered,
          r.rateLimited,
          r.steady,
          r.rate,
          r.lastMs,
          r.drainMs,
          r.selfServiceDuring,
          r.selfServiceTotal,
        ]),
      },
    ],
    targets: [
      {
        what: 'steady punch drain rate, fetches on ÷ off',
        value: ratio,
        target: '≥ 0.95',
        met: ratio === null ? null : ratio >= 0.95,
      },
      {
        what: "the burst's last delivery, fetches on − off (ms)",
        value: later,
        target: `≤ ${RULE.windowMs} (one window)`,
        met: later <= RULE.windowMs,
      },
      { what: 'burst delivered with fetches on', value: on.delivered, target: `${N}`, met: on.delivered === N },
      { what: '429s with fetches on', value: on.rateLimited, target: '0', met: on.rateLimited === 0 },
    ],
    notes: [
      `${N} employees punched in and were delivered first (open shifts: the prefetch, every 1 s here, wants their days, 2 requests each); two windows later ${N} others punch as fast as capture allows`,
      "steady = limit × window ÷ the median of t[i + limit] − t[i] over the burst's delivered POST /times; first-to-last = (delivered − limit) / (t_last − t_first) × window (the drain bench's rate, which the end of the burst weighs on)",
      `the self-service reads held up to ${Math.floor(RULE.limit * 0.1)} slots (selfService.maxShare 0.1) when the burst began: the burst's last that many punches wait for them to leave the window, up to one window later; with ${N} = ${N / RULE.limit} × the limit that is the worst case, on average a burst ends maxShare × window later (6 s at the real minute)`,
      '"fetches during the drain": GET /timesheets and /work-leaves that arrived between the burst\'s first punch and its last delivery (those in flight when it began, standing aside after)',
    ],
    raw: { n: N, rule: RULE, off, on, ratio },
  };
}
