/**
 * The mock's record variants (siteWithoutName, ignoreSiteFilter, oddRecords) and employees whose
 * contract says allow_external_api_record false: what a client reads from a server whose records
 * look or behave this way, checked against the spec written out here independently of the mock.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_SITE_ID, demoSeed, generatedSeed, objectIdFor, type MockEmployee } from '../../src/mock/seed.js';
import { oddRecordKind, type OddRecordKind } from '../../src/mock/variants.js';
import { mockServers } from '../helpers/mock-http.js';
import { call, expectError, page, punch, type Json } from '../helpers/mock-pages.js';

const start = mockServers();

function wire(e: MockEmployee): Json {
  const { active: _a, site_ids: _s, ...rest } = e;
  // Every read carries `_updated` (the spec's shape, to the minute).
  return { ...rest, _updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}\+00:00$/) as unknown as string };
}

/** What the spec says each odd kind looks like, written out independently of the mock's code. */
function oddExpected(e: MockEmployee, kind: OddRecordKind): Json {
  const w = wire(e);
  switch (kind) {
    case 'none':
      return w;
    case 'cpf_null':
      return { ...w, cpf: null };
    case 'contract_data_null':
      return { ...w, contract_data: null };
    case 'no_full_name': {
      const { full_name: _f, ...r } = w;
      return r;
    }
    case 'city_null':
      return { ...w, city: null, state: null };
    case 'unknown_members':
      return { ...w, badge_color: { hex: '#fff' }, contract_data: { ...e.contract_data, unknown_flag: 'x' } };
    case 'bad_timezone':
      return { ...w, timezone: 'Mars/Olympus_Mons' };
    case 'no_ids': {
      const { _id: _i, external_id: _x, ...r } = w;
      return r;
    }
  }
}

describe('record variants', () => {
  it('siteWithoutName: site reads omit name', async () => {
    const srv = await start({ variants: { siteWithoutName: true } });
    const list = await page(srv, '/sites');
    expect(list._items[0]).toEqual({
      _id: DEMO_SITE_ID,
      timezone: 'America/Sao_Paulo',
      city: 'São Paulo',
      state: 'SP',
    });
    const one = await call(srv, 'GET', `/sites/${DEMO_SITE_ID}`);
    expect(one.json).toEqual(list._items[0]);
    srv.setVariants(null);
    expect((await page(srv, '/sites'))._items[0]?.name).toBe('Obra Centro — São Paulo');
  });

  it('ignoreSiteFilter: GET /employees serves every active employee whatever the site parameter says', async () => {
    const seed = generatedSeed({ employees: 60, sites: 3 });
    const site = seed.sites[1]?._id ?? '';
    const srv = await start({ seed });
    expect((await page(srv, `/employees?site_id=${site}&max_results=100`))._meta?.total).toBe(20);
    srv.setVariants({ ignoreSiteFilter: true });
    srv.setActive('100004', false);
    const all = await page(srv, `/employees?site_id=${site}&max_results=10`);
    expect(all._meta?.total).toBe(59);
    expect(all._links?.next?.href).toBe('employees?max_results=10&page=2');
    expect((await page(srv, '/employees?site_id=notanid'))._meta?.total).toBe(59);
  });

  it('oddRecords: each kind at its insertion index, in lists (filtered or not) and reads by id; storage untouched', async () => {
    expect(Array.from({ length: 9 }, (_, i) => oddRecordKind(i))).toEqual([
      'none',
      'cpf_null',
      'contract_data_null',
      'no_full_name',
      'city_null',
      'unknown_members',
      'bad_timezone',
      'no_ids',
      'none',
    ]);
    expect(oddRecordKind(8 * 1000 + 6)).toBe('bad_timezone');
    expect(() => oddRecordKind(-1)).toThrow(RangeError);
    const seed = generatedSeed({ employees: 20, sites: 3 });
    const srv = await start({ seed, variants: { oddRecords: true } });
    const list = await page(srv, '/employees?max_results=100');
    expect(list._items).toHaveLength(20);
    list._items.forEach((item, i) =>
      expect(item).toEqual(oddExpected(seed.employees[i] as MockEmployee, oddRecordKind(i))),
    );
    for (let i = 0; i < 8; i++) {
      const e = seed.employees[i] as MockEmployee;
      expect((await call(srv, 'GET', `/employees/${e._id}`)).json).toEqual(oddExpected(e, oddRecordKind(i)));
    }
    // The index is the place in the whole account, not in the filtered list.
    const bySite = await page(srv, `/employees?site_id=${seed.sites[1]?._id ?? ''}&max_results=100`);
    const globals = [1, 4, 7, 10, 13, 16, 19];
    expect(bySite._items).toEqual(globals.map((g) => oddExpected(seed.employees[g] as MockEmployee, oddRecordKind(g))));
    // Appended employees continue the count; re-adding one keeps its place.
    const extra: MockEmployee = {
      _id: objectIdFor('extra', 1),
      external_id: '5001',
      full_name: 'Nova Pessoa',
      city: 'Natal',
      state: 'RN',
      active: true,
      site_ids: [],
    };
    srv.addEmployees([extra, { ...(seed.employees[3] as MockEmployee), full_name: 'Renamed' }]);
    const after = await page(srv, '/employees?max_results=100');
    expect(after._items[20]).toEqual(oddExpected(extra, oddRecordKind(20)));
    expect(after._items[20]).toMatchObject({ city: null, state: null });
    expect(after._items[3]).not.toHaveProperty('full_name');
    expect(srv.employees().slice(0, 3)).toEqual(seed.employees.slice(0, 3));
    srv.setVariants(null);
    expect((await page(srv, '/employees?max_results=100'))._items[7]).toEqual(wire(seed.employees[7] as MockEmployee));
  });
});

describe('allow_external_api_record', () => {
  it('false in the seed: POST /times answers 403 with an Eve error body and stores nothing; the field can be changed', async () => {
    const seed = demoSeed();
    const e1 = seed.employees[0] as MockEmployee;
    e1.contract_data = { ...e1.contract_data, allow_external_api_record: false };
    const srv = await start({ seed });
    const refused = await call(srv, 'POST', '/times', { body: punch('1001') });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      _status: 'ERR',
      _error: { code: 403, message: 'external API records are not allowed for this employee' },
    });
    expect(
      (await call(srv, 'POST', '/times', { body: { employee_id: e1._id, time: '2026-11-21T08:03' } })).status,
    ).toBe(403);
    expect(srv.records()).toHaveLength(0);
    expect(srv.requests()[0]).toMatchObject({ status: 403, counted: true, fault: null });
    expect((await call(srv, 'GET', `/employees/${e1._id}`)).json).toMatchObject({
      contract_data: { allow_external_api_record: false },
    });

    srv.setAllowExternalApiRecord('1001', true);
    expect((await call(srv, 'POST', '/times', { body: punch('1001') })).status).toBe(201);
    srv.setAllowExternalApiRecord(objectIdFor('employee', 2), false);
    expectError(await call(srv, 'POST', '/times', { body: punch('1002') }), 403);
    srv.setAllowExternalApiRecord('1002', undefined);
    expect(srv.employees()[1]?.contract_data).not.toHaveProperty('allow_external_api_record');
    expect((await call(srv, 'POST', '/times', { body: punch('1002') })).status).toBe(201);
    expect(srv.records().map((r) => r.employee_external_id)).toEqual(['1001', '1002']);
    expect(() => srv.setAllowExternalApiRecord('9999', false)).toThrow(/9999/);
  });
});
