import net from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/api/shapes.js';
import { parseVariantFlags } from '../../src/cli/mock.js';
import { UsageError } from '../../src/cli/options.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { basicAuth, mockCall, mockServers, type CallOpts, type Res } from '../helpers/mock-http.js';
import { DEMO_SITE_ID, demoSeed, generatedSeed, objectIdFor, type MockEmployee } from '../../src/mock/seed.js';
import { oddRecordKind, type OddRecordKind } from '../../src/mock/variants.js';

type Envelope = { _items: Json[]; _links?: Record<string, { href: string }>; _meta?: { max_results: number; page: number; total: number } };

type Json = Record<string, unknown>;

const start = mockServers();
const AUTH = basicAuth('public', 'demo-token');
const call = (srv: MockServer, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: CallOpts = {}) => mockCall(srv, method, path, opts);

const ctl = (srv: MockServer, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown, rawBody?: string): Promise<Res> =>
  call(srv, method, path, { body, rawBody, control: true });

async function page(srv: MockServer, path: string): Promise<Envelope> {
  const res = await call(srv, 'GET', path);
  expect(res.status).toBe(200);
  return res.json as Envelope;
}

function expectError(res: Res, status: number): ReturnType<typeof errorBodySchema.parse> {
  expect(res.status).toBe(status);
  const body = errorBodySchema.parse(res.json);
  expect(body._error.code).toBe(status);
  return body;
}

/** The raw bytes of one answer on a fresh connection, read until the server closes it. */
function rawGet(srv: MockServer, path: string): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sock = net.connect(srv.port, '127.0.0.1', () => sock.write(`GET /v2.1${path} HTTP/1.1\r\nHost: mock\r\nAuthorization: ${AUTH}\r\n\r\n`));
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('error', () => undefined); // 'close' follows and settles
    sock.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      resolve({ head: all.subarray(0, split).toString('latin1'), body: all.subarray(split + 4) });
    });
  });
}

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

const punch = (ext: string) => ({ employee_external_id: ext, time: '2026-11-21T08:03' });

describe('paging variants', () => {
  it('pageCap: at most N items whatever max_results asks; links and _meta use the cap; every employee exactly once', async () => {
    const seed = generatedSeed({ employees: 60, sites: 5, seed: 3 });
    const srv = await start({ seed, variants: { pageCap: 7 } });
    const first = await page(srv, '/employees?max_results=50');
    expect(first._meta).toEqual({ max_results: 7, page: 1, total: 60 });
    expect(first._links?.next?.href).toBe('employees?max_results=7&page=2');
    expect(first._links?.last?.href).toBe('employees?max_results=7&page=9');
    const seen: string[] = [];
    const sizes: number[] = [];
    let next: string | undefined = 'employees?max_results=50';
    while (next !== undefined) {
      const p: Envelope = await page(srv, `/${next}`);
      expect(p._meta?.max_results).toBe(7);
      sizes.push(p._items.length);
      seen.push(...p._items.map((e) => String(e.external_id)));
      next = p._links?.next?.href;
    }
    expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4]);
    expect(seen).toEqual(seed.employees.map((e) => e.external_id));
    // Below the cap the request wins; the default (25) is capped too.
    expect((await page(srv, '/employees?max_results=3'))._meta).toEqual({ max_results: 3, page: 1, total: 60 });
    expect((await page(srv, '/employees'))._items).toHaveLength(7);
    const site = seed.sites[2]?._id ?? '';
    expect((await page(srv, `/employees?site_id=${site}`))._links?.next?.href).toBe(`employees?site_id=${site}&max_results=7&page=2`);
    srv.setVariants({ pageCap: 2 });
    const sites = await page(srv, '/sites?max_results=10');
    expect(sites._items).toHaveLength(2);
    expect(sites._meta).toEqual({ max_results: 2, page: 1, total: 5 });
    srv.setVariants(null);
    expect((await page(srv, '/employees?max_results=50'))._items).toHaveLength(50);
  });

  it('omitLinks / omitMeta: envelopes without _links or _meta, for employees and sites', async () => {
    const srv = await start({ variants: { omitLinks: true } });
    for (const path of ['/employees?max_results=5&page=2', '/sites']) expect(Object.keys(await page(srv, path))).toEqual(['_items', '_meta']);
    srv.setVariants({ omitMeta: true });
    for (const path of ['/employees?max_results=5&page=2', '/sites']) expect(Object.keys(await page(srv, path))).toEqual(['_items', '_links']);
    srv.setVariants({ omitLinks: true, omitMeta: true });
    const bare = await page(srv, '/employees?max_results=5&page=2');
    expect(Object.keys(bare)).toEqual(['_items']);
    expect(bare._items.map((e) => e.external_id)).toEqual(['1006', '1007', '1008', '1009', '1010']);
  });

  it('totalDrift: pages >= 2 of GET /employees report total + drift (never below 0); links and sites keep the real total', async () => {
    const srv = await start({ seed: generatedSeed({ employees: 60, sites: 5 }), variants: { totalDrift: 5 } });
    expect((await page(srv, '/employees?max_results=25'))._meta?.total).toBe(60);
    const p2 = await page(srv, '/employees?max_results=25&page=2');
    expect(p2._meta?.total).toBe(65);
    expect(p2._links?.last?.href).toBe('employees?max_results=25&page=3');
    expect((await page(srv, '/employees?max_results=25&page=3'))._meta?.total).toBe(65);
    expect((await page(srv, '/sites?max_results=2&page=2'))._meta?.total).toBe(5);
    srv.setVariants({ totalDrift: -7 });
    expect((await page(srv, '/employees?max_results=25&page=2'))._meta?.total).toBe(53);
    srv.setVariants({ totalDrift: -100 });
    expect((await page(srv, '/employees?max_results=25&page=2'))._meta?.total).toBe(0);
    expect((await page(srv, '/employees?max_results=25'))._meta?.total).toBe(60);
  });
});

describe('cutBody', () => {
  it('the first answer for that page is cut mid-body (client error); it is counted and logged; the next one is whole', async () => {
    const srv = await start({ variants: { cutBody: { page: 2 } }, rateLimit: { limit: 4, windowMs: 60_000 } });
    const cut = await request(`${srv.url}/employees?max_results=10&page=2`, { headers: { authorization: AUTH } });
    expect(cut.statusCode).toBe(200);
    expect(String(cut.headers['content-type'])).toMatch(/^application\/json/);
    expect(Number(cut.headers['content-length'])).toBeGreaterThan(100);
    await expect(cut.body.text()).rejects.toThrow();
    expect((await page(srv, '/employees?max_results=10&page=2'))._items.map((e) => e.external_id)).toEqual(Array.from({ length: 10 }, (_, i) => String(1011 + i)));
    expect((await page(srv, '/employees?max_results=10&page=1'))._items).toHaveLength(10);
    expect(srv.requests().map((e) => [e.status, e.counted, e.fault])).toEqual([
      [200, true, 'cut_body'],
      [200, true, null],
      [200, true, null],
    ]);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    expectError(await call(srv, 'GET', '/sites'), 429); // the cut answer took one of the 4 slots
  });

  it('sends the full content-length and exactly the first half of the bytes, `times` times; setVariants restarts the count', async () => {
    const srv = await start();
    const full = Buffer.from(JSON.stringify((await call(srv, 'GET', '/employees')).json));
    srv.setVariants({ cutBody: { page: 1, times: 2 } });
    expect((await call(srv, 'GET', '/employees?page=2')).status).toBe(200); // another page is untouched
    for (let i = 0; i < 2; i++) {
      const { head, body } = await rawGet(srv, i === 0 ? '/employees' : '/employees?page=1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(head).toContain(`content-length: ${full.length}`);
      expect(body.length).toBe(Math.floor(full.length / 2));
      expect(body.equals(full.subarray(0, body.length))).toBe(true);
    }
    expect(JSON.stringify((await call(srv, 'GET', '/employees')).json)).toBe(full.toString());
    srv.setVariants({ cutBody: { page: 1 } });
    expect((await rawGet(srv, '/employees')).body.length).toBe(Math.floor(full.length / 2));
    expect(srv.requests().map((e) => e.fault)).toEqual([null, null, 'cut_body', 'cut_body', null, 'cut_body']);
  });
});

describe('record variants', () => {
  it('siteWithoutName: site reads omit name', async () => {
    const srv = await start({ variants: { siteWithoutName: true } });
    const list = await page(srv, '/sites');
    expect(list._items[0]).toEqual({ _id: DEMO_SITE_ID, timezone: 'America/Sao_Paulo', city: 'São Paulo', state: 'SP' });
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
    expect(Array.from({ length: 9 }, (_, i) => oddRecordKind(i))).toEqual(['none', 'cpf_null', 'contract_data_null', 'no_full_name', 'city_null', 'unknown_members', 'bad_timezone', 'no_ids', 'none']);
    expect(oddRecordKind(8 * 1000 + 6)).toBe('bad_timezone');
    expect(() => oddRecordKind(-1)).toThrow(RangeError);
    const seed = generatedSeed({ employees: 20, sites: 3 });
    const srv = await start({ seed, variants: { oddRecords: true } });
    const list = await page(srv, '/employees?max_results=100');
    expect(list._items).toHaveLength(20);
    list._items.forEach((item, i) => expect(item).toEqual(oddExpected(seed.employees[i] as MockEmployee, oddRecordKind(i))));
    for (let i = 0; i < 8; i++) {
      const e = seed.employees[i] as MockEmployee;
      expect((await call(srv, 'GET', `/employees/${e._id}`)).json).toEqual(oddExpected(e, oddRecordKind(i)));
    }
    // The index is the place in the whole account, not in the filtered list.
    const bySite = await page(srv, `/employees?site_id=${seed.sites[1]?._id ?? ''}&max_results=100`);
    const globals = [1, 4, 7, 10, 13, 16, 19];
    expect(bySite._items).toEqual(globals.map((g) => oddExpected(seed.employees[g] as MockEmployee, oddRecordKind(g))));
    // Appended employees continue the count; re-adding one keeps its place.
    const extra: MockEmployee = { _id: objectIdFor('extra', 1), external_id: '5001', full_name: 'Nova Pessoa', city: 'Natal', state: 'RN', active: true, site_ids: [] };
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
    expect(refused.json).toEqual({ _status: 'ERR', _error: { code: 403, message: 'external API records are not allowed for this employee' } });
    expect((await call(srv, 'POST', '/times', { body: { employee_id: e1._id, time: '2026-11-21T08:03' } })).status).toBe(403);
    expect(srv.records()).toHaveLength(0);
    expect(srv.requests()[0]).toMatchObject({ status: 403, counted: true, fault: null });
    expect((await call(srv, 'GET', `/employees/${e1._id}`)).json).toMatchObject({ contract_data: { allow_external_api_record: false } });

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

describe('control routes', () => {
  it('/__mock/variants: GET, PUT (null clears), 422 on a bad body, 400 on bad JSON, 405; not logged', async () => {
    const srv = await start();
    expect((await ctl(srv, 'GET', '/__mock/variants')).json).toEqual({ variants: null });
    expect(expectError(await ctl(srv, 'PUT', '/__mock/variants', { pageCap: 0 }), 422)._issues?.pageCap).toBeDefined();
    expect(expectError(await ctl(srv, 'PUT', '/__mock/variants', { bogus: true }), 422)._issues?.bogus).toBe('unknown field');
    expectError(await ctl(srv, 'PUT', '/__mock/variants', { cutBody: { page: 1, times: 0 } }), 422);
    expectError(await ctl(srv, 'PUT', '/__mock/variants', { totalDrift: 1.5 }), 422);
    expectError(await ctl(srv, 'PUT', '/__mock/variants', undefined, '{'), 400);
    expect(expectError(await ctl(srv, 'DELETE', '/__mock/variants'), 405)).toBeDefined();
    const set = await ctl(srv, 'PUT', '/__mock/variants', { pageCap: 5, omitLinks: true });
    expect(set).toMatchObject({ status: 200, json: { _status: 'OK', variants: { pageCap: 5, omitLinks: true } } });
    expect((await ctl(srv, 'GET', '/__mock/variants')).json).toEqual({ variants: { pageCap: 5, omitLinks: true } });
    const capped = await page(srv, '/employees?max_results=50');
    expect(capped._items).toHaveLength(5);
    expect(capped).not.toHaveProperty('_links');
    expect((await ctl(srv, 'PUT', '/__mock/variants', null)).status).toBe(200);
    expect((await ctl(srv, 'GET', '/__mock/variants')).json).toEqual({ variants: null });
    expect((await page(srv, '/employees?max_results=50'))._items).toHaveLength(36);
    expect(srv.requests()).toHaveLength(2);
    expect(() => srv.setVariants({ pageCap: -1 })).toThrow();
  });

  it('PUT /__mock/employees/{idOrExternalId}/allow-external-api-record takes true, false or null', async () => {
    const srv = await start();
    const path = (key: string): string => `/__mock/employees/${encodeURIComponent(key)}/allow-external-api-record`;
    expect(await ctl(srv, 'PUT', path('1003'), false)).toMatchObject({ status: 200, json: { _status: 'OK', allow_external_api_record: false } });
    expectError(await call(srv, 'POST', '/times', { body: punch('1003') }), 403);
    expect((await ctl(srv, 'PUT', path(objectIdFor('employee', 3)), true)).status).toBe(200);
    expect(srv.employees()[2]?.contract_data?.allow_external_api_record).toBe(true);
    expect((await call(srv, 'POST', '/times', { body: punch('1003') })).status).toBe(201);
    expect((await ctl(srv, 'PUT', path('1003'), null)).status).toBe(200);
    expect(srv.employees()[2]?.contract_data).not.toHaveProperty('allow_external_api_record');
    expectError(await ctl(srv, 'PUT', path('1003'), 'yes'), 422);
    expectError(await ctl(srv, 'PUT', path('1003'), undefined, '{'), 400);
    expectError(await ctl(srv, 'PUT', path('9999'), false), 404);
    expect(expectError(await ctl(srv, 'GET', path('1003')), 405)).toBeDefined();
    expect(srv.records()).toHaveLength(1);
  });
});

describe('timeclock mock --variant parser', () => {
  it('parses every variant', () => {
    const flags = ['page-cap=7', 'omit-links', 'omit-meta', 'total-drift=-3', 'cut-body=2x3', 'site-without-name', 'ignore-site-filter', 'odd-records', 'not-allowed=1001,1002', 'not-allowed=1003'];
    expect(parseVariantFlags(flags)).toEqual({
      variants: { pageCap: 7, omitLinks: true, omitMeta: true, totalDrift: -3, cutBody: { page: 2, times: 3 }, siteWithoutName: true, ignoreSiteFilter: true, oddRecords: true },
      notAllowed: ['1001', '1002', '1003'],
    });
    expect(parseVariantFlags(['cut-body=4', 'total-drift=5'])).toEqual({ variants: { cutBody: { page: 4, times: 1 }, totalDrift: 5 }, notAllowed: [] });
    expect(parseVariantFlags([])).toEqual({ variants: {}, notAllowed: [] });
  });

  it.each([
    ['bogus', /unknown --variant 'bogus'/],
    ['page-cap', /page-cap needs a value/],
    ['page-cap=0', /page-cap needs a whole number/],
    ['page-cap=2.5', /page-cap needs a whole number/],
    ['page-cap=abc', /page-cap needs a whole number/],
    ['omit-links=yes', /omit-links takes no value/],
    ['odd-records=', /odd-records takes no value/],
    ['total-drift=', /total-drift needs a value/],
    ['total-drift=+4', /total-drift needs a whole number/],
    ['cut-body=0', /cut-body \(page\)/],
    ['cut-body=2x0', /cut-body \(times\)/],
    ['cut-body=x2', /PAGE or PAGExTIMES/],
    ['cut-body=2x', /PAGE or PAGExTIMES/],
    ['not-allowed=1001,,1002', /comma-separated/],
  ])('rejects %s with one line', (flag, message) => {
    let error: unknown;
    try {
      parseVariantFlags([flag]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('rejects a variant given twice', () => {
    expect(() => parseVariantFlags(['omit-meta', 'omit-meta'])).toThrow(/given twice/);
    expect(() => parseVariantFlags(['page-cap=3', 'page-cap=4'])).toThrow(/given twice/);
  });
});
