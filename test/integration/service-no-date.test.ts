/**
 * A service that sends no usable `Date` (issue 23 item 5): before, after a reboot the uploader
 * never sent (it waited for the service's time), the time probe spent about a request a second of
 * the account's budget for ever, and status said nothing. Now, after a few answers without one,
 * punches go at this terminal's clock marked unanchored, the probe backs off to minutes, and
 * status says so. Real agent, real SQLite, the mock's `date` variant; one injected time.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { statusText } from '../../src/cli/status/format.js';
import { startMockServer, type RequestLogEntry } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MINUTE = 60_000;
const isProbe = (r: RequestLogEntry) =>
  r.method === 'GET' && r.path.endsWith('/employees') && r.query.max_results === '1';

describe('a service without a usable Date', () => {
  it.each(['missing', 'garbage'] as const)(
    'Date %s: after a few tries punches go at this clock, marked unanchored; the probe backs off to minutes; status says so (injected time)',
    async (mode) => {
      const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 20));
      const mock = await startMockServer({
        seed: demoSeed(),
        rateLimit: { limit: 60, windowMs: 1_000 },
        clock: time.clock,
      });
      cleanups.push(() => mock.close());
      const t = tempDir();
      cleanups.push(t.cleanup);
      // Seconds of back-off as in production, not the tests' milliseconds: the probe's old pace was this.
      const make = (bootId: string) =>
        testAgent({
          dataDir: t.dir,
          mock,
          clock: time.clock,
          mono: time.mono,
          sleep: time.sleep,
          bootId,
          clockCheckEveryMs: 0,
          retry: { baseMs: 1_000, maxMs: 5_000 },
        });
      // An earlier boot synced the roster; this boot has had no answer yet, and the service stops sending a Date.
      const earlier = make('boot-1');
      await earlier.start({ awaitRosterIfEmpty: true });
      await earlier.stop();
      mock.setVariants({ date: { mode } });
      const agent = make('boot-2');
      cleanups.push(() => agent.stop());
      await agent.start({ roster: false });

      const first = await agent.punch({ kind: 'id', value: '1001' });
      expect(first).toMatchObject({ ok: true, localTime: '10:00' });
      await time.advanceUntil(() => agent.status().queue.sent === 1, 'delivered at this clock', 30_000, 100);
      expect(mock.records()[0]?.time).toBe('2026-11-23T10:00');
      // Three answers without a usable Date (the probes), then the punch itself.
      expect(mock.requests().filter(isProbe)).toHaveLength(3);
      const db = new Database(path.join(t.dir, DB_FILE_NAME), { readonly: true });
      cleanups.push(() => void db.close());
      expect(db.prepare('SELECT anchored, clock_flag, state FROM punches').get()).toEqual({
        anchored: 0,
        clock_flag: 'unanchored',
        state: 'sent',
      });

      const s = agent.status();
      expect(s.serviceClock).toMatchObject({
        state: 'no_date',
        offsetMs: null,
        header: mode === 'missing' ? null : expect.stringMatching(/^Someday/),
      });
      expect(statusText(s)).toMatch(
        /^service clock: the service sends no usable Date header.*; punches sent at this terminal's clock/m,
      );
      expect(s.lastError?.message).toMatch(/the service sends no usable Date header/);

      // Two hours of a punch every two minutes: how many probes does the missing Date cost?
      const probesBefore = mock.requests().filter(isProbe).length;
      const codes = ['1002', '1003', '1004', '1005', '1001'];
      let firstHour = 0;
      for (let i = 1; i <= 60; i++) {
        expect((await agent.punch({ kind: 'id', value: codes[i % codes.length] as string })).ok).toBe(true);
        await time.advance(2 * MINUTE, 5_000);
        if (i === 30) firstHour = mock.requests().filter(isProbe).length - probesBefore;
      }
      await time.advanceUntil(() => agent.status().queue.sent === 61, 'all delivered', 60_000, 1_000);
      const secondHour = mock.requests().filter(isProbe).length - probesBefore - firstHour;
      console.log(
        `Date ${mode}: probes for the service's time: 3 before the first send, then ${firstHour} in the first hour and ${secondHour} in the second (a punch every 2 min)`,
      );
      // The old pace was one probe per back-off (a second) for as long as it lasted: 3,600 an hour.
      expect(firstHour).toBeLessThanOrEqual(6);
      expect(secondHour).toBeLessThanOrEqual(4);
      expect(secondHour).toBeGreaterThanOrEqual(1); // still asking, so a Date that comes back is used
      expect(mock.records().every((r) => r.time.startsWith('2026-11-23T'))).toBe(true);
      expect(new Set(mock.records().map((r) => `${r.employee_external_id}|${r.time}`)).size).toBe(61);

      // The Date comes back: the next answer anchors again, and status says it is in use.
      mock.setVariants(null);
      expect((await agent.punch({ kind: 'id', value: '1002' })).ok).toBe(true);
      await time.advanceUntil(
        () => agent.status().serviceClock?.state === 'ok',
        'the Date is used again',
        30_000,
        1_000,
      );
    },
  );
});
