/**
 * A service without some read routes (issue 23 item 7): the mock's `absentRoutes` variant answers
 * GET /timesheets, /work-leaves, /times or /sites as a server without them does (404 with Eve's
 * body, a proxy's HTML 404, 405, 501). The real pipeline (roster sync, capture, delivery, the
 * employee's-day fetches, reconciliation) on one injected time: a missing route is asked at most
 * once an hour while punches flow, what the service has is still shown, status and doctor name
 * the route, and a restart asks again once. An in-doubt punch still goes to a person.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { PunchAnswer } from '../../src/agent/receipts/receipts.js';
import { statusText } from '../../src/cli/status/format.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { byCheck, doctorEnv, fakeTools, type Line } from '../helpers/doctor.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** 08:00 in São Paulo (the test agent's zone) on 2026-11-24. */
const EIGHT_AM = Date.UTC(2026, 10, 24, 11, 0, 0);
const MINUTE = 60_000;
const HOUR = 3_600_000;
const seed = generatedSeed({ employees: 60, sites: 1 });
const SITE = seed.sites[0]?._id as string;
const code = (i: number) => String(100000 + i);

type Rig = { time: FakeTime; mock: MockServer; agent: Agent; dataDir: string; start: () => Promise<Agent> };

async function rig(variants: ServerVariants, settings: Record<string, unknown> = {}): Promise<Rig> {
  const time = new FakeTime(EIGHT_AM);
  const mock = await startMockServer({ seed, rateLimit: { limit: 60, windowMs: MINUTE }, clock: time.clock, variants });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const start = async (): Promise<Agent> => {
    const agent = testAgent({
      dataDir: t.dir,
      mock,
      siteId: SITE,
      rateLimit: { limit: 60, windowMs: MINUTE },
      clock: time.clock,
      mono: time.mono,
      sleep: time.sleep,
      settings: { selfService: { prefetchEveryMs: 0 }, ...settings },
    });
    cleanups.push(() => agent.stop());
    const started = agent.start({ awaitRosterIfEmpty: true });
    await time.advanceUntil(() => agent.status().roster.size > 0, 'the roster synced');
    await started;
    return agent;
  };
  const agent = await start();
  return { time, mock, agent, dataDir: t.dir, start };
}

const asked = (mock: MockServer, path: string) =>
  mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith(path));

function dayOf(r: PunchAnswer) {
  if (!r.ok || !r.day) throw new Error(`no day on ${JSON.stringify(r)}`);
  return r.day;
}

/** One punch of employee `i`, then `gapMs` of time for delivery and the fetches that follow it. */
async function punchAndWait(r: Pick<Rig, 'agent' | 'time'>, i: number, gapMs: number): Promise<PunchAnswer> {
  const a = await r.agent.punch({ kind: 'badge', value: code(i) });
  expect(a.ok).toBe(true);
  await r.time.advance(gapMs, 5_000);
  return a;
}

describe('a service without GET /timesheets', () => {
  it('is asked at most once an hour while punches flow; leave notes still show; status, the admin facts and doctor name it', async () => {
    // Presence's rounds (GET /times of everyone inside, every 2 min) share the reads' slots and take
    // precedence: 36 people inside fill them, and which read gets a slot became a race of real time.
    const r = await rig({ absentRoutes: ['/timesheets'] }, { presence: { fallbackPeople: 0 } });
    r.mock.addLeave({
      employee: code(1),
      type: 'ferias',
      start_date: '2026-11-20',
      end_date: '2026-11-30',
      approved: true,
    });
    const start = r.time.clock.now();
    // Three hours of a punch every five minutes, 36 employees in turn (each one's day is fetched after their punch).
    for (let i = 0; i < 36; i++) await punchAndWait(r, i, 5 * MINUTE);
    expect(r.agent.status().queue.sent).toBe(36);

    const sheets = asked(r.mock, '/timesheets').map((q) => q.at - start);
    // The first 404 may be about that employee; the second, for another one, shows the route missing.
    // Then once after an hour, and the next pause is two hours: three requests in three hours, not 36.
    expect(sheets).toHaveLength(3);
    expect(asked(r.mock, '/timesheets').every((q) => q.status === 404)).toBe(true);
    expect((sheets[2] as number) - (sheets[1] as number)).toBeGreaterThanOrEqual(HOUR);
    // Leaves are still read for each employee: the part the service has is still shown. All but the
    // first: its 404 may have been about that employee, so that day read failed as a whole.
    expect(asked(r.mock, '/work-leaves').length).toBeGreaterThanOrEqual(35);
    const again = await r.agent.punch({ kind: 'badge', value: code(1) });
    expect(dayOf(again)).toMatchObject({
      leave: { kind: 'vacation', type: 'ferias' },
      hoursBank: null,
      serviceAt: null,
      direction: 'exit',
    });

    const s = r.agent.status();
    // Dated by the answers (within the 5 s steps this test moves time by).
    const within = (at: number): unknown => expect.toSatisfy((v: number) => v >= start + at && v <= start + at + 5_000);
    expect(s.absentRoutes).toEqual([
      {
        route: 'GET /timesheets',
        status: 404,
        since: within(sheets[0] as number),
        lastAt: within(sheets[2] as number),
        nextAt: expect.any(Number),
        pauses: 2,
      },
    ]);
    expect(s.absentRoutes[0]?.nextAt).toBe((s.absentRoutes[0]?.lastAt as number) + 2 * HOUR);
    // Whether the service answers is not what a missing route says: it does, and delivery is healthy.
    expect(s.online).toBe(true);
    expect(statusText(s)).toMatch(
      /not on service: The service has no GET \/timesheets \(404 since 2026-11-24 \d\d:\d\d\): the employee's hours bank and the day's punches from the service are not shown; asked again at /,
    );
    // Not an error storm: the log of failures said it once, and the last error is not about it.
    expect(s.lastError?.message ?? '').not.toMatch(/timesheets/);

    // `timeclock status` and doctor, from the database, in other processes.
    await r.agent.stop();
    const tools = fakeTools(r.dataDir, 'yes');
    const env = doctorEnv({ apiUrl: r.mock.url, siteId: SITE, dataDir: r.dataDir, tools });
    const status = JSON.parse((await runCli(['status', '--json'], env)).stdout) as {
      absentRoutes: { route: string; status: number }[];
    };
    expect(status.absentRoutes).toMatchObject([{ route: 'GET /timesheets', status: 404 }]);
    const doctor = await runCli(['doctor', '--json'], env);
    const service = byCheck(JSON.parse(doctor.stdout) as Line[])['service'];
    expect(service).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(
        /token accepted .*; The service has no GET \/timesheets \(404 since .*\): the employee's hours bank/,
      ),
    });
  });

  it('a restart asks again, once: one 404 pauses the route again, and the status keeps its first date', async () => {
    const r = await rig({ absentRoutes: ['/timesheets'] });
    for (let i = 0; i < 4; i++) await punchAndWait(r, i, MINUTE);
    expect(asked(r.mock, '/timesheets')).toHaveLength(2);
    const since = r.agent.status().absentRoutes[0]?.since;
    expect(since).toBeGreaterThan(0);
    await r.agent.stop();

    const agent = await r.start();
    const before = asked(r.mock, '/timesheets').length;
    for (let i = 10; i < 20; i++) await punchAndWait({ agent, time: r.time }, i, MINUTE);
    expect(asked(r.mock, '/timesheets').length - before).toBe(1);
    expect(agent.status().absentRoutes).toMatchObject([{ route: 'GET /timesheets', since, pauses: 1 }]);
  });

  it.each<[string, ServerVariants['absentRouteStatus'], number]>([
    ['405', 405, 1],
    ['501', 501, 1],
    ["a proxy's HTML 404", 'html-404', 2],
  ])(
    'answered %s: paused (405 and 501 at once, a 404 after a second employee); every punch still shows its day',
    async (_what, status, requests) => {
      const r = await rig({ absentRoutes: ['/timesheets', '/work-leaves'], absentRouteStatus: status });
      for (let i = 0; i < 8; i++) await punchAndWait(r, i, MINUTE);
      expect(asked(r.mock, '/timesheets')).toHaveLength(requests);
      expect(asked(r.mock, '/work-leaves')).toHaveLength(requests);
      expect(r.agent.status().absentRoutes.map((a) => [a.route, a.status])).toEqual([
        ['GET /timesheets', status === 'html-404' ? 404 : status],
        ['GET /work-leaves', status === 'html-404' ? 404 : status],
      ]);
      expect(r.agent.status().queue.sent).toBe(8);
      // Every punch still answered with its day: entry or exit and this terminal's own punches.
      const last = await r.agent.punch({ kind: 'badge', value: code(0) });
      expect(dayOf(last)).toMatchObject({ direction: 'exit', hoursBank: null, leave: null });
    },
  );

  it('GET /sites missing: the roster still syncs, the site name is not read, and the roster does not ask it again within the hour', async () => {
    const r = await rig({ absentRoutes: ['/sites'], absentRouteStatus: 405 }, { roster: { refreshMs: 10 * MINUTE } });
    expect(r.agent.status().roster.size).toBe(60);
    await r.time.advance(45 * MINUTE, 10_000);
    expect(r.agent.status().roster.lastSync).toMatchObject({ ok: true });
    expect(asked(r.mock, `/sites/${SITE}`)).toHaveLength(1);
    expect(r.agent.status().absentRoutes).toMatchObject([{ route: 'GET /sites', status: 405 }]);
  });
});

describe('a service without GET /times', () => {
  it('an in-doubt punch still goes to a person; once the route is known missing, later ones go at once, without a request', async () => {
    const r = await rig(
      { absentRoutes: ['/times'] },
      { retry: { baseMs: 2_000, maxMs: 60_000, inDoubtGraceMs: 1_000, maxChecks: 3 } },
    );
    const inDoubt = async (i: number): Promise<void> => {
      r.mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
      expect((await r.agent.punch({ kind: 'badge', value: code(i) })).ok).toBe(true);
      await r.time.advanceUntil(
        () => r.mock.records().some((x) => x.employee_external_id === code(i)),
        'stored, the answer lost',
      );
      r.mock.setFaults(null);
      await r.time.advanceUntil(
        () => r.agent.listHeld().some((h) => h.employee_external_id === code(i)),
        `punch of ${code(i)} handed to a person`,
        10 * MINUTE,
        250,
      );
    };
    // The first: as before, its bounded checks (one employee's 404 may be about them), then a person.
    await inDoubt(1);
    expect(asked(r.mock, '/times')).toHaveLength(3);
    expect(r.agent.listHeld()[0]?.last_error).toMatch(/would not say whether it has this punch \(3 checks, last: 404 /);
    // The second: a 404 for another employee shows the route missing; its next check asks nothing.
    await inDoubt(2);
    expect(asked(r.mock, '/times')).toHaveLength(4);
    // The third: no request at all.
    await inDoubt(3);
    expect(asked(r.mock, '/times')).toHaveLength(4);
    const held = r.agent.listHeld().filter((h) => h.employee_external_id !== code(1));
    expect(held).toHaveLength(2);
    for (const h of held) {
      expect(h).toMatchObject({ held_reason: 'unverified', state: 'held' });
      expect(h.last_error).toMatch(
        /^the service has no GET \/times \(404 since 2026-11-24 \d\d:\d\d UTC\), so it cannot say whether it has this punch: send it again or mark it delivered$/,
      );
    }
    // Never sent twice: each record is the one the service stored when its answer was lost.
    expect(r.mock.records()).toHaveLength(3);
    expect(r.mock.requests().filter((q) => q.method === 'POST')).toHaveLength(3);
    expect(r.agent.status().absentRoutes).toMatchObject([{ route: 'GET /times', status: 404 }]);
  });
});
