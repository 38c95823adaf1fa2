/**
 * Parts 3 and 4 of the roster bench (roster.bench.ts): the time of a full roster sync, and what a
 * server that caps its pages costs a site's sync in requests and time.
 *
 * 3. Sync time: a fresh agent against a mock process with 10,000 employees and no effective rate
 *    limit; `agent.syncRoster()` end to end (100 pages of 100). Baseline: the same pages fetched
 *    by a plain sequential undici loop that only parses the JSON (no zod, no SQLite). Rounds are
 *    interleaved agent / baseline.
 * 4. Page cap: a site's sync within the account's limit (scaled 60:1 in time), against a mock
 *    serving 100 per page (baseline) and one capping its pages at 25.
 */
import { Pool } from 'undici';
import type { Agent } from '../../src/agent/facade/agent.js';
import { BASIC_AUTH_USER, MAX_PAGE_SIZE } from '../../src/api/shapes.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { startMockProcess, type MockProcess } from './mock-process.js';
import { ratio, type Cell, type Table } from './report.js';
import {
  AGENT_RATE,
  MOCK_RULE,
  PRODUCTION_RATE,
  SYNC_EMPLOYEES,
  SYNC_LIMIT_MS,
  type RosterPart,
} from './roster-setup.js';
import { benchAgent, tempDir, withTimeout } from './support.js';

/** The one site of the mock process's generated seed. */
const GEN_SITE_ID = objectIdFor('gen-site', 0);
const SYNC_ROUNDS = 3;

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : s.length % 2
      ? (s[(s.length - 1) / 2] as number)
      : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

type SyncRound = {
  agentMs: number;
  agentRequests: number;
  agentEmployees: number;
  baselineMs: number;
  baselineRequests: number;
  baselineEmployees: number;
};

async function agentSync(mock: MockProcess): Promise<{ ms: number; requests: number; employees: number }> {
  const dir = tempDir('timeclock-bench-sync-');
  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: dir.dir, baseUrl: mock.url, rateLimit: AGENT_RATE });
    const t0 = performance.now();
    const synced = await withTimeout(agent.syncRoster(), SYNC_LIMIT_MS);
    const ms = performance.now() - t0;
    if (synced.timedOut)
      throw new Error(`roster sync of ${SYNC_EMPLOYEES} employees did not finish within ${SYNC_LIMIT_MS / 1000} s`);
    if (!synced.value.ok) throw new Error(`roster sync failed: ${synced.value.error}`);
    const size = agent.status().roster.size;
    if (size !== SYNC_EMPLOYEES)
      throw new Error(`roster holds ${size} employees after sync, expected ${SYNC_EMPLOYEES}`);
    return { ms, requests: synced.value.requests, employees: synced.value.employees };
  } finally {
    await agent?.stop();
    dir.cleanup();
  }
}

/** The floor: the same GET /employees pages, one after another, JSON.parse only. */
async function baselineSync(mock: MockProcess): Promise<{ ms: number; requests: number; employees: number }> {
  const pool = new Pool(mock.origin, { connections: 1 });
  const auth = `Basic ${Buffer.from(`${BASIC_AUTH_USER}:demo-token`).toString('base64')}`;
  const path = new URL(mock.url).pathname.replace(/\/+$/, '');
  try {
    const run = async () => {
      let requests = 0;
      let employees = 0;
      let total: number | null = null;
      for (let page = 1; total === null || (page - 1) * MAX_PAGE_SIZE < total; page++) {
        requests++;
        const res = await pool.request({
          method: 'GET',
          path: `${path}/employees?max_results=${MAX_PAGE_SIZE}&page=${page}`,
          headers: { authorization: auth },
        });
        if (res.statusCode !== 200) throw new Error(`baseline GET /employees page ${page}: ${res.statusCode}`);
        const body = (await res.body.json()) as { _items: unknown[]; _meta: { total: number } };
        total = body._meta.total;
        employees += body._items.length;
        if (body._items.length === 0) break;
      }
      return { requests, employees };
    };
    const t0 = performance.now();
    const done = await withTimeout(run(), SYNC_LIMIT_MS);
    const ms = performance.now() - t0;
    if (done.timedOut) throw new Error(`baseline page loop did not finish within ${SYNC_LIMIT_MS / 1000} s`);
    return { ms, ...done.value };
  } finally {
    await pool.destroy();
  }
}

async function measureSync(): Promise<SyncRound[]> {
  const mock = await startMockProcess({ employees: SYNC_EMPLOYEES, rule: MOCK_RULE });
  try {
    const rounds: SyncRound[] = [];
    for (let r = 0; r < SYNC_ROUNDS; r++) {
      // Alternate which goes first, so a warmer mock or JIT does not always favour the same one.
      let a: Awaited<ReturnType<typeof agentSync>>;
      let b: Awaited<ReturnType<typeof baselineSync>>;
      if (r % 2 === 0) {
        a = await agentSync(mock);
        b = await baselineSync(mock);
      } else {
        b = await baselineSync(mock);
        a = await agentSync(mock);
      }
      rounds.push({
        agentMs: a.ms,
        agentRequests: a.requests,
        agentEmployees: a.employees,
        baselineMs: b.ms,
        baselineRequests: b.requests,
        baselineEmployees: b.employees,
      });
    }
    const log = await mock.requests();
    const limited = log.filter((e) => e.status === 429).length;
    if (limited > 0)
      throw new Error(`the mock answered ${limited} requests with 429: the rate limit was not out of the way`);
    return rounds;
  } finally {
    await mock.close();
  }
}

/** The account's limit on a window scaled 60:1 (60 per second for 60 per minute), so the bench takes seconds. */
const SCALED_RATE = { limit: 60, windowMs: 1_000 };
const SERVER_PAGE_CAP = 25;
const CAPPED_LIMIT_MS = 60_000;

type CappedSync = { label: string; requests: number; employees: number; ms: number };

/** A site's sync against the mock, within the account's limit: what the page cap costs in requests and time. */
async function cappedSync(label: string, variants: string[]): Promise<CappedSync> {
  const mock = await startMockProcess({ employees: SYNC_EMPLOYEES, rule: SCALED_RATE, variants });
  const dir = tempDir('timeclock-bench-capped-');
  let agent: Agent | null = null;
  try {
    agent = benchAgent({ dataDir: dir.dir, baseUrl: mock.url, rateLimit: SCALED_RATE, siteId: GEN_SITE_ID });
    const t0 = performance.now();
    const synced = await withTimeout(agent.syncRoster(), CAPPED_LIMIT_MS);
    const ms = performance.now() - t0;
    if (synced.timedOut) throw new Error(`${label}: sync did not finish within ${CAPPED_LIMIT_MS / 1000} s`);
    if (!synced.value.ok) throw new Error(`${label}: sync failed: ${synced.value.error}`);
    const limited = (await mock.requests()).filter((e) => e.status === 429).length;
    if (limited > 0) throw new Error(`${label}: the mock answered ${limited} requests with 429`);
    return { label, requests: synced.value.requests, employees: synced.value.employees, ms };
  } finally {
    await agent?.stop();
    dir.cleanup();
    await mock.close();
  }
}

export async function rosterSync(): Promise<RosterPart> {
  const sync = await measureSync();
  const uncapped = await cappedSync(`server serves ${MAX_PAGE_SIZE} per page (baseline)`, []);
  const capped = await cappedSync(`server caps pages at ${SERVER_PAGE_CAP}`, [`page-cap=${SERVER_PAGE_CAP}`]);

  // 3
  const agentMed = median(sync.map((r) => r.agentMs));
  const baseMed = median(sync.map((r) => r.baselineMs));
  const syncTable: Table = {
    title: `full roster sync, ${SYNC_EMPLOYEES} employees in pages of ${MAX_PAGE_SIZE} (ms), ${SYNC_ROUNDS} rounds interleaved`,
    columns: [
      '',
      'requests',
      'employees',
      ...sync.map((_, i) => `round ${i + 1}`),
      'median',
      'employees/s',
      'median ÷ baseline',
    ],
    rows: [
      [
        'agent.syncRoster() (fresh agent each round)',
        sync[0]?.agentRequests ?? null,
        sync[0]?.agentEmployees ?? null,
        ...sync.map((r) => r.agentMs),
        agentMed,
        (SYNC_EMPLOYEES / agentMed) * 1000,
        ratio(agentMed, baseMed),
      ],
      [
        'undici page loop + JSON only (baseline)',
        sync[0]?.baselineRequests ?? null,
        sync[0]?.baselineEmployees ?? null,
        ...sync.map((r) => r.baselineMs),
        baseMed,
        (SYNC_EMPLOYEES / baseMed) * 1000,
        1,
      ],
    ],
  };

  // 4
  const minutesAtRealWindow = (c: CappedSync) =>
    ((c.ms / 1000) * (PRODUCTION_RATE.windowMs / SCALED_RATE.windowMs)) / 60;
  const capRow = (c: CappedSync): Cell[] => [
    c.label,
    c.requests,
    c.employees,
    c.ms / 1000,
    minutesAtRealWindow(c),
    ratio(c.requests, uncapped.requests),
  ];
  const capTable: Table = {
    title: `a site of ${SYNC_EMPLOYEES} employees synced within the account's limit (${SCALED_RATE.limit} per ${SCALED_RATE.windowMs} ms here, standing for ${PRODUCTION_RATE.limit} per minute)`,
    columns: ['server', 'requests', 'employees', 's here', 'min at 60/min', 'requests ÷ baseline'],
    rows: [capRow(uncapped), capRow(capped)],
  };
  return {
    tables: [syncTable, capTable],
    targets: [
      {
        what: `full sync of ${SYNC_EMPLOYEES} employees, median s`,
        value: agentMed / 1000,
        target: 'reported (no target set)',
        met: null,
      },
      {
        what: `requests of a ${SYNC_EMPLOYEES}-employee site sync, server page cap ${SERVER_PAGE_CAP}`,
        value: capped.requests,
        target: 'reported (no target set)',
        met: null,
      },
    ],
    notes: [
      `sync: roster.pageSize = ${MAX_PAGE_SIZE} (default), no siteId (so no GET /sites request); the mock runs in its own process; time = syncRoster() call to its answer, agent built beforehand; baseline over one keep-alive undici Pool connection, no schema validation, no SQLite`,
      `page cap: the mock process serves at most ${SERVER_PAGE_CAP} per page (--variant page-cap); requests = the site record + pages + one page without the site filter; "min at 60/min" scales the measured time by the window (${PRODUCTION_RATE.windowMs / SCALED_RATE.windowMs}×): the limit, not the client, sets it`,
    ],
    raw: {
      sync: { employees: SYNC_EMPLOYEES, rounds: sync, agentMedianMs: agentMed, baselineMedianMs: baseMed },
      pageCap: { cap: SERVER_PAGE_CAP, rule: SCALED_RATE, uncapped, capped },
    },
  };
}
