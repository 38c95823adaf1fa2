/**
 * The roster against every server the specification allows (issue 10): a page cap ("maximum of
 * max_results: not shown"), pages without _meta or _links, records with null, absent or unknown
 * members ("absent field = not yet defined"), a site without a name, a filter the server ignores, a
 * total that moves, a body cut mid-page. Each runs capture → roster → upload against the mock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { oddRecordKind } from '../../src/mock/variants.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { statusText } from '../../src/cli/status/format.js';
import { siteCheck } from '../../src/cli/doctor/service-checks.js';
import { deliveredFor, GEN_SITE, punchAll, rosterRig } from '../helpers/roster-rig.js';
import { waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const employeeGets = (mock: { requests(): { method: string; path: string; query: Record<string, string> }[] }) =>
  mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/employees'));
const externalIds = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String(100000 + from + i));

describe('paging follows what the server answers', () => {
  it.each([20, 25])(
    'a server that serves %i per page whatever is asked: every employee is kept and can punch',
    async (cap) => {
      const { mock, agent } = await rosterRig(cleanups, { employees: 130, variants: { pageCap: cap } });
      await agent.start({ awaitRosterIfEmpty: true });
      expect(agent.status().roster).toMatchObject({ size: 130, complete: true, lastSync: { ok: true } });
      // ceil(130 / cap) pages, one page without the site filter and the probe of the `_updated`
      // filter; never a page past the total.
      expect(employeeGets(mock)).toHaveLength(Math.ceil(130 / cap) + 2);
      const last = externalIds(3, 127);
      await punchAll(agent, last);
      await deliveredFor(mock, last);
    },
  );

  it('pages without _meta: stops on the first short page; without _links: nothing missed', async () => {
    const { mock, agent } = await rosterRig(cleanups, {
      employees: 130,
      variants: { pageCap: 25, omitMeta: true, omitLinks: true },
    });
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status().roster).toMatchObject({ size: 130, complete: true, siteFilter: 'unknown' });
    // Pages 1–6 (25 each, then 5): the short sixth is the last; no request without the filter (no totals to compare).
    expect(employeeGets(mock).map((r) => r.query.page)).toEqual(['1', '2', '3', '4', '5', '6']);
    await punchAll(agent, ['100129']);
    await deliveredFor(mock, ['100129']);
  });

  it('a total that moves between pages: the sync is incomplete, the roster in use stays, and a later sync applies', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 130, variants: { pageCap: 25 } });
    await agent.start({ awaitRosterIfEmpty: true });
    mock.addEmployees([
      { ...mock.employees()[0]!, _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', external_id: '777', full_name: 'Nova Pessoa' },
    ]);
    mock.setVariants({ pageCap: 25, totalDrift: -2 });
    const moved = await agent.syncRoster();
    expect(moved).toMatchObject({ ok: false, outcome: 'incomplete', error: expect.stringMatching(/total moved/) });
    expect(agent.status().roster).toMatchObject({ size: 130, complete: true, lastSync: { ok: false } });
    expect(await agent.punch({ kind: 'id', value: '100005' })).toMatchObject({
      ok: true,
      employeeName: expect.any(String),
    });
    mock.setVariants({ pageCap: 25 });
    // Retried by itself, with back-off: no one calls syncRoster again.
    await waitFor(() => agent.status().roster.size === 131, 'the retried sync applied', 10_000);
    await punchAll(agent, ['777']);
    await deliveredFor(mock, ['777', '100005']);
  });

  it('a site filter the service ignores on an account of two sites is reported, the sync still applies', async () => {
    const { mock, agent } = await rosterRig(cleanups, {
      seed: generatedSeed({ employees: 40, sites: 2 }),
      variants: { ignoreSiteFilter: true },
    });
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status().roster).toMatchObject({ size: 40, siteFilter: 'suspect' });
    expect(mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/sites'))).toHaveLength(1);
    expect(statusText(agent.status())).toMatch(/SITE FILTER: .*may ignore it/);
  });

  it('one site on the account: the same totals with and without the filter are what it should give, no alarm', async () => {
    const { agent } = await rosterRig(cleanups, { employees: 40, variants: { ignoreSiteFilter: true } });
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status().roster).toMatchObject({ size: 40, siteFilter: 'one_site' });
    expect(statusText(agent.status())).not.toMatch(/SITE FILTER/);
    expect(
      siteCheck(GEN_SITE, { outcome: { kind: 'ok' }, site: { name: 'Obra' } } as never, 'one_site', false),
    ).toMatchObject({ status: 'ok' });
  });
});

describe('records, not pages', () => {
  it('odd records: each is read on its own, unusable ones skipped and listed, the rest punch and are delivered', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 48, variants: { oddRecords: true, pageCap: 10 } });
    await agent.start({ awaitRosterIfEmpty: true });
    const kinds = Array.from({ length: 48 }, (_, i) => oddRecordKind(i));
    const unusable = kinds.filter((k) => k === 'no_ids').length;
    const st = agent.status();
    expect(st.roster).toMatchObject({ size: 48 - unusable, complete: true, lastSync: { ok: true } });
    expect(st.roster.skipped?.count).toBe(unusable);
    expect(st.roster.skipped?.examples[0]).toEqual({ position: 8, id: null, reason: 'no_ids' });
    // The time zone the terminal cannot load is flagged; the employee still punches, in the site's zone.
    const badZone = kinds.indexOf('bad_timezone');
    expect(st.roster.health.badTimeZone).toBe(kinds.filter((k) => k === 'bad_timezone').length);
    expect(st.roster.health.employees.find((e) => e.externalId === String(100000 + badZone))?.missing).toContain(
      'timezone',
    );
    // No full_name: the screen shows the registration number.
    const noName = kinds.indexOf('no_full_name');
    const r = await agent.punch({ kind: 'id', value: String(100000 + noName) });
    expect(r).toMatchObject({ ok: true, employeeName: `M-${String(noName + 1).padStart(6, '0')}` });
    const usable = kinds.flatMap((k, i) => (k === 'no_ids' || i === noName ? [] : [String(100000 + i)]));
    await punchAll(agent, usable);
    await deliveredFor(mock, [...usable, String(100000 + noName)]);
    expect(mock.records().find((x) => x.employee_external_id === String(100000 + badZone))).toBeDefined();
  });

  it('a site record without a name shows its id; the employees are synced all the same', async () => {
    const { agent } = await rosterRig(cleanups, { employees: 12, variants: { siteWithoutName: true } });
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status()).toMatchObject({ site: { id: GEN_SITE, name: GEN_SITE }, roster: { size: 12 } });
  });
});

describe('failures that cannot crash or stall', () => {
  it('a page cut off mid-body fails that sync only; it is retried with back-off and completes, capture never stops', async () => {
    const { mock, agent } = await rosterRig(cleanups, {
      employees: 130,
      variants: { pageCap: 25, cutBody: { page: 3, times: 2 } },
    });
    const started = agent.start({ awaitRosterIfEmpty: true });
    await started;
    // The first attempt ended at the cut page; the roster did not go in half.
    expect(mock.requests().filter((r) => r.fault === 'cut_body').length).toBeGreaterThanOrEqual(1);
    await waitFor(() => agent.status().roster.size === 130, 'the roster after two cut attempts', 10_000);
    expect(mock.requests().filter((r) => r.fault === 'cut_body')).toHaveLength(2);
    expect(agent.status().roster).toMatchObject({ complete: true, lastSync: { ok: true } });
    await punchAll(agent, ['100000', '100129']);
    await deliveredFor(mock, ['100000', '100129']);
  });

  it('a failed sync is tried again within seconds, growing, not after the refresh interval', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 30 });
    mock.setFaults({ serverError: 1, only: { method: 'GET', pathPrefix: '/employees' } });
    await agent.start({ awaitRosterIfEmpty: true });
    await waitFor(() => mock.requests().filter((r) => r.fault === 'server_error').length >= 4, 'four attempts', 10_000);
    const at = mock
      .requests()
      .filter((r) => r.fault === 'server_error')
      .map((r) => r.at);
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    // Back-off from 100 ms with equal jitter, doubling, capped at 400 ms: never the 6 h refresh.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(45);
    expect(Math.max(...gaps)).toBeLessThan(1_500);
    expect(agent.status().roster.nextSyncAt).not.toBeNull();
    mock.setFaults(null);
    await waitFor(() => agent.status().roster.size === 30, 'the sync after the service recovered', 10_000);
  });
});
