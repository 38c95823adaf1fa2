/**
 * What keeping the roster fresh costs in requests per day (issue 14, item 4), at 100, 10,000 and
 * 100,000 employees, against a service that ignores a filter on `_updated` (the mock's default:
 * every refresh is a full sync) and one that honours it (the `updatedFilter` variant: a refresh
 * asks for the site's count and for what changed; one full sync a day).
 *
 * A real agent and the mock in this process, on one injected time. The day: the default schedule
 * (`roster.refreshMs` 6 h: four refreshes, the last one at 24 h, when `roster.fullEveryMs` makes
 * it a full sync), 1 % of the employees changed over the day (spread over the four stretches),
 * none leaving (someone leaving makes that refresh a full one: see roster-changes.test.ts). The
 * agent's own schedule is off and the four refreshes are asked at their times, so the count is
 * exactly the day's. Requests are counted by the mock (GET /employees and /sites). Baseline: the
 * account's whole budget for a day, 60 per minute = 86,400 requests.
 */
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import type { Cell, Result, Target } from './report.js';
import { tempDir } from './support.js';

const SIZES = [100, 10_000, 100_000];
const HOUR = 3_600_000;
const REFRESH_MS = 6 * HOUR;
const DAY_BUDGET = 60 * 60 * 24;
const CHANGED_PER_DAY = 0.01;

type Day = {
  employees: number;
  filter: boolean;
  perRefresh: number[];
  perDay: number;
  firstSync: number;
  seconds: number;
};

const rosterRequests = (mock: MockServer, from: number) =>
  mock
    .requests()
    .slice(from)
    .filter((r) => r.method === 'GET' && (r.path.endsWith('/employees') || r.path.includes('/sites'))).length;

async function oneDay(employees: number, filter: boolean): Promise<Day> {
  const t0 = performance.now();
  const time = new FakeTime(Date.parse('2026-11-24T09:00:00Z'));
  const seed = generatedSeed({ employees, sites: 1 });
  const mock = await startMockServer({
    seed,
    clock: time.clock,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    ...(filter ? { variants: { updatedFilter: true } } : {}),
  });
  const tmp = tempDir('timeclock-bench-traffic-');
  let agent: Agent | null = null;
  try {
    // The seed is older than the terminal: an hour passes before it first syncs.
    await time.advance(HOUR, 60_000);
    agent = testAgent({
      dataDir: tmp.dir,
      mock,
      clock: time.clock,
      mono: time.mono,
      sleep: time.sleep,
      rateLimit: { limit: 10_000, windowMs: 1_000 },
    });
    await agent.start({ roster: false });
    const sync = async (a: Agent) => {
      let done = false;
      const p = a.syncRoster().finally(() => (done = true));
      await time.advanceUntil(() => done, 'roster sync', 3_600_000, 50);
      const r = await p;
      if (!r.ok) throw new Error(`roster sync did not apply: ${r.error}`);
    };
    let mark = mock.requests().length;
    await sync(agent);
    const firstSync = rosterRequests(mock, mark);
    const perRefresh: number[] = [];
    const ids = seed.employees.map((e) => e._id);
    const changedPerStretch = Math.max(1, Math.round((employees * CHANGED_PER_DAY) / 4));
    for (let k = 0; k < 4; k++) {
      // Changes spread over the stretch, then the refresh at its end.
      for (let i = 0; i < changedPerStretch; i++) {
        await time.advance(
          Math.floor(REFRESH_MS / (changedPerStretch + 1)),
          Math.floor(REFRESH_MS / (changedPerStretch + 1)),
        );
        mock.setAllowExternalApiRecord(ids[(k * changedPerStretch + i) % ids.length] as string, true);
      }
      await time.advance(REFRESH_MS - changedPerStretch * Math.floor(REFRESH_MS / (changedPerStretch + 1)), 60_000);
      mark = mock.requests().length;
      await sync(agent);
      perRefresh.push(rosterRequests(mock, mark));
    }
    if (agent.status().roster.size !== employees)
      throw new Error(`roster has ${agent.status().roster.size} of ${employees}`);
    return {
      employees,
      filter,
      perRefresh,
      perDay: perRefresh.reduce((s, x) => s + x, 0),
      firstSync,
      seconds: (performance.now() - t0) / 1000,
    };
  } finally {
    await agent?.stop();
    await mock.close();
    tmp.cleanup();
  }
}

export async function benchRosterTraffic(): Promise<Result> {
  const days: Day[] = [];
  for (const n of SIZES) for (const filter of [false, true]) days.push(await oneDay(n, filter));
  const share = (x: number) => `${((100 * x) / DAY_BUDGET).toFixed(2)} %`;
  const rows: Cell[][] = days.map((d) => [
    d.employees.toLocaleString('en-US'),
    d.filter ? 'honours _updated filter' : 'ignores it (full syncs)',
    d.firstSync,
    d.perRefresh.join(' / '),
    d.perDay,
    share(d.perDay),
    d.seconds.toFixed(1),
  ]);
  const at = (n: number, filter: boolean) => days.find((d) => d.employees === n && d.filter === filter)?.perDay ?? null;
  const big = at(100_000, true);
  const bigFull = at(100_000, false);
  const targets: Target[] = [
    {
      what: 'requests per day at 100,000 employees with the filter, over the same without it',
      value: big !== null && bigFull ? Number((big / bigFull).toFixed(3)) : null,
      target: '< 1 (fewer)',
      met: big !== null && bigFull !== null ? big < bigFull : null,
    },
  ];
  return {
    name: 'roster-traffic',
    title: 'Roster refreshes: requests per day (4 refreshes, 1 % of employees changed a day)',
    tables: [
      {
        title: "requests counted by the mock; the day's budget is 60/min = 86,400",
        columns: [
          'employees',
          'service',
          'first sync',
          'refreshes at 6/12/18/24 h',
          'per day',
          "of the day's budget",
          'bench s',
        ],
        rows,
      },
    ],
    targets,
    notes: [
      'The 24 h refresh is a full sync in both cases (roster.fullEveryMs); with the filter the others cost a count and one page per 100 changed employees.',
      'A full sync costs ceil(employees / 100) pages, plus the probe of the filter while it is not known to work.',
    ],
    raw: { days },
  };
}
