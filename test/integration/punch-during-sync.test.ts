/**
 * A punch taken while a long roster sync fills the window (issue 14, item 4). The sync requests
 * its pages one after another as fast as slots come, so it takes every free slot of a window in a
 * burst and then waits for that burst to age out; a punch arriving meanwhile used to wait for the
 * same thing, up to a whole window. Roster traffic now leaves `rateLimit.punchReserve` of the
 * window free. One real agent, the mock enforcing the limit, injected time for both.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const LIMIT = 20;
const WINDOW_MS = 1_000;
/** 40 pages of 10: two windows' worth of roster traffic. */
const EMPLOYEES = 400;
const PAGE = 10;
const STEP_MS = 10;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const rosterPages = (mock: MockServer) =>
  mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/employees')).length;
const posts = (mock: MockServer) => mock.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/times'));

/** Injected ms from a punch to its POST arriving at the mock, taken half a window into a second sync. */
async function punchDuringSync(
  punchReserve: number,
): Promise<{ delayMs: number; pagesBefore: number; refused: number }> {
  const time = new FakeTime(Date.parse('2026-11-24T12:00:00Z'));
  const mock = await startMockServer({
    seed: generatedSeed({ employees: EMPLOYEES, sites: 1 }),
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    clock: time.clock,
  });
  cleanups.push(() => mock.close());
  const { dir, cleanup } = tempDir('timeclock-reserve-');
  cleanups.push(cleanup);
  const agent = testAgent({
    dataDir: dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
    settings: { rateLimit: { limit: LIMIT, windowMs: WINDOW_MS, punchReserve }, roster: { pageSize: PAGE } },
  });
  cleanups.push(() => agent.stop());
  const first = agent.start({ awaitRosterIfEmpty: true });
  await time.advanceUntil(
    () => agent.status().roster.size === EMPLOYEES,
    'first roster synced',
    20 * WINDOW_MS,
    STEP_MS,
  );
  await first;
  // The first sync's slots age out: the second starts on an empty window.
  await time.advance(2 * WINDOW_MS, STEP_MS);

  const pagesOfFirst = rosterPages(mock);
  let synced = false;
  const second = agent.syncRoster().finally(() => (synced = true));
  await time.advance(WINDOW_MS / 2, STEP_MS);
  const pagesBefore = rosterPages(mock) - pagesOfFirst;
  const at = time.clock.now();
  const r = await agent.punch({ kind: 'badge', value: '100007' });
  expect(r.ok).toBe(true);
  await time.advanceUntil(() => posts(mock).length === 1, 'the punch delivered', 5 * WINDOW_MS, STEP_MS);
  const delayMs = (posts(mock)[0]?.at ?? Number.NaN) - at;
  await time.advanceUntil(() => synced, 'second sync done', 20 * WINDOW_MS, STEP_MS);
  const res = await second;
  expect(res.outcome).toBe('applied');
  console.info(
    `punchReserve ${punchReserve}: ${pagesBefore} roster pages sent before the punch, its POST arrived ${delayMs} ms (injected) after it`,
  );
  return { delayMs, pagesBefore, refused: mock.requests().filter((q) => q.status === 429).length };
}

describe('a punch taken during a roster sync', () => {
  it('is sent at once: the sync leaves a reserve of the window to punches, and nothing is answered 429', async () => {
    const d = await punchDuringSync(0.1);
    // The sync was under way and had filled all but the reserve (10 % of 20: 2 slots).
    expect(d.pagesBefore).toBeGreaterThanOrEqual(LIMIT - 2);
    expect(d.delayMs).toBeLessThanOrEqual(5 * STEP_MS);
    expect(d.refused).toBe(0);
  });

  it("without the reserve waits for the sync's burst to leave the window (the control)", async () => {
    const d = await punchDuringSync(0);
    expect(d.pagesBefore).toBeGreaterThanOrEqual(LIMIT);
    expect(d.delayMs).toBeGreaterThanOrEqual(WINDOW_MS / 3);
    expect(d.refused).toBe(0);
  });
});
