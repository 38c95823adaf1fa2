/**
 * The service's clock, within reason (issue 23 item 5): a service (or a gateway in front of it)
 * whose `Date` is a year or an hour ahead must not date punches a year or an hour ahead when this
 * machine's clock is NTP-synchronised; on an unsynchronised clock a far `Date` moves nothing until
 * a second answer agrees. Real agent, real SQLite, the mock's `date` variant; one injected time.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMetrics } from '../../src/agent/metrics/metrics.js';
import { statusText } from '../../src/cli/status/format.js';
import { statusSchema } from '../../src/contract.js';
import { localDateTime } from '../../src/domain/time/local-time.js';
import type { Logger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent, type TestAgentOptions } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { parseProm, sample } from '../helpers/prom-text.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const local = (at: number) => localDateTime(at, 'America/Sao_Paulo');

/** Every log line, by level. */
function capturing(): { log: Logger; lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function rig(
  mockOpts: Parameters<typeof startMockServer>[0],
  agentOpts: Partial<TestAgentOptions>,
  time: FakeTime,
) {
  const mock: MockServer = await startMockServer({
    seed: demoSeed(),
    rateLimit: { limit: 60, windowMs: 1_000 },
    clock: time.clock,
    ...mockOpts,
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const logged = capturing();
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    clockCheckEveryMs: 0,
    log: logged.log,
    ...agentOpts,
  });
  cleanups.push(() => agent.stop());
  const row = (id: number) => {
    const db = new Database(path.join(t.dir, DB_FILE_NAME), { readonly: true });
    try {
      return db.prepare('SELECT clock_flag, anchored, local_time FROM punches WHERE id = ?').get(id) as {
        clock_flag: string | null;
        anchored: number;
        local_time: string;
      };
    } finally {
      db.close();
    }
  };
  return { mock, agent, lines: logged.lines, row };
}

describe("the service's Date, within reason", () => {
  it.each([
    ['a year', 365 * DAY, /off by 365 d \(ahead/],
    ['an hour', HOUR, /off by 60 min \(ahead/],
  ])(
    '%s ahead while this machine is NTP-synchronised: recorded, receipted and delivered at the local time, and said once (injected time)',
    async (_what, ahead, said) => {
      const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 20)); // 10:00:20 in São Paulo
      const { mock, agent, lines, row } = await rig(
        { variants: { date: { mode: 'offset', offsetMs: ahead } } },
        { ntp: 'yes' },
        time,
      );
      await agent.start({ awaitRosterIfEmpty: true });

      const first = await agent.punch({ kind: 'id', value: '1001' });
      expect(first).toMatchObject({
        ok: true,
        localDate: '2026-11-23',
        localTime: '10:00',
        receipt: { date: '2026-11-23', time: expect.stringMatching(/^10:00:/) },
      });
      await time.advanceUntil(() => agent.status().queue.sent === 1, 'delivered', 5_000);
      await time.advance(60_000, 1_000);
      const second = await agent.punch({ kind: 'id', value: '1002' });
      expect(second).toMatchObject({ ok: true, localDate: '2026-11-23', localTime: '10:01' });
      await time.advanceUntil(() => agent.status().queue.sent === 2, 'second delivered', 5_000);
      expect(mock.records().map((r) => r.time)).toEqual(['2026-11-23T10:00', '2026-11-23T10:01']);
      // Marked for payroll: the service's clock disagreed and this machine's was kept.
      if (!first.ok || !second.ok) throw new Error('not registered');
      expect(row(first.punchId ?? 0)).toMatchObject({ clock_flag: 'service_clock_off', anchored: 1 });
      expect(row(second.punchId ?? 0)).toMatchObject({ clock_flag: 'service_clock_off', anchored: 1 });

      const s = agent.status();
      expect(s.serviceClock).toMatchObject({ state: 'off', ntp: 'yes' });
      expect(Math.abs((s.serviceClock?.offsetMs ?? 0) - ahead)).toBeLessThan(2_000);
      expect(statusSchema.parse(s).serviceClock?.state).toBe('off'); // what the admin screen gets
      // This machine's clock is not the one called wrong: no skew, no "fix NTP".
      expect(s.clockSkewMs).toBe(0);
      expect(statusText(s)).toMatch(new RegExp(`^service clock: the service's clock is ${said.source}`, 'm'));
      expect(s.lastError?.message).toMatch(said);
      expect(s.lastError?.message).not.toMatch(/fix NTP/);

      const m = parseProm(await agentMetrics(agent, { processMetrics: false }).scrape());
      expect(Math.abs((sample(m, 'timeclock_service_clock_offset_seconds') ?? 0) - ahead / 1000)).toBeLessThan(2);
      expect(sample(m, 'timeclock_service_clock_state', { state: 'off' })).toBe(1);
      expect(sample(m, 'timeclock_clock_skew_seconds')).toBe(0);

      // One line for the operator, not one per answer (the roster, two probes or sends, their reads).
      expect(mock.requests().length).toBeGreaterThan(4);
      expect(lines.filter((l) => said.test(l.msg))).toHaveLength(1);
    },
  );

  it('this machine not synchronised: one far Date moves nothing; a second answer that agrees does (injected time)', async () => {
    const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 20));
    // The employee's day is not fetched: only the punches' own answers carry the service's clock here.
    const { mock, agent } = await rig({}, { ntp: 'no', settings: { selfService: { enabled: false } } }, time);
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status().serviceClock?.state).toBe('ok');
    // The employers the roster names are read after it (their answers carry the Date too): done first.
    const sources = new Set(
      mock
        .employees()
        .map((e) => e.contract_data?.payment_source)
        .filter((p) => typeof p === 'string'),
    );
    const employerReads = () =>
      new Set(
        mock
          .requests()
          .filter((r) => r.path.includes('/payment-sources/'))
          .map((r) => r.path),
      ).size;
    await time.advanceUntil(() => employerReads() >= sources.size, 'the employers read', 5_000);

    mock.setVariants({ date: { mode: 'offset', offsetMs: 2 * HOUR } }); // the service (or a hop) jumps 2 h ahead
    const before = mock.requests().length;
    expect((await agent.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
    await time.advanceUntil(() => agent.status().queue.sent === 1, 'first delivered (its answer read)', 5_000);
    expect(mock.requests()).toHaveLength(before + 1); // one answer with the far Date
    expect(mock.records()[0]?.time).toBe('2026-11-23T10:00');
    expect(agent.status().serviceClock).toMatchObject({ state: 'unconfirmed', ntp: 'no' });
    expect(Math.abs((agent.status().serviceClock?.jumpMs ?? 0) - 2 * HOUR)).toBeLessThan(2_000);

    // Nothing moved: a punch now still has the time in force.
    await time.advance(60_000, 1_000);
    const held = await agent.punch({ kind: 'id', value: '1002' });
    expect(held).toMatchObject({ ok: true, localTime: local(time.clock.now()).time });
    await time.advanceUntil(() => agent.status().queue.sent === 2, 'second delivered', 5_000);
    expect(mock.records()[1]?.time).toBe('2026-11-23T10:01');

    // Its answer, to a later request, agrees with the first: the service's clock is followed from now on.
    expect(agent.status().serviceClock?.state).toBe('ok');
    await time.advance(60_000, 1_000);
    const moved = await agent.punch({ kind: 'id', value: '1003' });
    expect(moved).toMatchObject({ ok: true, localTime: '12:02' });
    expect(Math.abs((agent.status().clockSkewMs ?? 0) - 2 * HOUR)).toBeLessThan(2_000);
  });
});
