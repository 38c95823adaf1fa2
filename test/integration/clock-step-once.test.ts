/**
 * Clock steps, from a fleet soak (issue 23 item 9): a punch captured in the second before the
 * terminal noticed a forward step was delayed by the size of the step (its deadline, written with
 * the new clock, was shifted again), and a clock that went wrong after the first answer of a boot
 * was never reported (skew metric 0, no log line, nothing in status) although its punches were
 * flagged. The clock watch only looks when the test says (`checkClock`); one injected time.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import type { Logger } from '../../src/log.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { parseProm, sample } from '../helpers/prom-text.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The terminal's wall clock `wrongBy` off the service's (true) one, which the test moves apart. */
async function rig(startWrongBy: number, retry = { baseMs: 400, maxMs: 800 }) {
  const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 20) + startWrongBy);
  const clocks = { wrongBy: startWrongBy };
  const mock = await startMockServer({
    seed: demoSeed(),
    rateLimit: { limit: 60, windowMs: 1_000 },
    clock: { now: () => time.clock.now() - clocks.wrongBy },
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const warnings: string[] = [];
  const log: Logger = {
    debug() {},
    info() {},
    warn: (m) => void warnings.push(m),
    error: (m) => void warnings.push(m),
  };
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    clockCheckEveryMs: 0,
    retry,
    log,
    settings: { selfService: { enabled: false } },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const flag = (id: number) => {
    const db = new Database(path.join(t.dir, DB_FILE_NAME), { readonly: true });
    try {
      return (db.prepare('SELECT clock_flag FROM punches WHERE id = ?').get(id) as { clock_flag: string | null })
        .clock_flag;
    } finally {
      db.close();
    }
  };
  return { time, clocks, mock, agent, warnings, flag };
}

describe('deadlines are shifted once', () => {
  it('a 2 h step forward: a punch captured after it and before its notice is not delayed by 2 h (injected time)', async () => {
    // The terminal's clock is 2 h slow; NTP steps it forward to the true time.
    const { time, clocks, mock, agent } = await rig(-2 * HOUR);
    expect(Math.round((agent.status().clockSkewMs ?? 0) / HOUR)).toBe(2);
    expect(agent.checkClock()).toBeNull(); // the watch's last look, just before the step
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });

    time.stepWall(2 * HOUR);
    clocks.wrongBy = 0;
    // Captured with the new clock, and failed once: its retry time and the back-off are on the new clock too.
    expect(await agent.punch({ kind: 'id', value: '1001' })).toMatchObject({ ok: true, localTime: '10:00' });
    await time.advanceUntil(
      () => mock.requests().some((r) => r.fault === 'server_error'),
      'the first attempt failed',
      5_000,
    );
    // …and the terminal has recorded it: the punch waits for its retry, written with the new clock.
    await time.advanceUntil(
      () => agent.status().queue.sending === 0 && agent.status().queue.pending === 1,
      'the retry scheduled',
      5_000,
      5,
    );

    const step = agent.checkClock(); // the watch notices the step now
    expect(Math.round((step ?? 0) / HOUR)).toBe(2);
    mock.setFaults(null);
    // Within the back-off (≤ 800 ms of injected time), not 2 h of it.
    await time.advanceUntil(() => mock.records().length === 1, 'delivered within the back-off', 5_000);
    expect(mock.records()[0]?.time).toBe('2026-11-23T10:00');
    expect(agent.status().clockSkewMs).toBe(0); // measured again at the step
  });

  it('deadlines written before the step still move with it: a punch failing before a 2 h step back is not held 2 h (injected time)', async () => {
    const { time, clocks, mock, agent } = await rig(2 * HOUR);
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    expect((await agent.punch({ kind: 'id', value: '1002' })).ok).toBe(true);
    await time.advanceUntil(
      () => mock.requests().some((r) => r.fault === 'server_error'),
      'the first attempt failed',
      5_000,
    );
    await time.advanceUntil(
      () => agent.status().queue.sending === 0 && agent.status().queue.pending === 1,
      'the retry scheduled',
      5_000,
      5,
    );
    time.stepWall(-2 * HOUR);
    clocks.wrongBy = 0;
    expect(Math.round((agent.checkClock() ?? 0) / HOUR)).toBe(-2);
    mock.setFaults(null);
    await time.advanceUntil(() => mock.records().length === 1, 'delivered within the back-off', 5_000);
  });
});

describe('skew is re-measured and reported whenever answers show it', () => {
  it('a clock set 10 min fast mid-boot: the next answer shows it in status, the metric and one log line (injected time)', async () => {
    const { time, clocks, agent, warnings, flag } = await rig(0);
    expect(agent.status().clockSkewMs).toBe(0);
    const before = warnings.length;

    // Someone sets the clock 10 min fast after the first answers of this boot; the watch does not look.
    time.stepWall(10 * MINUTE);
    clocks.wrongBy = 10 * MINUTE;
    const ids: number[] = [];
    for (const [i, code] of ['1001', '1002', '1003'].entries()) {
      const r = await agent.punch({ kind: 'id', value: code });
      if (!r.ok || r.punchId === null) throw new Error('not registered');
      expect(r.localTime).toBe(i === 0 ? '10:00' : `10:0${i}`); // the service's time, not the wrong clock's
      ids.push(r.punchId);
      await time.advanceUntil(() => agent.status().queue.sent === i + 1, `punch ${i + 1} delivered`, 5_000);
      await time.advance(MINUTE, 1_000);
    }
    expect(ids.map(flag)).toEqual(['skewed', 'skewed', 'skewed']);
    const s = agent.status();
    expect(Math.abs((s.clockSkewMs ?? 0) + 10 * MINUTE)).toBeLessThan(2_000);
    expect(s.lastError?.message).toMatch(/^the system clock is 600 s off the service's \(fast\)/);
    const m = parseProm(await agentMetrics(agent, { processMetrics: false }).scrape());
    expect(Math.abs((sample(m, 'timeclock_clock_skew_seconds') ?? 0) + 600)).toBeLessThan(2);
    // Said once when it changed, not once per answer.
    expect(warnings.slice(before).filter((w) => /system clock is 600 s off/.test(w))).toHaveLength(1);

    // The watch sees the step late: nothing new to say.
    expect(Math.round((agent.checkClock() ?? 0) / MINUTE)).toBe(10);
    expect(warnings.slice(before).filter((w) => /system clock is 600 s off/.test(w))).toHaveLength(1);
    // Put right again: said too.
    time.stepWall(-10 * MINUTE);
    clocks.wrongBy = 0;
    expect(Math.round((agent.checkClock() ?? 0) / MINUTE)).toBe(-10);
    expect(agent.status().clockSkewMs).toBe(0);
  });

  it('the clock watch sees a step with no request at all: status and the metric say it at once (injected time)', async () => {
    const { time, clocks, agent } = await rig(0);
    const requestsBefore = agent.requestCounts().reduce((n, c) => n + c.count, 0);
    time.stepWall(-5 * MINUTE);
    clocks.wrongBy = -5 * MINUTE;
    expect(Math.round((agent.checkClock() ?? 0) / MINUTE)).toBe(-5);
    expect(Math.abs((agent.status().clockSkewMs ?? 0) - 5 * MINUTE)).toBeLessThan(2_000);
    const m = parseProm(await agentMetrics(agent, { processMetrics: false }).scrape());
    expect(Math.abs((sample(m, 'timeclock_clock_skew_seconds') ?? 0) - 300)).toBeLessThan(2);
    expect(agent.requestCounts().reduce((n, c) => n + c.count, 0)).toBe(requestsBefore);
  });
});
