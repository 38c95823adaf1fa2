import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed, objectIdFor } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const SITE = objectIdFor('gen-site', 1);
const PAGE = 100;

async function siteMock(): Promise<MockServer> {
  const mock = await startMockServer({
    seed: generatedSeed({ employees: 2_500, sites: 3 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
  });
  cleanups.push(() => mock.close());
  return mock;
}

function agentFor(mock: MockServer, siteId: string | null = SITE) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    siteId: siteId ?? undefined,
    // A POST slower than the helper's 1 s on a loaded machine is a timeout, and the back-off after it rightly lets the
    // roster go first: these tests are about order and content, not about a slow service.
    timeoutMs: 10_000,
    settings: { roster: { pageSize: PAGE } },
  });
  cleanups.push(() => agent.stop());
  return agent;
}

const siteEmployees = (mock: MockServer) => mock.employees().filter((e) => e.active && e.site_ids.includes(SITE));
const rosterRequests = (mock: MockServer) =>
  mock.requests().filter((r) => r.method === 'GET' && (r.path.endsWith('/employees') || r.path.includes('/sites/')));

describe('site roster', () => {
  it("caches exactly this site's employees of 2,500 over 3 sites, in ceil(total / page size) + 2 requests", async () => {
    const mock = await siteMock();
    const agent = agentFor(mock);
    await agent.start({ awaitRosterIfEmpty: true });
    const expected = siteEmployees(mock);
    expect(expected.length).toBeGreaterThan(800);
    expect(agent.status().roster.size).toBe(expected.length);
    // The pages, the site record, one request without the filter that shows the service applied it,
    // and the probe of the `_updated` filter (roster-changes.ts).
    expect(rosterRequests(mock)).toHaveLength(Math.ceil(expected.length / PAGE) + 3);
    expect(agent.status().site).toMatchObject({ id: SITE });
    expect(agent.status().roster).toMatchObject({ complete: true, siteFilter: 'verified', skipped: { count: 0 } });
    // Someone of another site is not known here.
    const other = mock.employees().find((e) => !e.site_ids.includes(SITE));
    expect(await agent.punch({ kind: 'id', value: other?.external_id ?? '?' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
  });

  it('a sync waits while a 300-punch backlog drains: punches first, roster after', async () => {
    const mock = await siteMock();
    const agent = agentFor(mock);
    await agent.start({ awaitRosterIfEmpty: true });
    const people = siteEmployees(mock).slice(0, 300);
    for (const e of people) expect((await agent.punch({ kind: 'id', value: e.external_id ?? '?' })).ok).toBe(true);
    const before = mock.requests().length;
    const sync = await agent.syncRoster();
    expect(sync.ok).toBe(true);
    await waitFor(() => agent.status().queue.sent === 300, 'backlog sent', 20_000);

    const log = mock.requests().slice(before);
    const posts = log.map((r, i) => (r.method === 'POST' ? i : -1)).filter((i) => i >= 0);
    const firstRoster = log.findIndex(
      (r) => r.method === 'GET' && (r.path.endsWith('/employees') || r.path.includes('/sites/')),
    );
    expect(posts).toHaveLength(300);
    // The sync stood aside until every punch was handed to the sender (at most 4 still in flight).
    expect(firstRoster).toBeGreaterThan(posts[300 - 4 - 1] as number);
    expect(mock.requests().filter((r) => r.status === 429)).toHaveLength(0);
  });

  it('a sync cut off mid-way leaves the previous roster whole and usable; the next one completes', async () => {
    const mock = await siteMock();
    const agent = agentFor(mock);
    await agent.start({ awaitRosterIfEmpty: true });
    const size = agent.status().roster.size;
    const someone = siteEmployees(mock)[10]?.external_id ?? '?';
    const leaving = siteEmployees(mock)[20]?.external_id ?? '?';

    mock.setActive(leaving, false);
    mock.setFaults({ serverError: 1, only: { method: 'GET', pathPrefix: '/employees' }, afterMatches: 3 });
    const cut = await agent.syncRoster();
    expect(cut).toMatchObject({ ok: false, error: expect.stringMatching(/500/) });
    expect(rosterRequests(mock).filter((r) => r.fault === 'server_error')).toHaveLength(1);
    expect(agent.status().roster).toMatchObject({ size, lastSync: { ok: false } });
    expect(await agent.punch({ kind: 'id', value: someone })).toMatchObject({ ok: true });
    expect(await agent.punch({ kind: 'id', value: leaving })).toMatchObject({ ok: true }); // old roster still in use

    mock.setFaults(null);
    const next = await agent.syncRoster();
    expect(next).toMatchObject({ ok: true, employees: size - 1 });
    expect(agent.status().roster).toMatchObject({ size: size - 1, lastSync: { ok: true }, progress: null });
  });

  it('sync progress (pages done of total) is visible to timeclock status in another process', async () => {
    const mock = await siteMock();
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({
      dataDir: t.dir,
      mock,
      siteId: SITE,
      timeoutMs: 5_000,
      settings: { roster: { pageSize: PAGE } },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    mock.setFaults({
      slowResponse: 1,
      slowDelayMs: 1_500,
      only: { method: 'GET', pathPrefix: '/employees' },
      afterMatches: 2,
    }); // slow enough for two CLI starts on a busy machine
    const sync = agent.syncRoster();
    await waitFor(() => (agent.status().roster.progress?.pagesDone ?? 0) >= 2, 'two pages done');
    const seen = await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: t.dir });
    const pages = Math.ceil(siteEmployees(mock).length / PAGE);
    expect(JSON.parse(seen.stdout)).toMatchObject({
      roster: { progress: { pagesDone: expect.any(Number), pagesTotal: pages } },
    });
    expect((await runCli(['status'], { TIMECLOCK_DATA_DIR: t.dir })).stdout).toMatch(
      new RegExp(`syncing: page \\d+/${pages}`),
    );
    mock.setFaults(null);
    expect((await sync).ok).toBe(true);
    expect(agent.status().roster.progress).toBeNull();
  });

  it('lists employees the service will not display (no work schedule or no employer) in status', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } }); // demo seed: 1034 and 1035
    cleanups.push(() => mock.close());
    const agent = agentFor(mock, null); // all active employees
    await agent.start({ awaitRosterIfEmpty: true });
    const health = agent.status().roster.health;
    expect(health.missingWorkSchedule + health.missingEmployer).toBeGreaterThanOrEqual(2);
    expect(health.employees.map((e) => e.externalId)).toEqual(expect.arrayContaining(['1034', '1035']));
    expect(health.employees.find((e) => e.externalId === '1034')?.missing).toContain('work_schedule');
    expect(health.employees.find((e) => e.externalId === '1035')?.missing).toContain('employer');
  });
});
