import { describe, expect, it } from 'vitest';
import { employeePageSchema, errorBodySchema, sitePageSchema, timesResponseSchema, createdSchema, MAX_PAGE_SIZE, defaultApiDialect } from '../../src/api/shapes.js';
import { maxInAnyWindow } from '../../src/domain/sliding-window.js';
import { parseRetryAfter } from '../../src/domain/retry-policy.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { basicAuth, mockCall, mockServers, type Res } from '../helpers/mock-http.js';
import { DEMO_SITE_ID, demoSeed, generatedSeed, isValidCpf, objectIdFor } from '../../src/mock/seed.js';

const start = mockServers();
const basic = basicAuth;
const call = mockCall;

function fakeClock(start: number): { now: () => number; set: (t: number) => void; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, set: (v) => (t = v), advance: (ms) => (t += ms) };
}

function expectError(res: Res, status: number): ReturnType<typeof errorBodySchema.parse> {
  expect(res.status).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = errorBodySchema.parse(res.json);
  expect(body._status).toBe('ERR');
  expect(body._error.code).toBe(status);
  return body;
}

const T0 = Date.UTC(2026, 10, 21, 11, 0, 0);

describe('seed', () => {
  it('demoSeed has 36 valid employees with the documented odd ones', () => {
    const seed = demoSeed();
    expect(seed.sites).toHaveLength(1);
    expect(seed.sites[0]?._id).toBe(DEMO_SITE_ID);
    expect(seed.employees).toHaveLength(36);
    for (const e of seed.employees) {
      expect(e._id).toMatch(/^[0-9a-f]{24}$/);
      expect(isValidCpf(e.cpf ?? '')).toBe(true);
      expect(e.site_ids).toEqual([DEMO_SITE_ID]);
    }
    expect(seed.employees.map((e) => e.external_id).slice(0, 35)).toEqual(Array.from({ length: 35 }, (_, i) => String(1001 + i)));
    expect(seed.employees[35]?.external_id).toBeUndefined();
    expect(seed.employees.filter((e) => !e.work_schedule || !e.contract_data?.payment_source)).toHaveLength(2);
    expect(seed.employees.filter((e) => e.timezone === 'America/Manaus').length).toBeGreaterThanOrEqual(2);
    expect(seed.employees[0]?.contract_data?.registration_number).toBe('M-0001');
    expect(new Set(seed.employees.map((e) => e.cpf)).size).toBe(36);
  });

  it('isValidCpf accepts a known valid CPF and rejects bad ones', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
  });

  it('generatedSeed builds 100,000 employees deterministically', () => {
    const seed = generatedSeed({ employees: 100_000, sites: 7 });
    expect(seed.employees).toHaveLength(100_000);
    expect(seed.sites).toHaveLength(7);
    expect(seed.employees[0]?.external_id).toBe('100000');
    expect(seed.employees[99_999]?.external_id).toBe('199999');
    expect(seed.employees[8]?.site_ids).toEqual([seed.sites[1]?._id]);
    expect(new Set(seed.employees.map((e) => e._id)).size).toBe(100_000);
    const again = generatedSeed({ employees: 10, sites: 7 });
    expect(again.employees[5]).toEqual(seed.employees[5]);
    expect(objectIdFor('x', 255)).toMatch(/^[0-9a-f]{8}00000000000000ff$/);
  });
});

describe('auth and routing', () => {
  it('rejects missing, malformed and wrong credentials with 401 and does not count them', async () => {
    const srv = await start({ rateLimit: { limit: 1, windowMs: 60_000 } });
    for (const authorization of [null, 'Bearer demo-token', 'Basic !!!', basic('admin', 'demo-token'), basic('public', 'wrong')]) {
      const res = await call(srv, 'GET', '/employees', { authorization });
      expectError(res, 401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="api"');
    }
    const ok = await call(srv, 'GET', '/employees');
    expect(ok.status).toBe(200);
    expect(srv.requests().filter((e) => e.counted)).toHaveLength(1);
    expect(srv.requests().map((e) => e.status)).toEqual([401, 401, 401, 401, 401, 200]);
  });

  it('answers JSON with a Date header from the mock clock; 404 and 405 with error bodies', async () => {
    const clock = fakeClock(T0);
    const srv = await start({ clock });
    const res = await call(srv, 'GET', '/sites');
    expect(res.status).toBe(200);
    expect(res.headers.date).toBe(new Date(T0).toUTCString());
    const sites = sitePageSchema.parse(res.json);
    expect(sites._items[0]?.name).toBe('Obra Centro — São Paulo');
    expect((await call(srv, 'GET', `/sites/${DEMO_SITE_ID}`)).status).toBe(200);
    expectError(await call(srv, 'GET', `/sites/${objectIdFor('nope', 1)}`), 404);
    expectError(await call(srv, 'GET', '/users'), 404); // a path of the spec the mock does not serve
    expectError(await call(srv, 'GET', '/health', { base: srv.origin }), 404);
    const notAllowed = await call(srv, 'DELETE', '/employees');
    expectError(notAllowed, 405);
    expect(notAllowed.headers.allow).toBe('GET');
  });
});

describe('sliding window', () => {
  it.each(['seconds', 'http-date'] as const)('admits 5 per 1000 ms per token, then 429 with Retry-After (%s)', async (format) => {
    const clock = fakeClock(T0);
    const srv = await start({ clock, rateLimit: { limit: 5, windowMs: 1000 }, retryAfterFormat: format, tokens: ['demo-token', 'other'] });
    for (let i = 0; i < 5; i++) {
      expect((await call(srv, 'GET', '/sites')).status).toBe(200);
      clock.advance(100); // arrivals at T0, +100, +200, +300, +400
    }
    clock.set(T0 + 500);
    const refused = await call(srv, 'GET', '/sites');
    expectError(refused, 429);
    const retryAfter = String(refused.headers['retry-after']);
    if (format === 'seconds') expect(retryAfter).toBe('1');
    else expect(retryAfter).toBe(new Date(T0 + 1000).toUTCString());
    expect(parseRetryAfter(retryAfter, T0 + 500)).toBe(format === 'seconds' ? 1000 : 500);

    // Another token has its own window.
    expect((await call(srv, 'GET', '/sites', { authorization: basic('public', 'other') })).status).toBe(200);

    clock.set(T0 + 999);
    expectError(await call(srv, 'GET', '/sites'), 429);
    // The oldest arrival (T0) leaves the window at T0+1000: exactly one slot comes back.
    clock.set(T0 + 1000);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    // A fixed-bucket limiter would now admit 4 more; a sliding one admits none until T0+1100.
    expectError(await call(srv, 'GET', '/sites'), 429);
    clock.set(T0 + 1100);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);

    // The only request counted at T0+500 is the other token's; without it, no window holds more than 5.
    const demoArrivals = srv.requests().filter((e) => e.counted && e.at !== T0 + 500).map((e) => e.at);
    expect(demoArrivals).toHaveLength(7);
    expect(maxInAnyWindow(demoArrivals, 1000)).toBe(5);
    expect(srv.requests().filter((e) => e.status === 429).every((e) => !e.counted)).toBe(true);
  });

  it('Retry-After counts whole seconds rounded up until the oldest arrival leaves', async () => {
    const clock = fakeClock(T0);
    const srv = await start({ clock, rateLimit: { limit: 2, windowMs: 5000 } });
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    clock.advance(1500);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    clock.advance(1000); // T0+2500: oldest leaves at T0+5000
    const r = await call(srv, 'GET', '/sites');
    expect(r.headers['retry-after']).toBe('3');
    // Refusals do not count: at T0+5000 exactly one request is admitted again.
    clock.set(T0 + 5000);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    expect((await call(srv, 'GET', '/sites')).status).toBe(429);
    srv.setRateLimit({ limit: 10, windowMs: 5000 });
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    const counted = srv.requests().filter((e) => e.counted).map((e) => e.at);
    expect(maxInAnyWindow(counted.slice(0, 3), 5000)).toBeLessThanOrEqual(2);
  });
});

describe('POST /times', () => {
  it('validates the body and answers 422/404/400 with parseable error bodies', async () => {
    const srv = await start();
    const emp1 = objectIdFor('employee', 1);
    const both = expectError(await call(srv, 'POST', '/times', { body: { employee_id: emp1, employee_external_id: '1001', time: '2026-11-21T08:03' } }), 422);
    expect(Object.keys(both._issues ?? {})).toContain('employee_external_id');
    const neither = expectError(await call(srv, 'POST', '/times', { body: { time: '2026-11-21T08:03' } }), 422);
    expect(neither._issues?.employee_id).toBeDefined();
    const badTime = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21 08:03' } }), 422);
    expect(badTime._issues?.time).toBeDefined();
    const missingTime = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1001' } }), 422);
    expect(missingTime._issues?.time).toBe('required field');
    const feb30 = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-02-30T08:00' } }), 422);
    expect(feb30._issues?.time).toMatch(/calendar/);
    const unknownField = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21T08:03', kiosk: 'k1' } }), 422);
    expect(unknownField._issues?.kiosk).toBe('unknown field');
    const badId = expectError(await call(srv, 'POST', '/times', { body: { employee_id: 'xyz', time: '2026-11-21T08:03' } }), 422);
    expect(badId._issues?.employee_id).toBeDefined();
    const unknown = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '9999', time: '2026-11-21T08:03' } }), 404);
    expect(unknown._error.message).toContain('9999');
    srv.setActive('1002', false);
    const inactive = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1002', time: '2026-11-21T08:03' } }), 404);
    expect(inactive._error.message).toContain('1002');
    expectError(await call(srv, 'POST', '/times', { rawBody: '[1,2]' }), 400);
    expect(srv.records()).toHaveLength(0);
  });

  it('stores a registro externo record visible via records() and GET /times; duplicates are kept', async () => {
    const clock = fakeClock(Date.UTC(2026, 10, 21, 11, 3, 27));
    const srv = await start({ clock });
    const res = await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21T08:03' } });
    expect(res.status).toBe(201);
    const created = createdSchema.parse(res.json);
    expect(created._status).toBe('OK');
    expect(created._created).toBe('2026-11-21T11:03+00:00');
    await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21T08:03' } });
    await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-20T17:59' } });
    // 1036 has no external_id: it is addressed by _id.
    const e36 = objectIdFor('employee', 36);
    expect((await call(srv, 'POST', '/times', { body: { employee_id: e36, time: '2026-11-21T09:00' } })).status).toBe(201);

    const recs = srv.records();
    expect(recs).toHaveLength(4);
    expect(recs[0]).toMatchObject({ _id: created._id, employee_id: objectIdFor('employee', 1), employee_external_id: '1001', time: '2026-11-21T08:03', type: 'registro externo', approved: false, token: 'demo-token' });
    expect(recs[3]?.employee_external_id).toBeUndefined();

    const times = await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20&end_date=2026-11-21');
    expect(times.status).toBe(200);
    const parsed = timesResponseSchema.parse(times.json);
    expect(parsed.employee_id).toBe(objectIdFor('employee', 1));
    expect(parsed.times.map((t) => t.time)).toEqual(['2026-11-20T17:59', '2026-11-21T08:03', '2026-11-21T08:03']);
    expect(parsed.times.every((t) => t.type === 'registro externo' && t.approved === false)).toBe(true);
    const oneDay = timesResponseSchema.parse((await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-21&end_date=2026-11-21')).json);
    expect(oneDay.times).toHaveLength(2);
    const byId = timesResponseSchema.parse((await call(srv, 'GET', `/times?employee_id=${e36}&start_date=2026-11-21&end_date=2026-11-21`)).json);
    expect(byId.times).toHaveLength(1);

    expectError(await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20'), 400);
    expectError(await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20&end_date=21/11/2026'), 400);
    expectError(await call(srv, 'GET', '/times?start_date=2026-11-20&end_date=2026-11-21'), 400);
    expectError(await call(srv, 'GET', '/times?employee_external_id=4242&start_date=2026-11-20&end_date=2026-11-21'), 404);

    // The control endpoint shows the same records to a standalone user.
    const ctl = await call(srv, 'GET', '/__mock/records', { base: srv.origin, authorization: null });
    expect(Array.isArray(ctl.json) && ctl.json.length).toBe(4);
  });

  it("accepts the 'split' dialect (date + time) and custom GET /times parameter names", async () => {
    const dialect = { ...defaultApiDialect, punchBody: 'split' as const, timesQuery: { startDate: 'from', endDate: 'to' } };
    const srv = await start({ dialect });
    expect((await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', date: '2026-11-21', time: '08:03' } })).status).toBe(201);
    const combined = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', time: '2026-11-21T08:03' } }), 422);
    expect(combined._issues?.date).toBe('required field');
    const feb30 = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', date: '2026-02-30', time: '08:03' } }), 422);
    expect(feb30._issues?.date).toMatch(/calendar/);
    expect(srv.records().map((r) => r.time)).toEqual(['2026-11-21T08:03']);
    const times = timesResponseSchema.parse((await call(srv, 'GET', '/times?employee_external_id=1003&from=2026-11-21&to=2026-11-21')).json);
    expect(times.times).toHaveLength(1);
  });

  it('answers 400 to malformed JSON and keeps serving', async () => {
    const srv = await start();
    expectError(await call(srv, 'POST', '/times', { rawBody: '{"employee_external_id": "1001", "time": ' }), 400);
    expect((await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21T08:03' } })).status).toBe(201);
  });

  it('turns an unexpected error into a 500 with an error body and a log entry', async () => {
    let explode = true;
    const srv = await start({
      faults: { serverError: 0.5 },
      random: () => {
        if (explode) throw new Error('boom');
        return 0.99;
      },
    });
    expectError(await call(srv, 'GET', '/sites'), 500);
    expect(srv.requests()[0]).toMatchObject({ status: 500, error: 'boom', fault: null });
    explode = false;
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
  });
});

describe('GET /employees', () => {
  it('pages 60 generated employees 25/25/10, filters by site, clamps max_results, hides inactive', async () => {
    const seed = generatedSeed({ employees: 60, sites: 3, seed: 7 });
    const srv = await start({ seed });
    const sizes: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await call(srv, 'GET', `/employees?max_results=25&page=${page}`);
      const body = employeePageSchema.parse(res.json);
      expect(body._meta).toEqual({ max_results: 25, page, total: 60 });
      sizes.push(body._items.length);
      if (page === 1) {
        expect(body._items[0]?.external_id).toBe('100000');
        expect(body._items[0]).not.toHaveProperty('active');
        expect(body._items[0]).not.toHaveProperty('site_ids');
        expect(body._links.next).toEqual({ title: 'next page', href: 'employees?max_results=25&page=2' });
        expect(body._links.last).toEqual({ title: 'last page', href: 'employees?max_results=25&page=3' });
      }
      if (page === 3) expect(body._links.next).toBeUndefined();
    }
    expect(sizes).toEqual([25, 25, 10]);

    const site1 = seed.sites[1]?._id ?? '';
    const bySite = employeePageSchema.parse((await call(srv, 'GET', `/employees?site_id=${site1}&max_results=100`)).json);
    expect(bySite._meta.total).toBe(20);
    expect(bySite._items.every((e) => (Number(e.external_id) - 100000) % 3 === 1)).toBe(true);
    const unknownSite = employeePageSchema.parse((await call(srv, 'GET', `/employees?site_id=${objectIdFor('nope', 9)}`)).json);
    expect(unknownSite._meta.total).toBe(0);

    const clamped = employeePageSchema.parse((await call(srv, 'GET', '/employees?max_results=500')).json);
    expect(clamped._meta.max_results).toBe(MAX_PAGE_SIZE);
    expect(clamped._items).toHaveLength(60);
    const dflt = employeePageSchema.parse((await call(srv, 'GET', '/employees')).json);
    expect(dflt._meta).toEqual({ max_results: 25, page: 1, total: 60 });

    for (const q of ['max_results=0', 'max_results=2.5', 'max_results=abc', 'page=0', 'page=-1', 'max_results=', `site_id=notanid`]) {
      expectError(await call(srv, 'GET', `/employees?${q}`), 400);
    }

    srv.setActive('100005', false);
    const after = employeePageSchema.parse((await call(srv, 'GET', '/employees?max_results=100')).json);
    expect(after._meta.total).toBe(59);
    expect(after._items.some((e) => e.external_id === '100005')).toBe(false);
    const inactiveId = seed.employees[5]?._id ?? '';
    expectError(await call(srv, 'GET', `/employees/${inactiveId}`), 404);
    const one = await call(srv, 'GET', `/employees/${seed.employees[6]?._id ?? ''}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ external_id: '100006' });
    expect(srv.employees().find((e) => e.external_id === '100005')?.active).toBe(false);
  });

  it('addEmployees appends in insertion order', async () => {
    const srv = await start();
    srv.addEmployees([{ _id: objectIdFor('extra', 1), external_id: '5001', full_name: 'Nova Pessoa', active: true, site_ids: [DEMO_SITE_ID] }]);
    const last = employeePageSchema.parse((await call(srv, 'GET', '/employees?max_results=100')).json);
    expect(last._meta.total).toBe(37);
    expect(last._items.at(-1)?.external_id).toBe('5001');
    expect(() => srv.addEmployees([{ _id: objectIdFor('extra', 2), external_id: '5001', full_name: 'Dup', active: true, site_ids: [] }])).toThrow();
  });
});

describe('faults', () => {
  const punch = { employee_external_id: '1001', time: '2026-11-21T08:03' };

  it('drop_after_store stores the record but the client sees a socket error', async () => {
    const srv = await start({ faults: { dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } } });
    await expect(call(srv, 'POST', '/times', { body: punch })).rejects.toThrow();
    expect(srv.records()).toHaveLength(1);
    // GET is outside `only`, so it is answered normally.
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    const log = srv.requests();
    expect(log[0]).toMatchObject({ method: 'POST', path: '/v2.1/times', status: null, counted: true, fault: 'drop_after_store' });
    expect(log[1]).toMatchObject({ status: 200, fault: null });
  });

  it('server_error answers 500 and stores nothing', async () => {
    const srv = await start();
    srv.setFaults({ serverError: 1 });
    expectError(await call(srv, 'POST', '/times', { body: punch }), 500);
    expect(srv.records()).toHaveLength(0);
    expect(srv.requests()[0]?.fault).toBe('server_error');
    srv.setFaults(null);
    expect((await call(srv, 'POST', '/times', { body: punch })).status).toBe(201);
  });

  it('slow_response stores at once and answers after the delay', async () => {
    const srv = await start({ faults: { slowResponse: 1, slowDelayMs: 300 } });
    const started = Date.now();
    const pending = call(srv, 'POST', '/times', { body: punch });
    await new Promise((r) => setTimeout(r, 100));
    expect(srv.records()).toHaveLength(1);
    expect(srv.requests()[0]?.status).toBeNull();
    const res = await pending;
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(srv.requests()[0]).toMatchObject({ status: 201, fault: 'slow_response' });
  });

  it('always_429 refuses every authenticated request regardless of the window', async () => {
    const srv = await start({ faults: { always429: true } });
    const r = await call(srv, 'GET', '/sites');
    expectError(r, 429);
    expect(r.headers['retry-after']).toBe('1');
    expectError(await call(srv, 'GET', '/sites', { authorization: null }), 401);
    expect(srv.requests().every((e) => !e.counted)).toBe(true);
    expect(srv.requests()[0]?.fault).toBe('always_429');
  });

  it('picks faults reproducibly with the default seeded PRNG', async () => {
    const kinds = async (): Promise<Array<string | null>> => {
      const srv = await start({ faults: { serverError: 0.5 } });
      for (let i = 0; i < 10; i++) await call(srv, 'GET', '/sites');
      return srv.requests().map((e) => e.fault);
    };
    const a = await kinds();
    expect(await kinds()).toEqual(a);
    expect(a).toContain('server_error');
    expect(a).toContain(null);
  });

  it('control endpoints set faults and the rate limit without auth and validate the body', async () => {
    const srv = await start();
    const base = srv.origin;
    const bad = await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, body: { serverError: 2 } });
    expectError(bad, 422);
    expectError(await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, rawBody: '{' }), 400);
    expect((await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, body: { serverError: 1 } })).status).toBe(200);
    expectError(await call(srv, 'GET', '/sites'), 500);
    expect((await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, body: null })).status).toBe(200);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    expect((await call(srv, 'PUT', '/__mock/rate-limit', { base, authorization: null, body: { limit: 1, windowMs: 60_000 } })).status).toBe(200);
    expectError(await call(srv, 'GET', '/sites'), 429);
    expectError(await call(srv, 'PUT', '/__mock/rate-limit', { base, authorization: null, body: { limit: 0, windowMs: 1 } }), 422);
    const reqs = await call(srv, 'GET', '/__mock/requests', { base, authorization: null });
    expect(Array.isArray(reqs.json) && reqs.json.length).toBe(3); // control calls are not logged
  });

  it('close() returns promptly with a slow response pending', async () => {
    const srv = await startMockServer({ faults: { slowResponse: 1, slowDelayMs: 60_000 } });
    const pending = call(srv, 'GET', '/sites').catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await srv.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it('refuses to bind anything but loopback', async () => {
    await expect(startMockServer({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
  });
});
