/**
 * Service-anchored time (issue 12): with the system clock 2 h fast or slow, punches reach the
 * service at the true local time once any answer has been seen, and the first punch of a boot —
 * taken before any answer — is recomputed before it is sent. One injected time drives the
 * terminal's (wrong) wall clock, its monotonic clock and the service's (right) clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;
const trueLocal = (at: number) => localDateTime(at, 'America/Sao_Paulo');

describe('service-anchored time', () => {
  it.each([
    ['2 h fast', 2 * HOUR],
    ['2 h slow', -2 * HOUR],
  ])(
    'clock %s: the first punch of a boot is recomputed before it is sent; later ones are anchored at capture (injected time)',
    async (_what, offset) => {
      // One injected time: the service's clock is the truth, the terminal's wall clock is off by `offset`.
      const time = new FakeTime(Date.UTC(2026, 10, 23, 10, 0, 20) + offset);
      const service = { now: () => time.clock.now() - offset };
      const mock = await startMockServer({
        seed: demoSeed(),
        rateLimit: { limit: 60, windowMs: 1_000 },
        clock: service,
      });
      cleanups.push(() => mock.close());
      const t = tempDir();
      cleanups.push(t.cleanup);
      const make = (bootId: string) =>
        testAgent({ dataDir: t.dir, mock, clock: time.clock, mono: time.mono, sleep: time.sleep, bootId });
      // An earlier boot synced the roster; this boot has heard nothing from the service yet.
      const earlier = make('boot-1');
      await earlier.start({ awaitRosterIfEmpty: true });
      await earlier.stop();
      const agent = make('boot-2');
      cleanups.push(() => agent.stop());
      await agent.start({ roster: false });

      const first = await agent.punch({ kind: 'id', value: '1001' });
      // Shown on the wall clock (nothing better was known), marked to be recomputed…
      expect(first).toMatchObject({ ok: true, localTime: trueLocal(time.clock.now()).time });
      // …and sent at the true local time (07:00 in São Paulo): one probe fetched the service's clock first.
      await time.advanceUntil(() => mock.records().length === 1, 'delivered', 5_000);
      expect(mock.records()[0]?.time).toBe('2026-11-23T07:00');
      // The self-service read of the employee's day (issue 17) may follow the POST at any moment: it is
      // not on the punch's path, whose order is what this asks.
      const order = mock
        .requests()
        .filter((r) => !/\/(timesheets|work-leaves)$/.test(r.path))
        .map((r) => `${r.method} ${r.path.split('/').pop()}${r.query.max_results === '1' ? ' (probe)' : ''}`);
      expect(order.slice(-2)).toEqual(['GET employees (probe)', 'POST times']);

      // From now on a punch is anchored when it is taken: the screen shows the true time too.
      await time.advance(60_000, 1_000);
      const second = await agent.punch({ kind: 'id', value: '1002' });
      expect(second).toMatchObject({ ok: true, localDate: '2026-11-23', localTime: '07:01' });
      await time.advanceUntil(() => mock.records().length === 2, 'second delivered', 5_000);
      expect(mock.records()[1]?.time).toBe('2026-11-23T07:01');
      expect(Math.abs((agent.status().clockSkewMs ?? 0) + offset)).toBeLessThan(1_000);
      expect(agent.status().lastError?.message).toMatch(/system clock is -?7200 s off the service's \((fast|slow)\)/);
    },
  );
});
