/**
 * A dead RTC (issue 23 item 5): a board without a battery booted at 2000-01-01 before the network
 * came back delivered its punches dated 2000-01-01. Now a time the service never confirmed that is
 * earlier than a punch the service timed before it is held for a person, with the captured time
 * shown; if the service's `Date` comes back in the same boot, the punch is re-timed and goes.
 * Real agent, real SQLite, the mock stopped and started again on its port; one injected time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { heldRow } from '../../renderer/src/held-view.js';
import { statusText } from '../../src/cli/status/format.js';
import { heldPunchSchema } from '../../src/contract.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('a dead RTC', () => {
  it('booted at 2000-01-01 offline, the service back without a Date: held for a person with the captured time; a Date later re-times it (injected time)', async () => {
    const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 20)); // 10:00:20 in São Paulo
    // The service keeps the true time whatever the terminal's wall clock does.
    let wrongBy = 0;
    const service = { now: () => time.clock.now() + wrongBy };
    const mockOn = async (port: number, variants: ServerVariants | null): Promise<MockServer> => {
      const m = await startMockServer({
        seed: demoSeed(),
        rateLimit: { limit: 60, windowMs: 1_000 },
        clock: service,
        port,
        ...(variants ? { variants } : {}),
      });
      cleanups.push(() => m.close());
      return m;
    };
    const first = await mockOn(0, null);
    const t = tempDir();
    cleanups.push(t.cleanup);
    const make = (bootId: string) =>
      testAgent({
        dataDir: t.dir,
        mock: first,
        clock: time.clock,
        mono: time.mono,
        sleep: time.sleep,
        bootId,
        clockCheckEveryMs: 0,
      });

    // A boot with a good clock: the roster, and a punch the service timed.
    const earlier = make('boot-1');
    await earlier.start({ awaitRosterIfEmpty: true });
    expect((await earlier.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
    await time.advanceUntil(() => earlier.status().queue.sent === 1, 'the first punch delivered', 5_000);
    expect(first.records()[0]?.time).toBe('2026-11-23T10:00');
    await earlier.stop();
    await first.close();

    // Power cut; the battery is dead: the board comes up at 2000-01-01, with no network.
    await time.advance(60_000, 1_000);
    const dead = Date.UTC(2000, 0, 1, 2, 0, 0); // 00:00 in São Paulo (summer time then: UTC-2)
    wrongBy = time.clock.now() - dead;
    time.stepWall(dead - time.clock.now());
    const agent = make('boot-2');
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    const punch = await agent.punch({ kind: 'id', value: '1002' });
    // nothing better is known yet
    expect(punch).toMatchObject({ ok: true, localDate: '2000-01-01', localTime: '00:00' });
    await time.advance(500);
    expect(agent.status().queue.pending).toBe(1);

    // The network comes back, but the service (or a proxy) sends no Date.
    const back = await mockOn(first.port, { date: { mode: 'missing' } });
    await time.advanceUntil(() => agent.status().queue.held === 1, 'held for a person', 10_000);
    await time.advance(5_000, 100);
    expect(back.records()).toEqual([]); // never delivered as fact
    const [row] = agent.listHeld();
    expect(row).toMatchObject({ held_reason: 'clock_unverified', local_date: '2000-01-01', local_time: '00:00' });
    expect(row?.last_error).toMatch(
      /^captured at 2000-01-01 00:00 by this terminal's clock, which the service never confirmed; earlier than 2026-11-23 10:00 \(a punch taken before it and timed by the service\)/,
    );
    // What the manager reads on the admin screen's held list.
    const view = heldRow(heldPunchSchema.parse(row), 'en');
    expect(view.when).toMatch(/00:00$/);
    expect(view.reasonText).toMatch(
      /^its time is this terminal's clock, never confirmed by the service, and cannot be right/,
    );
    expect(view.detail).toMatch(/captured at 2000-01-01 00:00/);
    expect(view.decide).toBe('delivery');
    const s = agent.status();
    expect(s.serviceClock?.state).toBe('no_date');
    expect(statusText(s)).toMatch(/^held: +1 punches kept and not sent/m);

    // The Date comes back in this boot: the next punch's probe finds it (a second answer confirms a
    // clock this far from the terminal's), and the held punch is re-timed on it and delivered.
    back.setVariants(null);
    await time.advance(2 * 60_000, 1_000);
    expect((await agent.punch({ kind: 'id', value: '1003' })).ok).toBe(true);
    await time.advanceUntil(
      () => agent.status().queue.sent === 3,
      "re-timed and delivered (and the first boot's one)",
      30_000,
      100,
    );
    expect(agent.status().queue.held).toBe(0);
    expect(
      back
        .records()
        .map((r) => r.time)
        .sort(),
    ).toEqual(['2026-11-23T10:01', '2026-11-23T10:03']);
  });

  it('a person who sends a held punch as it is vouches for its time: it goes once, and is not held again (injected time)', async () => {
    const time = new FakeTime(Date.UTC(2000, 0, 1, 2, 0, 0)); // a dead clock from the start: 00:00 in São Paulo
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 60, windowMs: 1_000 },
      variants: { date: { mode: 'missing' } },
    });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({
      dataDir: t.dir,
      mock,
      clock: time.clock,
      mono: time.mono,
      sleep: time.sleep,
      clockCheckEveryMs: 0,
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    const punch = await agent.punch({ kind: 'id', value: '1001' });
    if (!punch.ok || punch.punchId === null) throw new Error('not registered');
    await time.advanceUntil(() => agent.status().queue.held === 1, 'held for a person', 10_000);
    // Earlier than this software's build: nothing else is known.
    expect(agent.listHeld()[0]?.last_error).toMatch(
      /^captured at 2000-01-01 00:00 .*earlier than 20\d\d-\d\d-\d\d \d\d:\d\d \(the date this software was built\)/,
    );
    expect(agent.decideHeld(punch.punchId, 'resend', 'manager')).toBe(true);
    await time.advanceUntil(() => agent.status().queue.sent === 1, 'sent as the person decided', 10_000);
    await time.advance(5_000, 100);
    expect(mock.records().map((r) => r.time)).toEqual(['2000-01-01T00:00']);
    expect(agent.status().queue.held).toBe(0);
  });
});
