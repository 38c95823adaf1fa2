/**
 * The mock API (src/mock/mock-server.ts) over real HTTP on loopback: its seeds, auth and routing,
 * the sliding-window rate limit with Retry-After, and GET /employees paging and filters. POST and
 * GET /times are in mock-server-times.test.ts, the faults and control endpoints in
 * mock-server-faults.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { employeePageSchema, sitePageSchema, MAX_PAGE_SIZE } from '../../src/api/shapes.js';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { parseRetryAfter } from '../../src/domain/rate/retry-policy.js';
import { basicAuth, mockCall, mockServers } from '../helpers/mock-http.js';
import { expectError, fakeClock } from '../helpers/mock-server-answers.js';
import { DEMO_SITE_ID, demoSeed, generatedSeed, isValidCpf, objectIdFor } from '../../src/mock/seed.js';

const start = mockServers();
const basic = basicAuth;
const call = mockCall;

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
    expect(seed.employees.map((e) => e.external_id).slice(0, 35)).toEqual(
      Array.from({ length: 35 }, (_, i) => String(1001 + i)),
    );
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
    for (const authorization of [
      null,
      'Bearer demo-token',
      'Basic !!!',
      basic('admin', 'demo-token'),
      basic('public', 'wrong'),
    ]) {
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
  it.each(['seconds', 'http-date'] as const)(
    'admits 5 per 1000 ms per token, then 429 with Retry-After (%s)',
    async (format) => {
      const clock = fakeClock(T0);
      const srv = await start({
        clock,
        rateLimit: { limit: 5, windowMs: 1000 },
        retryAfterFormat: format,
        tokens: ['demo-token', 'other'],
      });
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
      const demoArrivals = srv
        .requests()
        .filter((e) => e.counted && e.at !== T0 + 500)
        .map((e) => e.at);
      expect(demoArrivals).toHaveLength(7);
      expect(maxInAnyWindow(demoArrivals, 1000)).toBe(5);
      expect(
        srv
          .requests()
          .filter((e) => e.status === 429)
          .every((e) => !e.counted),
      ).toBe(true);
    },
  );

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
    const counted = srv
      .requests()
      .filter((e) => e.counted)
      .map((e) => e.at);
    expect(maxInAnyWindow(counted.slice(0, 3), 5000)).toBeLessThanOrEqual(2);
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
    const bySite = employeePageSchema.parse(
      (await call(srv, 'GET', `/employees?site_id=${site1}&max_results=100`)).json,
    );
    expect(bySite._meta.total).toBe(20);
    expect(bySite._items.every((e) => (Number(e.external_id) - 100000) % 3 === 1)).toBe(true);
    const unknownSite = employeePageSchema.parse(
      (await call(srv, 'GET', `/employees?site_id=${objectIdFor('nope', 9)}`)).json,
    );
    expect(unknownSite._meta.total).toBe(0);

    const clamped = employeePageSchema.parse((await call(srv, 'GET', '/employees?max_results=500')).json);
    expect(clamped._meta.max_results).toBe(MAX_PAGE_SIZE);
    expect(clamped._items).toHaveLength(60);
    const dflt = employeePageSchema.parse((await call(srv, 'GET', '/employees')).json);
    expect(dflt._meta).toEqual({ max_results: 25, page: 1, total: 60 });

    for (const q of [
      'max_results=0',
      'max_results=2.5',
      'max_results=abc',
      'page=0',
      'page=-1',
      'max_results=',
      `site_id=notanid`,
    ]) {
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
    srv.addEmployees([
      {
        _id: objectIdFor('extra', 1),
        external_id: '5001',
        full_name: 'Nova Pessoa',
        active: true,
        site_ids: [DEMO_SITE_ID],
      },
    ]);
    const last = employeePageSchema.parse((await call(srv, 'GET', '/employees?max_results=100')).json);
    expect(last._meta.total).toBe(37);
    expect(last._items.at(-1)?.external_id).toBe('5001');
    expect(() =>
      srv.addEmployees([
        { _id: objectIdFor('extra', 2), external_id: '5001', full_name: 'Dup', active: true, site_ids: [] },
      ]),
    ).toThrow();
  });
});
