/**
 * Deadlines that a step of the wall clock cannot stretch (issue 12): NTP correcting a clock 2 h
 * fast stepped it back, and nothing was sent for about 2 h although the service was up, because
 * retry times and the persisted rate slots are wall-clock instants. The wall clock here is the real
 * one plus an offset the test steps; the monotonic one is the real one, untouched.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;

async function rig(retry: { baseMs: number; maxMs: number }) {
  const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 } });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const wall = { offset: 2 * HOUR }; // the terminal's clock is 2 h fast
  const make = () =>
    testAgent({
      dataDir: t.dir,
      mock,
      retry,
      clock: { now: () => Date.now() + wall.offset },
      mono: () => performance.now(),
    });
  return { mock, wall, dataDir: t.dir, make };
}

describe('a step of the wall clock', () => {
  it('back by 2 h while punches wait: detected, logged once, and they are sent within the normal back-off (injected time)', async () => {
    // One injected time: the terminal's wall clock 2 h fast, the service's right, both moved by the test.
    const time = new FakeTime(Date.now() + 2 * HOUR);
    let serviceOffset = 2 * HOUR;
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 60, windowMs: 1_000 },
      clock: { now: () => time.clock.now() - serviceOffset },
    });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({
      dataDir: t.dir,
      mock,
      retry: { baseMs: 400, maxMs: 800 },
      clock: time.clock,
      mono: time.mono,
      sleep: time.sleep,
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    for (const id of ['1001', '1002', '1003']) expect((await agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    await time.advanceUntil(
      () => mock.requests().some((r) => r.fault === 'server_error'),
      'the first attempt failed',
      5_000,
    );

    time.stepWall(-2 * HOUR); // NTP steps the clock back by 2 h (the monotonic clock does not move)
    serviceOffset = 0;
    const step = agent.checkClock();
    expect(step).not.toBeNull();
    expect(Math.round((step ?? 0) / HOUR)).toBe(-2);
    expect(agent.checkClock()).toBeNull(); // once
    expect(agent.status().lastError?.message).toMatch(/system clock stepped by -7200 s/);
    mock.setFaults(null);
    // Within the normal back-off (≤ 800 ms) of injected time, not 2 h of it.
    await time.advanceUntil(() => mock.records().length === 3, 'all three sent after the step', 2_000);
  });

  it('back by 2 h while no agent ran: retries and rate slots left in the future neither hold sending nor allow a burst', async () => {
    const { mock, wall, dataDir, make } = await rig({ baseMs: 60_000, maxMs: 60_000 });
    const first = make();
    await first.start({ awaitRosterIfEmpty: true });
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    expect((await first.punch({ kind: 'id', value: '1004' })).ok).toBe(true);
    await waitFor(() => mock.requests().some((r) => r.fault === 'server_error'), 'the first attempt failed');
    await first.stop();
    mock.setFaults(null);

    wall.offset = 0; // stepped back while stopped
    const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
    const future = (
      db.prepare('SELECT COUNT(*) AS n FROM rate_slots WHERE taken_at > ?').get(Date.now() + HOUR) as { n: number }
    ).n;
    db.close();
    expect(future).toBeGreaterThan(0);
    const again = make();
    cleanups.push(() => again.stop());
    await again.start({ awaitRosterIfEmpty: true });
    await waitFor(() => mock.records().length === 1, 'sent at once, not 2 h later', 5_000);
  });
});
