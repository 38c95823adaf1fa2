/**
 * Terminals of one account WITHOUT Redis (issue 14, item 2): each runs its own window at the whole
 * account limit, so together they overrun it; on a 429 each cuts its own limit and earns it back
 * slowly (AIMD), so the fleet settles on shares of the account. Three real agents, one mock API
 * enforcing the account's 60 per window, the window scaled to one second, all on one injected time
 * (the mock's too). Measured numbers are printed; the control (adaptation off) reproduces the
 * issue's 13-15 % of 429s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/agent.js';
import { agentMetrics } from '../../src/agent/metrics.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { punchBacklog } from '../helpers/fleet.js';
import { tempDir } from '../helpers/temp.js';

const ACCOUNT_LIMIT = 60;
const WINDOW_MS = 1_000;
const TERMINALS = 3;
/** Punches per terminal: 30 windows of the account's work in all, long enough for the start to settle. */
const EACH = 600;
/** Injected time moves in steps of this (real I/O settles after each). */
const STEP_MS = 25;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** What the service saw over a stretch of the drain. */
type Stretch = {
  refused: number;
  total: number;
  /** Share of API requests answered 429. */
  refusedShare: number;
  /** Requests admitted per window, over the account limit. */
  limitUse: number;
};

type Drain = {
  agents: Agent[];
  mock: MockServer;
  /** From the first punch to the last delivery (its last window counted whole). */
  whole: Stretch;
  /** After SETTLE windows, while every terminal still had a backlog: the steady state. */
  contended: Stretch;
  /** Injected time each terminal took to deliver its backlog, in windows. */
  doneAfterWindows: number[];
};

/** Windows after the first punch that the fleet takes to cut from N times the limit to about its share. */
const SETTLE = 5;

function stretch(mock: MockServer, from: number, to: number, windows: number): Stretch {
  const reqs = mock.requests().filter((r) => r.at >= from && r.at < to);
  const refused = reqs.filter((r) => r.status === 429).length;
  const admitted = reqs.filter((r) => r.counted).length;
  return { refused, total: reqs.length, refusedShare: refused / reqs.length, limitUse: admitted / (ACCOUNT_LIMIT * windows) };
}

/** Three terminals, each configured at the whole account limit, each with a backlog of EACH punches. */
async function drain(adaptiveRate: boolean): Promise<Drain> {
  const time = new FakeTime(Date.now());
  const mock = await startMockServer({
    seed: generatedSeed({ employees: TERMINALS * EACH, sites: 1 }),
    rateLimit: { limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS },
    clock: time.clock,
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
      settings: { terminalId: `T${i}`, rateLimit: { limit: ACCOUNT_LIMIT, windowMs: WINDOW_MS } },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    agents.push(agent);
    await time.advance(WINDOW_MS, STEP_MS); // one roster fetch per window: no 429 before the drain
  }
  await time.advance(WINDOW_MS, STEP_MS);
  expect(mock.requests().filter((r) => r.status === 429)).toEqual([]);

  const since = time.clock.now();
  await Promise.all(agents.map((a, i) => punchBacklog(a, i * EACH, EACH)));
  const doneAt: (number | null)[] = agents.map(() => null);
  const allDone = () => {
    agents.forEach((a, i) => {
      if (doneAt[i] === null && a.status().queue.sent === EACH) doneAt[i] = time.clock.now();
    });
    return doneAt.every((d) => d !== null);
  };
  await time.advanceUntil(allDone, 'every backlog delivered', 200 * WINDOW_MS, STEP_MS);

  const done = doneAt as number[];
  const firstDone = Math.min(...done);
  const lastDone = Math.max(...done);
  const settled = since + SETTLE * WINDOW_MS;
  return {
    agents,
    mock,
    whole: stretch(mock, since, lastDone + 1, (lastDone - since) / WINDOW_MS + 1),
    contended: stretch(mock, settled, firstDone, (firstDone - settled) / WINDOW_MS),
    doneAfterWindows: done.map((d) => (d - since) / WINDOW_MS),
  };
}

function report(what: string, d: Drain): void {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const line = (s: Stretch) => `${s.refused}/${s.total} answered 429 (${pct(s.refusedShare)}), limit use ${pct(s.limitUse)}`;
  console.info(
    `${what}: whole drain ${line(d.whole)}; steady (after ${SETTLE} windows, all terminals busy) ${line(d.contended)}; ` +
      `backlogs done after ${d.doneAfterWindows.map((w) => w.toFixed(1)).join(' / ')} windows`,
  );
}

/** Every punch of every terminal on the service exactly once. */
function deliveredOnce(d: Drain): void {
  const counts = recordCounts(d.mock.records());
  expect(counts.size).toBe(TERMINALS * EACH);
  expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
  for (const a of d.agents) expect(a.status().queue).toMatchObject({ sent: EACH, pending: 0, sending: 0, in_doubt: 0 });
}

describe(`${TERMINALS} terminals on one token without Redis, each configured at the whole account limit`, () => {
  it('adapting to 429s: under 5 % answered 429, every punch once, neither the account nor a terminal starved, the limit in force in status and metrics', async () => {
    const d = await drain(true);
    report('adaptive', d);
    deliveredOnce(d);
    // The goal is < 5 % answered 429 (measured about 2 %; steady state under 1 %).
    expect(d.whole.refusedShare).toBeLessThan(0.05);
    expect(d.contended.refusedShare).toBeLessThan(0.03);
    // Adapting must not starve the account (measured 69-78 % whole, 77-89 % steady; the control 82-86 %).
    expect(d.contended.limitUse).toBeGreaterThan(0.6);
    // Nor a terminal: every backlog is done within twice the time the account needs for all of them.
    expect(Math.max(...d.doneAfterWindows)).toBeLessThan((2 * TERMINALS * EACH) / ACCOUNT_LIMIT);
    // The limit in force is what status and the metric show: cut below the configured one somewhere.
    const limits = d.agents.map((a) => a.status().rateWindow.limit);
    expect(Math.min(...limits)).toBeLessThan(ACCOUNT_LIMIT);
    const metrics = agentMetrics(d.agents[limits.indexOf(Math.min(...limits))] as Agent, { processMetrics: false });
    expect(await metrics.scrape()).toMatch(new RegExp(`^timeclock_rate_limit_current ${Math.min(...limits)}$`, 'm'));
  });

  it('the control, adaptation off: the same fleet keeps overrunning the account (the test above can fail)', async () => {
    const d = await drain(false);
    report('not adaptive', d);
    deliveredOnce(d);
    expect(d.whole.refusedShare).toBeGreaterThan(0.1);
    expect(d.contended.refusedShare).toBeGreaterThan(0.1);
    for (const a of d.agents) expect(a.status().rateWindow.limit).toBe(ACCOUNT_LIMIT);
  });
});
