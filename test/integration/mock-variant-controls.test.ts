/**
 * Setting the mock's variants: the control routes (/__mock/variants, an employee's
 * allow-external-api-record; not logged) and the `timeclock mock --variant` flags parser.
 */
import { describe, expect, it } from 'vitest';
import { parseVariantFlags } from '../../src/cli/terminal/mock.js';
import { UsageError } from '../../src/cli/common/options.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { mockServers, type Res } from '../helpers/mock-http.js';
import { call, expectError, page, punch } from '../helpers/mock-pages.js';

const start = mockServers();

const ctl = (
  srv: MockServer,
  method: 'GET' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  rawBody?: string,
): Promise<Res> => call(srv, method, path, { body, rawBody, control: true });

describe('control routes', () => {
  it('/__mock/variants: GET, PUT (null clears), 422 on a bad body, 400 on bad JSON, 405; not logged', async () => {
    const srv = await start();
    expect((await ctl(srv, 'GET', '/__mock/variants')).json).toEqual({ variants: null });
    expect(expectError(await ctl(srv, 'PUT', '/__mock/variants', { pageCap: 0 }), 422)._issues?.pageCap).toBeDefined();
    expect(expectError(await ctl(srv, 'PUT', '/__mock/variants', { bogus: true }), 422)._issues?.bogus).toBe(
      'unknown field',
    );
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
    expect(await ctl(srv, 'PUT', path('1003'), false)).toMatchObject({
      status: 200,
      json: { _status: 'OK', allow_external_api_record: false },
    });
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
    const flags = [
      'page-cap=7',
      'omit-links',
      'omit-meta',
      'total-drift=-3',
      'cut-body=2x3',
      'site-without-name',
      'ignore-site-filter',
      'odd-records',
      'not-allowed=1001,1002',
      'not-allowed=1003',
    ];
    expect(parseVariantFlags(flags)).toEqual({
      variants: {
        pageCap: 7,
        omitLinks: true,
        omitMeta: true,
        totalDrift: -3,
        cutBody: { page: 2, times: 3 },
        siteWithoutName: true,
        ignoreSiteFilter: true,
        oddRecords: true,
      },
      notAllowed: ['1001', '1002', '1003'],
    });
    expect(parseVariantFlags(['cut-body=4', 'total-drift=5'])).toEqual({
      variants: { cutBody: { page: 4, times: 1 }, totalDrift: 5 },
      notAllowed: [],
    });
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
