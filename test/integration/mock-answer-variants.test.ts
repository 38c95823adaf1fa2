import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/api/shapes.js';
import type { MockOptions, MockServer } from '../../src/mock/mock-server.js';
import { mockCall, mockServers, type CallOpts, type Res } from '../helpers/mock-http.js';
import { demoSeed, objectIdFor, type MockEmployee } from '../../src/mock/seed.js';

const start = mockServers();
const call = (srv: MockServer, method: 'GET' | 'POST' | 'PUT', path: string, opts: CallOpts = {}) =>
  mockCall(srv, method, path, opts);

const post = (srv: MockServer, body: unknown, token?: string | null): Promise<Res> =>
  call(srv, 'POST', '/times', { body, token });
const punch = (ext: string, time = '2026-11-21T08:03') => ({ employee_external_id: ext, time });
const eve = (code: number, message: string) => ({ _status: 'ERR', _error: { code, message } });
const statuses = (srv: MockServer): Array<number | null> => srv.requests().map((e) => e.status);
const timesOf = async (srv: MockServer, query: string): Promise<string[]> => {
  const res = await call(srv, 'GET', `/times?${query}`);
  expect(res.status).toBe(200);
  return (res.json as { times: Array<{ time: string }> }).times.map((t) => t.time);
};

describe('POST /times answers', () => {
  it('forbiddenPunches: 403 with the Eve body for those employees (by external id or _id), nothing stored, roster and token unchanged', async () => {
    const e1 = objectIdFor('employee', 1);
    const srv = await start({ variants: { forbiddenPunches: ['1001', objectIdFor('employee', 2)] } });
    const before = await call(srv, 'GET', `/employees/${e1}`);
    const refused = await post(srv, punch('1001'));
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual(eve(403, 'this employee may not record by API'));
    expect((await post(srv, { employee_id: e1, time: '2026-11-21T08:03' })).status).toBe(403);
    expect((await post(srv, punch('1002'))).json).toEqual(eve(403, 'this employee may not record by API'));
    expect((await post(srv, punch('1003'))).status).toBe(201);
    expect(srv.records().map((r) => r.employee_external_id)).toEqual(['1003']);
    // Unlike allow_external_api_record: false, the roster says nothing.
    expect(await call(srv, 'GET', `/employees/${e1}`)).toMatchObject({ status: 200, json: before.json });
    expect(srv.employees()[0]?.contract_data).not.toHaveProperty('allow_external_api_record');
    expect(
      (await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-01&end_date=2026-11-30')).status,
    ).toBe(200);
    expect(statuses(srv)).toEqual([200, 403, 403, 403, 201, 200, 200]);
    expect(srv.requests().every((e) => e.counted)).toBe(true);
    // Invalid bodies and unknown employees keep their own answers.
    expect((await post(srv, { employee_external_id: '1001' })).status).toBe(422);
    expect((await post(srv, punch('9999'))).status).toBe(404);
    expect(
      (await call(srv, 'PUT', '/__mock/variants', { control: true, body: { forbiddenPunches: ['1003'] } })).status,
    ).toBe(200);
    expect((await post(srv, punch('1001'))).status).toBe(201);
    expect((await post(srv, punch('1003'))).status).toBe(403);
    expect(srv.records()).toHaveLength(2);
  });

  it('conflictOnDuplicate: 409 for an employee and time already held; off, duplicates are stored', async () => {
    const srv = await start();
    for (let i = 0; i < 2; i++) expect((await post(srv, punch('1001'))).status).toBe(201);
    expect(srv.records()).toHaveLength(2);
    srv.setVariants({ conflictOnDuplicate: true });
    const dup = await post(srv, punch('1001'));
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual(eve(409, 'record already exists'));
    expect(errorBodySchema.safeParse(dup.json).success).toBe(true);
    expect((await post(srv, { employee_id: objectIdFor('employee', 1), time: '2026-11-21T08:03' })).status).toBe(409);
    expect((await post(srv, punch('1001', '2026-11-21T08:04'))).status).toBe(201);
    expect((await post(srv, punch('1002'))).status).toBe(201);
    expect((await post(srv, punch('1002'))).status).toBe(409);
    expect(srv.records().map((r) => `${r.employee_external_id} ${r.time}`)).toEqual([
      '1001 2026-11-21T08:03',
      '1001 2026-11-21T08:03',
      '1001 2026-11-21T08:04',
      '1002 2026-11-21T08:03',
    ]);
    expect(statuses(srv)).toEqual([201, 201, 409, 409, 201, 201, 409]);
  });

  it('conflictOnDuplicate in the split dialect compares the combined date and time', async () => {
    const srv = await start({
      dialect: {
        punchBody: 'split',
        timesQuery: { startDate: 'start_date', endDate: 'end_date' },
        siteFilterParam: 'site_id',
        updatedFilterParam: 'where',
      },
      variants: { conflictOnDuplicate: true },
    });
    const body = { employee_external_id: '1001', date: '2026-11-21', time: '08:03' };
    expect((await post(srv, body)).status).toBe(201);
    expect((await post(srv, body)).status).toBe(409);
    expect((await post(srv, { ...body, date: '2026-11-22' })).status).toBe(201);
  });

  it('errorBodyOn2xx: 200 with an Eve error body, nothing stored; invalid bodies and unknown employees keep their status', async () => {
    const srv = await start({ variants: { errorBodyOn2xx: true } });
    const res = await post(srv, punch('1001'));
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(res.json).toEqual(eve(422, "time outside the employee's schedule"));
    expect((await post(srv, { time: '2026-11-21T08:03' })).status).toBe(422);
    expect((await post(srv, punch('9999'))).status).toBe(404);
    expect(srv.records()).toHaveLength(0);
    expect(statuses(srv)).toEqual([200, 422, 404]);
    srv.setVariants(null);
    expect((await post(srv, punch('1001'))).status).toBe(201);
  });
});

describe('answers from in front of the API', () => {
  it.each([301, 302, 307, 308] as const)(
    'redirect %i: status, Location and a tiny HTML body for every API request; counted; nothing stored',
    async (status) => {
      const location = 'https://new.example.com/api/v2.1/times?x=1';
      const srv = await start({
        variants: { redirect: { status, location } },
        rateLimit: { limit: 3, windowMs: 60_000 },
      });
      for (const res of [
        await post(srv, punch('1001')),
        await call(srv, 'GET', '/employees'),
        await call(srv, 'GET', '/nope'),
      ]) {
        expect(res.status).toBe(status);
        expect(res.headers.location).toBe(location);
        expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
        expect(res.text.length).toBeLessThan(200);
        expect(res.text).toContain(String(status));
      }
      expect((await call(srv, 'GET', '/sites')).status).toBe(429); // the redirects took the 3 slots
      expect((await call(srv, 'GET', '/sites', { token: 'wrong' })).status).toBe(401);
      expect(srv.records()).toHaveLength(0);
      expect(srv.requests().map((e) => [e.status, e.counted])).toEqual([
        [status, true],
        [status, true],
        [status, true],
        [429, false],
        [401, false],
      ]);
      const ctl = await call(srv, 'GET', '/__mock/variants', { control: true });
      expect(ctl).toMatchObject({ status: 200, json: { variants: { redirect: { status, location } } } });
    },
  );

  it.each([
    ['html', 200, /^text\/html/, /<html/i],
    ['html-404', 404, /^text\/html/, /404 Not Found/],
    ['text', 200, /^text\/plain/, /^OK$/],
  ] as const)(
    'nonApi %s: any request, before authentication, not counted; nothing stored',
    async (kind, status, type, body) => {
      const srv = await start({ variants: { nonApi: kind }, rateLimit: { limit: 1, windowMs: 60_000 } });
      const answers = [
        await post(srv, punch('1001')),
        await call(srv, 'GET', '/employees', { token: null }),
        await call(srv, 'GET', '/anything', { origin: true }),
        await call(srv, 'GET', '/times'),
      ];
      for (const res of answers) {
        expect(res.status).toBe(status);
        expect(String(res.headers['content-type'])).toMatch(type);
        expect(res.text).toMatch(body);
        expect(errorBodySchema.safeParse(res.json).success).toBe(false);
      }
      expect(srv.records()).toHaveLength(0);
      expect(srv.requests().map((e) => [e.status, e.counted])).toEqual(answers.map(() => [status, false]));
      expect((await call(srv, 'GET', '/__mock/records', { control: true })).json).toEqual([]);
      srv.setVariants(null);
      expect((await post(srv, punch('1001'))).status).toBe(201); // the window was not touched
    },
  );
});

describe('GET /times answers', () => {
  async function withRecords(variants: MockOptions['variants'], extra: MockEmployee[] = []): Promise<MockServer> {
    const srv = await start();
    srv.addEmployees(extra);
    for (const [ext, time] of [
      ['1001', '2026-11-20T07:31'],
      ['1001', '2026-11-21T12:00'],
      ['1001', '2026-11-22T17:45'],
      ['1001', '2018-11-21T07:31'],
      ['1010', '2026-11-21T07:31'],
    ] as const) {
      expect((await post(srv, punch(ext, time))).status).toBe(201);
    }
    srv.setVariants(variants ?? null);
    return srv;
  }
  const q = (ext: string, start: string, end: string): string =>
    `employee_external_id=${ext}&start_date=${start}&end_date=${end}`;

  it('timesTimeFormat: minutes as stored, seconds, seconds and the offset of the employee zone at that wall time', async () => {
    const bare = (ext: string, timezone?: string): MockEmployee => ({
      _id: objectIdFor('tz', Number(ext)),
      external_id: ext,
      full_name: `E ${ext}`,
      active: true,
      site_ids: [],
      ...(timezone ? { timezone } : {}),
    });
    const srv = await withRecords(undefined, [
      bare('7001'),
      bare('7002', 'Mars/Olympus_Mons'),
      bare('7003', 'America/New_York'),
      bare('7004', 'Asia/Kolkata'),
    ]);
    for (const [ext, time] of [
      ['7001', '2026-11-21T07:31'],
      ['7002', '2026-11-21T07:31'],
      ['7003', '2026-07-01T09:00'],
      ['7003', '2026-12-01T09:00'],
      ['7004', '2026-11-21T07:31'],
    ] as const) {
      expect((await post(srv, punch(ext, time))).status).toBe(201);
    }
    expect(await timesOf(srv, q('1001', '2026-11-20', '2026-11-22'))).toEqual([
      '2026-11-20T07:31',
      '2026-11-21T12:00',
      '2026-11-22T17:45',
    ]);
    srv.setVariants({ timesTimeFormat: 'minutes' });
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T12:00']);
    srv.setVariants({ timesTimeFormat: 'seconds' });
    expect(await timesOf(srv, q('1001', '2026-11-20', '2026-11-22'))).toEqual([
      '2026-11-20T07:31:00',
      '2026-11-21T12:00:00',
      '2026-11-22T17:45:00',
    ]);
    srv.setVariants({ timesTimeFormat: 'offset' });
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T12:00:00-03:00']);
    // São Paulo summer time then
    expect(await timesOf(srv, q('1001', '2018-11-21', '2018-11-21'))).toEqual(['2018-11-21T07:31:00-02:00']);
    expect(await timesOf(srv, q('1010', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T07:31:00-04:00']); // Manaus
    // no timezone
    expect(await timesOf(srv, q('7001', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T07:31:00-03:00']);
    // unknown zone
    expect(await timesOf(srv, q('7002', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T07:31:00-03:00']);
    expect(await timesOf(srv, q('7003', '2026-01-01', '2026-12-31'))).toEqual([
      '2026-07-01T09:00:00-04:00',
      '2026-12-01T09:00:00-05:00',
    ]);
    expect(await timesOf(srv, q('7004', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T07:31:00+05:30']);
    expect(srv.records().every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(r.time))).toBe(true);
  });

  it('timesTimeFormat in UTC: the instant of the wall time in the employee zone, as …Z, +00:00 or an HTTP date (RFC 1123)', async () => {
    const ny: MockEmployee = {
      _id: objectIdFor('tz', 7101),
      external_id: '7101',
      full_name: 'E 7101',
      active: true,
      site_ids: [],
      timezone: 'America/New_York',
    };
    const srv = await withRecords(undefined, [ny]);
    // 01:45 comes twice in New York that night: sent without an offset, both are read one way.
    for (const time of ['2026-11-01T01:45', '2026-11-01T01:45', '2026-11-01T09:00'])
      expect((await post(srv, punch('7101', time))).status).toBe(201);
    srv.setVariants({ timesTimeFormat: 'utc-z' });
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-22'))).toEqual([
      '2026-11-21T15:00:00Z',
      '2026-11-22T20:45:00Z',
    ]);
    expect(await timesOf(srv, q('1010', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T11:31:00Z']); // Manaus
    const nyUtc = await timesOf(srv, q('7101', '2026-11-01', '2026-11-01'));
    expect(nyUtc[2]).toBe('2026-11-01T14:00:00Z');
    expect(nyUtc[0]).toBe(nyUtc[1]);
    expect(['2026-11-01T05:45:00Z', '2026-11-01T06:45:00Z']).toContain(nyUtc[0]);
    srv.setVariants({ timesTimeFormat: 'utc-offset' });
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T15:00:00+00:00']);
    srv.setVariants({ timesTimeFormat: 'rfc1123' });
    expect(await timesOf(srv, q('1001', '2026-11-20', '2026-11-22'))).toEqual([
      'Fri, 20 Nov 2026 10:31:00 GMT',
      'Sat, 21 Nov 2026 15:00:00 GMT',
      'Sun, 22 Nov 2026 20:45:00 GMT',
    ]);
    expect(srv.records().every((r) => /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(r.time))).toBe(true);
  });

  it('timesGarbageRecord: every list ends with one API record whose time no client reads, empty lists too', async () => {
    const srv = await withRecords({ timesGarbageRecord: true, timesTimeFormat: 'utc-z' });
    const res = await call(srv, 'GET', `/times?${q('1001', '2026-11-21', '2026-11-21')}`);
    expect((res.json as { times: unknown[] }).times).toEqual([
      expect.objectContaining({ time: '2026-11-21T15:00:00Z' }),
      { _id: 'ffffffffffffffffffffffff', approved: false, type: 'registro externo', time: 'ontem, 25h61' },
    ]);
    expect(await timesOf(srv, q('1002', '2020-01-01', '2020-01-01'))).toEqual(['ontem, 25h61']);
    expect(srv.records().some((r) => r.time === 'ontem, 25h61')).toBe(false);
  });

  it('timesEndExclusive: the end date is left out', async () => {
    const srv = await withRecords({ timesEndExclusive: true });
    expect(await timesOf(srv, q('1001', '2026-11-20', '2026-11-22'))).toEqual(['2026-11-20T07:31', '2026-11-21T12:00']);
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-21'))).toEqual([]);
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-23'))).toEqual(['2026-11-21T12:00', '2026-11-22T17:45']);
    srv.setVariants({ timesEndExclusive: true, timesTimeFormat: 'seconds' });
    expect(await timesOf(srv, q('1001', '2026-11-20', '2026-11-21'))).toEqual(['2026-11-20T07:31:00']);
    srv.setVariants(null);
    expect(await timesOf(srv, q('1001', '2026-11-21', '2026-11-21'))).toEqual(['2026-11-21T12:00']);
  });

  it.each([404, 400] as const)(
    'timesAnswer %i: every GET /times answers it with an Eve error body; POST /times still works',
    async (status) => {
      const srv = await withRecords({ timesAnswer: status });
      for (const query of [q('1001', '2026-11-20', '2026-11-22'), '', 'from=2026-11-20&to=2026-11-22&employee=1001']) {
        const res = await call(srv, 'GET', `/times${query ? `?${query}` : ''}`);
        expect(res.status).toBe(status);
        expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
        const body = errorBodySchema.parse(res.json);
        expect(body._error.code).toBe(status);
        if (status === 400 && query !== '')
          expect(Object.keys(body._issues ?? {})).toEqual([...new URLSearchParams(query).keys()]);
      }
      expect((await post(srv, punch('1002'))).status).toBe(201);
      expect(statuses(srv).slice(-4)).toEqual([status, status, status, 201]);
    },
  );
});

describe('retryAfterDate', () => {
  it('429 carries Retry-After as an HTTP date from the mock clock, like its Date header; switchable at run time', async () => {
    const real = Date.now();
    let now = Date.UTC(2031, 4, 6, 10, 20, 30, 250); // years away from the test runner's clock
    const srv = await start({ clock: { now: () => now }, rateLimit: { limit: 1, windowMs: 60_000 } });
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    now += 10_000;
    const plain = await call(srv, 'GET', '/sites');
    expect(plain.status).toBe(429);
    expect(plain.headers['retry-after']).toBe('50');
    expect((await call(srv, 'PUT', '/__mock/variants', { control: true, body: { retryAfterDate: true } })).status).toBe(
      200,
    );
    const dated = await call(srv, 'GET', '/sites');
    expect(dated.status).toBe(429);
    expect(dated.headers.date).toBe('Tue, 06 May 2031 10:20:40 GMT');
    expect(dated.headers['retry-after']).toBe('Tue, 06 May 2031 10:21:31 GMT'); // 10:21:30.250 rounded up
    expect(Math.abs(Date.parse(String(dated.headers.date)) - real)).toBeGreaterThan(365 * 86_400_000);
    srv.setFaults({ always429: true });
    expect((await call(srv, 'GET', '/sites')).headers['retry-after']).toBe('Tue, 06 May 2031 10:20:42 GMT'); // arrival + 1 s, rounded up
    srv.setFaults(null);
    srv.setVariants(null);
    expect((await call(srv, 'GET', '/sites')).headers['retry-after']).toBe('50');
    expect(statuses(srv)).toEqual([200, 429, 429, 429, 429]);
  });

  it('off, the start option retryAfterFormat still applies', async () => {
    const now = Date.UTC(2031, 4, 6, 10, 20, 30);
    const srv = await start({
      clock: { now: () => now },
      retryAfterFormat: 'http-date',
      rateLimit: { limit: 1, windowMs: 5_000 },
    });
    await call(srv, 'GET', '/sites');
    expect((await call(srv, 'GET', '/sites')).headers['retry-after']).toBe('Tue, 06 May 2031 10:20:35 GMT');
  });
});

describe('PUT /__mock/variants validates the answer variants', () => {
  it.each([
    [{ forbiddenPunches: [''] }, 'forbiddenPunches.0'],
    [{ forbiddenPunches: '1001' }, 'forbiddenPunches'],
    [{ redirect: { status: 303, location: 'https://x.example/' } }, 'redirect.status'],
    [{ redirect: { status: 302, location: 'https://x.example/a b' } }, 'redirect.location'],
    [{ redirect: { status: 302, location: '' } }, 'redirect.location'],
    [{ redirect: { status: 302 } }, 'redirect.location'],
    [{ nonApi: 'json' }, 'nonApi'],
    [{ conflictOnDuplicate: 'yes' }, 'conflictOnDuplicate'],
    [{ errorBodyOn2xx: 1 }, 'errorBodyOn2xx'],
    [{ timesTimeFormat: 'hours' }, 'timesTimeFormat'],
    [{ timesEndExclusive: null }, 'timesEndExclusive'],
    [{ timesAnswer: 500 }, 'timesAnswer'],
    [{ retryAfterDate: 'true' }, 'retryAfterDate'],
    [{ timesGarbageRecord: 1 }, 'timesGarbageRecord'],
  ])('rejects %j (422 naming %s)', async (body, field) => {
    const srv = await start();
    const res = await call(srv, 'PUT', '/__mock/variants', { control: true, body });
    expect(res.status).toBe(422);
    expect(errorBodySchema.parse(res.json)._issues?.[field]).toBeDefined();
    expect((await call(srv, 'GET', '/__mock/variants', { control: true })).json).toEqual({ variants: null });
  });

  it('accepts them all at once and GET shows them', async () => {
    const all = {
      forbiddenPunches: ['1001'],
      redirect: { status: 308, location: '/v2.1/' },
      nonApi: 'text',
      conflictOnDuplicate: true,
      errorBodyOn2xx: true,
      timesTimeFormat: 'offset',
      timesEndExclusive: true,
      timesAnswer: 400,
      retryAfterDate: true,
    };
    const srv = await start({ seed: demoSeed() });
    expect(await call(srv, 'PUT', '/__mock/variants', { control: true, body: all })).toMatchObject({
      status: 200,
      json: { _status: 'OK', variants: all },
    });
    expect((await call(srv, 'GET', '/__mock/variants', { control: true })).json).toEqual({ variants: all });
  });
});
