/**
 * One terminal alone at the account's limit, no Redis (issue 24 item 8), as installed: started cold
 * (its roster synced by start()), then a shift change: people badge faster than the limit lets
 * punches out, so it drains a backlog at its limit. The service (the mock, on the same injected
 * time) never answers 429 and never counts more than the limit in any window; every punch lands
 * once. How close to the limit it drains is a timing figure: the fleet bench's `alone` line.
 * The control, a terminal configured above the account's limit with adaptation off, shows the
 * service does refuse what goes over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const LIMIT = 60;
const WINDOW_MS = 1_000;
/** Five windows of work, badged over the first two and a half: twice what the limit lets out. */
const PUNCHES = 5 * LIMIT;
const ARRIVAL_MS = 2.5 * WINDOW_MS;
const STEP_MS = 10;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Run = { mock: MockServer; refused: number; maxCounted: number; maxArrived: number; sent: number };

async function shiftChange(limit: number, adaptiveRate: boolean): Promise<Run> {
  const time = new FakeTime(Date.now());
  const mock = await startMockServer({
    seed: generatedSeed({ employees: PUNCHES, sites: 1 }),
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    clock: time.clock,
  });
  cleanups.push(() => mock.close());
  const { dir, cleanup } = tempDir('timeclock-lone-');
  cleanups.push(cleanup);
  const agent = testAgent({
    dataDir: dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    adaptiveRate,
    settings: { rateLimit: { limit, windowMs: WINDOW_MS } },
  });
  cleanups.push(() => agent.stop());
  await agent.start();
  await time.advanceUntil(
    () => agent.status().roster.size === PUNCHES,
    'roster synced at start',
    10 * WINDOW_MS,
    STEP_MS,
  );
  // Badges at even intervals over the arrival time, each committed through the capture path.
  const t0 = time.clock.now();
  for (let k = 0; k < PUNCHES;) {
    while (k < PUNCHES && time.clock.now() - t0 >= (k * ARRIVAL_MS) / PUNCHES) {
      const r = await agent.punch({ kind: 'badge', value: String(100000 + k) });
      if (!r.ok) throw new Error(`punch ${k} refused: ${JSON.stringify(r)}`);
      k++;
    }
    await time.advance(STEP_MS, STEP_MS);
  }
  await time.advanceUntil(
    () => agent.status().queue.sent === PUNCHES,
    'every punch delivered',
    60 * WINDOW_MS,
    STEP_MS,
  );
  const reqs = mock.requests();
  return {
    mock,
    refused: reqs.filter((r) => r.status === 429).length,
    maxCounted: maxInAnyWindow(
      reqs.filter((r) => r.counted).map((r) => r.at),
      WINDOW_MS,
    ),
    maxArrived: maxInAnyWindow(
      reqs.map((r) => r.at),
      WINDOW_MS,
    ),
    sent: agent.status().queue.sent,
  };
}

describe('one terminal alone at the account limit, started cold, at a shift change', () => {
  it('drains its backlog with no request answered 429 and never more than the limit in any window, every punch once', async () => {
    const run = await shiftChange(LIMIT, true);
    expect(run.refused).toBe(0);
    expect(run.maxArrived).toBeLessThanOrEqual(LIMIT);
    // It did drain at the limit at some point: some window held the whole limit.
    expect(run.maxCounted).toBe(LIMIT);
    const counts = recordCounts(run.mock.records());
    expect(counts.size).toBe(PUNCHES);
    expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
  }, 120_000);

  it('control: configured above the account limit with adaptation off, the service refuses what goes over', async () => {
    const run = await shiftChange(LIMIT + 10, false);
    expect(run.refused).toBeGreaterThan(0);
    expect(run.maxArrived).toBeGreaterThan(LIMIT);
    expect(run.sent).toBe(PUNCHES);
  }, 120_000);
});
