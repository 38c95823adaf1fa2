/**
 * Terminals of one account WITHOUT Redis (issue 14, item 2): each runs its own window at the whole
 * account limit, so together they overrun it; on 429s each finds its share and keeps to it
 * (src/domain/rate/adaptive-rate.ts). Real agents, one mock API enforcing the account's 60 per window,
 * the window scaled to one second, all on one injected time (the mock's too). Asserted: under 5 %
 * of requests answered 429, and shares found that together use 0.90–1.00 of the account's limit;
 * the control (adaptation off) shows both can fail (16 % 429, shares of 3 × 60). The limit used
 * per window of time is the fleet bench's to measure: here real requests run while injected time
 * steps on, so it falls with the machine's load. Where it is the subject (one busy terminal alone
 * has the whole limit), requests take no injected time (`instantRequests`). The drain (24
 * windows of the account's work) ends before the first probe above the found shares can come
 * (HOLD_PAUSES pauses after them): what a probe costs is measured by the fleet bench.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { punchBacklog } from '../helpers/fleet.js';
import { tempDir } from '../helpers/temp.js';

const ACCOUNT_LIMIT = 60;
const WINDOW_MS = 1_000;
const TERMINALS = 3;
/** Punches per busy terminal: 24 windows of the account's work for three. */
const EACH = 480;
/**
 * Injected time moves in steps of this (real I/O settles after each); fine enough for paced sends (50 ms apart at 20 a
 * window).
 */
const STEP_MS = 10;

/**
 * api.timeoutMs where requests take no injected time: past FakeTime's 30 s wait for quiet, which then names a stuck
 * request.
 */
const REAL_TIME_DEADLINE_MS = 30_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Drain = {
  agents: Agent[];
  mock: MockServer;
  backlogs: number[];
  /** API requests from the first punch to the last delivery (its last window counted whole). */
  total: number;
  refused: number;
  /** Share of those requests answered 429. */
  refusedShare: number;
  /** Requests admitted ÷ (limit × windows): the share of the account's limit used. */
  limitUse: number;
  /** Injected time each busy terminal took to deliver its backlog, in windows. */
  doneAfterWindows: number[];
};

/**
 * TERMINALS terminals, each configured at the whole account limit; terminal i captures backlogs[i]
 * punches at once. `instantRequests`: from the drain on, injected time waits (in real time) for
 * every request under way to be answered and recorded, so a request takes no injected time and
 * the requests per window are the budget's, not the machine's (see FakeTime.quietWhen).
 */
async function drain(adaptiveRate: boolean, backlogs: number[], instantRequests = false): Promise<Drain> {
  const time = new FakeTime(Date.now());
  const mock = await startMockServer({
    seed: generatedSeed({ employees: TERMINALS * EACH, sites: 1 }),
    rateLimit: { limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS },
    clock: time.clock,
    // Where requests take no injected time: a connection idle since the roster fetch (seconds of
    // real time on a loaded machine) was once closed by the mock as the first punch reused it
    // (ECONNRESET, the punch in doubt for its grace: the drain 60 windows long).
    ...(instantRequests ? { keepAliveTimeoutMs: 60_000 } : {}),
  });
  cleanups.push(() => mock.close());
  const agents: Agent[] = [];
  for (let i = 0; i < TERMINALS; i++) {
    const { dir, cleanup } = tempDir('timeclock-aimd-');
    cleanups.push(cleanup);
    const agent = testAgent({
      dataDir: dir,
      mock,
      clock: time.clock,
      mono: time.mono,
      sleep: time.sleep,
      adaptiveRate,
      // A request's deadline is a real-time timer: with requests taking no injected time it must
      // not fire because the machine is loaded (it did at 1 s: the request timed out at the
      // terminal, arrived at the service a step later and met the next window's sends: 429).
      ...(instantRequests ? { timeoutMs: REAL_TIME_DEADLINE_MS } : {}),
      settings: {
        terminalId: `T${i}`,
        rateLimit: { limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS },
        // Each punch also asks for its worker's day (self-service reads, only while the window is
        // nearly empty). With requests taking no injected time the whole window frees at one
        // instant, and whether a read or the next punch takes it is a race of real time (once 794
        // requests for 480 punches). Punches are the subject.
        ...(instantRequests ? { selfService: { enabled: false } } : {}),
      },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    agents.push(agent);
    await time.advance(WINDOW_MS, STEP_MS); // one roster fetch per window: no 429 before the drain
  }
  await time.advance(WINDOW_MS, STEP_MS);
  expect(mock.requests().filter((r) => r.status === 429)).toEqual([]);

  if (instantRequests)
    time.quietWhen = () =>
      agents.every((a) => a.status().queue.sending === 0) && mock.requests().every((r) => r.status !== null);
  const since = time.clock.now();
  await Promise.all(agents.map((a, i) => punchBacklog(a, i * EACH, backlogs[i] as number)));
  const busy = agents.map((_, i) => i).filter((i) => (backlogs[i] as number) > 0);
  const doneAt = new Map<number, number>();
  const allDone = () => {
    for (const i of busy)
      if (!doneAt.has(i) && (agents[i] as Agent).status().queue.sent === backlogs[i]) doneAt.set(i, time.clock.now());
    return doneAt.size === busy.length;
  };
  await time.advanceUntil(allDone, 'every backlog delivered', 200 * WINDOW_MS, STEP_MS);

  const lastDone = Math.max(...doneAt.values());
  const reqs = mock.requests().filter((r) => r.at >= since && r.at <= lastDone);
  const refused = reqs.filter((r) => r.status === 429).length;
  const admitted = reqs.filter((r) => r.counted).length;
  const windows = (lastDone - since) / WINDOW_MS + 1;
  return {
    agents,
    mock,
    backlogs,
    total: reqs.length,
    refused,
    refusedShare: refused / reqs.length,
    limitUse: admitted / (ACCOUNT_LIMIT * windows),
    doneAfterWindows: busy.map((i) => ((doneAt.get(i) as number) - since) / WINDOW_MS),
  };
}

function report(what: string, d: Drain): void {
  console.info(
    `${what}: ${d.refused}/${d.total} answered 429 (${(100 * d.refusedShare).toFixed(1)} %), account limit used ${(100 * d.limitUse).toFixed(1)} %, ` +
      `backlogs done after ${d.doneAfterWindows.map((w) => w.toFixed(1)).join(' / ')} windows, limits now ${d.agents.map((a) => a.status().rateWindow.limit).join(' / ')}` +
      `, last errors ${JSON.stringify(d.agents.map((a) => a.status().lastError?.message ?? null))}`,
  );
}

/** Every punch of every terminal on the service exactly once. */
function deliveredOnce(d: Drain): void {
  const sum = d.backlogs.reduce((a, b) => a + b, 0);
  const counts = recordCounts(d.mock.records());
  expect(counts.size).toBe(sum);
  expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
  d.agents.forEach((a, i) =>
    expect(a.status().queue).toMatchObject({ sent: d.backlogs[i], pending: 0, sending: 0, in_doubt: 0 }),
  );
}

const everyone = Array.from({ length: TERMINALS }, () => EACH);

/**
 * Each drain steps injected time through about 30 windows with real I/O settling after every step:
 * 27 s on a quiet 2-core machine, past 60 s when other work shares the cores (CI once timed out at
 * 60 s while a second test run competed). The time is the machine's, not the behaviour's.
 */
const DRAIN_TEST_MS = 180_000;

describe(`${TERMINALS} terminals on one token without Redis, each configured at the whole account limit`, () => {
  it(
    'adapting to 429s: under 5 % answered 429, shares found that use at least 0.90 of the account, every punch once, no terminal left behind, the limit in force in status and metrics',
    async () => {
      const d = await drain(true, everyone);
      report('adaptive', d);
      deliveredOnce(d);
      expect(d.refusedShare).toBeLessThan(0.05);
      // The shares the terminals found use 0.90–1.00 of the account. Not the requests admitted per
      // window of injected time: real requests run while injected time steps on, so that figure falls
      // with the machine's load (0.89–0.91 at load 8–18, the control without adaptation the same),
      // whatever the shares; the fleet bench measures it on real time (README, Fleet set-up).
      const limits = d.agents.map((a) => a.status().rateWindow.limit);
      const found = limits.reduce((a, b) => a + b, 0);
      expect(found).toBeGreaterThanOrEqual(0.9 * ACCOUNT_LIMIT);
      expect(found).toBeLessThanOrEqual(ACCOUNT_LIMIT);
      // The terminals found equal shares: the last is done within two windows of the first.
      expect(Math.max(...d.doneAfterWindows) - Math.min(...d.doneAfterWindows)).toBeLessThan(2);
      // The limit in force is what status and the metric show: cut below the configured one.
      expect(Math.max(...limits)).toBeLessThan(ACCOUNT_LIMIT);
      const metrics = agentMetrics(d.agents[0] as Agent, { processMetrics: false });
      expect(await metrics.scrape()).toMatch(new RegExp(`^timeclock_rate_limit_current ${limits[0]}$`, 'm'));
    },
    DRAIN_TEST_MS,
  );

  it(
    'the control, adaptation off: the same fleet keeps overrunning the account, far above 5 % answered 429 (the test above can fail)',
    async () => {
      const d = await drain(false, everyone);
      report('not adaptive', d);
      deliveredOnce(d);
      expect(d.refusedShare).toBeGreaterThan(0.1);
      for (const a of d.agents) expect(a.status().rateWindow.limit).toBe(ACCOUNT_LIMIT);
    },
    DRAIN_TEST_MS,
  );

  it(
    'one busy terminal while the others idle: it has the whole account limit, no 429',
    async () => {
      // Requests take no injected time here: what is measured per window is the terminal's budget.
      // With requests taking injected time, a slot held from send to one window past the answer
      // made the share used fall with the machine's load (95 % quiet, under 90 % loaded).
      const d = await drain(true, [EACH, 0, 0], true);
      report('one busy', d);
      deliveredOnce(d);
      expect(d.refused).toBe(0);
      expect(d.total).toBe(EACH); // nothing but the punches, each sent once
      // The whole limit in every window, never more: EACH / limit full windows back to back, the
      // last batch sent as that window opens.
      expect(d.limitUse).toBeGreaterThanOrEqual(0.99);
      expect(
        maxInAnyWindow(
          d.mock
            .requests()
            .filter((r) => r.counted)
            .map((r) => r.at),
          WINDOW_MS,
        ),
      ).toBe(ACCOUNT_LIMIT);
      expect(d.doneAfterWindows[0]).toBeLessThan(EACH / ACCOUNT_LIMIT);
      expect(d.agents[0]?.status().rateWindow.limit).toBe(ACCOUNT_LIMIT);
    },
    DRAIN_TEST_MS,
  );
});
