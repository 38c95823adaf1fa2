/**
 * Roster refreshes by changes (issue 14, item 4): where the service filters the listing on
 * `_updated` (the mock's `updatedFilter` variant, Eve's `where`), a refresh costs a count and the
 * pages of what changed; where it does not (the mock's default: the parameter is unknown and
 * ignored), the probe says so and every refresh stays a full sync. Someone leaving shows only in
 * the count, and brings a full sync. A real agent, the mock on loopback, one injected time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const EMPLOYEES = 250;
const PAGE = 100;
const MINUTE = 60_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

type Rig = { time: FakeTime; mock: MockServer; agent: Agent };

async function rig(updatedFilter: boolean, sites = 1, omitMeta = false): Promise<Rig> {
  const time = new FakeTime(Date.parse('2026-11-24T12:00:00Z'));
  const seed = generatedSeed({ employees: EMPLOYEES * sites, sites });
  const mock = await startMockServer({
    seed,
    clock: time.clock,
    ...(updatedFilter || omitMeta
      ? { variants: { ...(updatedFilter ? { updatedFilter: true } : {}), ...(omitMeta ? { omitMeta: true } : {}) } }
      : {}),
  });
  cleanups.push(() => mock.close());
  // The seed was written at 12:00; the terminal's first sync comes later, so "changed since the
  // full sync" is not everybody.
  await time.advance(30 * MINUTE, 60_000);
  const { dir, cleanup } = tempDir('timeclock-changes-');
  cleanups.push(cleanup);
  const siteId = sites > 1 ? seed.sites[0]?._id : undefined;
  const agent = testAgent({
    dataDir: dir,
    mock,
    clock: time.clock,
    mono: time.mono,
    sleep: time.sleep,
    ...(siteId ? { siteId } : {}),
    settings: { roster: { pageSize: PAGE } },
  });
  cleanups.push(() => agent.stop());
  const started = agent.start({ awaitRosterIfEmpty: true });
  await time.advanceUntil(() => agent.status().roster.size === EMPLOYEES, 'first roster synced', 30_000);
  await started;
  return { time, mock, agent };
}

/** GET /employees requests from `from` on in the mock's log, with their query. */
const listings = (mock: MockServer, from: number) =>
  mock
    .requests()
    .slice(from)
    .filter((r) => r.method === 'GET' && r.path.endsWith('/employees'));

async function sync(r: Rig): Promise<Awaited<ReturnType<Agent['syncRoster']>>> {
  let done = false;
  const p = r.agent.syncRoster().finally(() => (done = true));
  await r.time.advanceUntil(() => done, 'sync done', 30_000);
  return p;
}

describe('a service that filters on _updated', () => {
  it('is probed once after the full sync; a refresh then costs a count and the changed page, and changed, new and unfit employees are in use', async () => {
    const r = await rig(true);
    const first = listings(r.mock, 0);
    // Three pages, then the probe for changes after 2999 (answered: none).
    expect(first).toHaveLength(4);
    expect(first[3]?.query.where).toContain('2999-01-01T00:00');

    await r.time.advance(10 * MINUTE, 1_000);
    r.mock.setAllowExternalApiRecord('100003', false);
    const [template] = generatedSeed({ employees: EMPLOYEES + 1, sites: 1 }).employees.slice(EMPLOYEES);
    if (!template) throw new Error('no template');
    r.mock.addEmployees([{ ...template, full_name: 'Nova Contratada' }]);

    const mark = r.mock.requests().length;
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, outcome: 'applied', changed: 2, employees: EMPLOYEES + 1 });
    const asked = listings(r.mock, mark);
    expect(asked).toHaveLength(2);
    expect(asked[0]?.query).toMatchObject({ max_results: '1', page: '1' });
    expect(asked[0]?.query.where).toBeUndefined();
    // Asked from a little before the full sync began (minutes shown, clocks to the second).
    expect(JSON.parse(asked[1]?.query.where ?? '{}')).toEqual({ _updated: { $gte: '2026-11-24T12:28+00:00' } });

    const status = r.agent.status().roster;
    expect(status.refreshBy).toBe('changes');
    expect(status.size).toBe(EMPLOYEES + 1);
    expect(status.notAllowed.count).toBe(1);
    const punch = await r.agent.punch({ kind: 'badge', value: String(100000 + EMPLOYEES) });
    expect(punch).toMatchObject({ ok: true, employeeName: 'Nova Contratada' });

    // Nothing changed since: a count and one page, the two changes listed again once (the overlap
    // of two minutes before the last refresh), then none.
    await r.time.advance(5 * MINUTE, 1_000);
    let again = r.mock.requests().length;
    expect(await sync(r)).toMatchObject({ ok: true, changed: 2, employees: EMPLOYEES + 1 });
    expect(listings(r.mock, again)).toHaveLength(2);
    await r.time.advance(10 * MINUTE, 1_000);
    again = r.mock.requests().length;
    expect(await sync(r)).toMatchObject({ ok: true, changed: 0, employees: EMPLOYEES + 1 });
    expect(listings(r.mock, again)).toHaveLength(2);
  });

  it('someone leaving shows in the count only: that refresh becomes a full sync and the roster loses them', async () => {
    const r = await rig(true);
    await r.time.advance(10 * MINUTE, 1_000);
    r.mock.setActive('100010', false);
    const mark = r.mock.requests().length;
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, outcome: 'applied', employees: EMPLOYEES - 1 });
    expect(res.ok && res.changed).toBeUndefined();
    // Count, the changes (none shown), then the three pages of a full sync.
    expect(listings(r.mock, mark)).toHaveLength(2 + 3);
    expect(r.agent.status().roster.size).toBe(EMPLOYEES - 1);
  });

  it('with a site: a refresh by changes keeps what the full sync found of the site filter', async () => {
    const r = await rig(true, 2);
    expect(r.agent.status().roster).toMatchObject({ size: EMPLOYEES, siteFilter: 'verified', refreshBy: 'changes' });
    await r.time.advance(10 * MINUTE, 1_000);
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, changed: 0, employees: EMPLOYEES });
    expect(r.agent.status().roster).toMatchObject({ siteFilter: 'verified', complete: true });
  });

  it('a day after the last full sync, the refresh is a full one whatever changed', async () => {
    const r = await rig(true);
    await r.time.advance(24 * 60 * MINUTE, 60_000);
    const mark = r.mock.requests().length;
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, outcome: 'applied', employees: EMPLOYEES });
    expect(res.ok && res.changed).toBeUndefined();
    expect(listings(r.mock, mark)).toHaveLength(1 + 3);
  });
});

describe("a service that ignores the filter (the mock's default: the parameter is unknown)", () => {
  it('answers the probe with everyone: every refresh stays a full sync, and the roster is right', async () => {
    const r = await rig(false);
    expect(listings(r.mock, 0)).toHaveLength(4);
    expect(r.agent.status().roster.refreshBy).toBe('full');
    await r.time.advance(10 * MINUTE, 1_000);
    r.mock.setActive('100010', false);
    const mark = r.mock.requests().length;
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, outcome: 'applied', employees: EMPLOYEES - 1 });
    expect(res.ok && res.changed).toBeUndefined();
    // The three pages and the probe again (the service may have learnt the filter since).
    expect(listings(r.mock, mark)).toHaveLength(3 + 1);
  });
});

describe('a service that filters on _updated but shows no _meta (the spec does not promise it)', () => {
  it('leaves no count to check who left by: every refresh stays a full sync, and the roster is right', async () => {
    const r = await rig(true, 1, true);
    expect(r.agent.status().roster).toMatchObject({ size: EMPLOYEES, refreshBy: 'full' });
    await r.time.advance(10 * MINUTE, 1_000);
    r.mock.setActive('100010', false);
    const mark = r.mock.requests().length;
    const res = await sync(r);
    expect(res).toMatchObject({ ok: true, outcome: 'applied', employees: EMPLOYEES - 1 });
    expect(res.ok && res.changed).toBeUndefined();
    // Pages until a short one, and no probe: without totals it could not tell a filter from none.
    expect(listings(r.mock, mark).every((q) => q.query.where === undefined)).toBe(true);
  });
});
