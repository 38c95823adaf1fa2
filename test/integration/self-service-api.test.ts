/**
 * The employee's own screen over real HTTP on loopback: the typed client (src/api/client.ts)
 * against the mock's GET /timesheets and GET /work-leaves, in the default dialect and in the
 * variants a real service may differ by (query names, absent members, malformed days, pages).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { horariosOn } from '../../src/api/timesheet-records.js';
import { apiDialectSchema, type ApiDialectInput, type EmployeeRef } from '../../src/api/shapes.js';
import { wholeDayLeaveOn } from '../../src/domain/time/leave-today.js';
import type { MockOptions, MockServer } from '../../src/mock/mock-server.js';
import { objectIdFor } from '../../src/mock/seed.js';
import { mockCall, mockServers } from '../helpers/mock-http.js';

const startMock = mockServers();
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function clientFor(srv: MockServer, dialect: ApiDialectInput = {}): ApiClient {
  const c = new ApiClient({
    baseUrl: srv.url,
    token: 'demo-token',
    timeoutMs: 5_000,
    dialect: apiDialectSchema.parse(dialect),
  });
  clients.push(c);
  return c;
}

const ext = (value: string): EmployeeRef => ({ kind: 'external_id', value });
const byId = (value: string): EmployeeRef => ({ kind: 'employee_id', value });
const DAY = '2026-11-24';

/** 1001 punched four times on DAY (stored out of order), once the day before and once the day after; 1002 once. */
async function withPunches(opts: MockOptions = {}): Promise<MockServer> {
  const srv = await startMock(opts);
  for (const time of ['17:31', '08:02', '13:00', '12:00']) srv.addRecord({ employee: '1001', time: `${DAY}T${time}` });
  srv.addRecord({ employee: '1001', time: '2026-11-23T09:00' });
  srv.addRecord({ employee: '1001', time: '2026-11-25T07:00' });
  srv.addRecord({ employee: '1002', time: `${DAY}T10:00` });
  return srv;
}

const timesheetQueries = (srv: MockServer) =>
  srv
    .requests()
    .filter((r) => r.path === '/v2.1/timesheets')
    .map((r) => r.query);

describe('GET /timesheets', () => {
  it('default dialect: the balance in minutes and the punches of the day, by external id or _id', async () => {
    const srv = await withPunches();
    const api = clientFor(srv);
    const r = await api.getTimesheet(ext('1001'), '2026-11-23', DAY);
    if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
    expect(r.value.hoursBank?.finalBalanceMinutes).toBe(750); // seeded "12.50"
    expect(horariosOn(r.value, DAY)).toEqual(['08:02', '12:00', '13:00', '17:31']);
    expect(horariosOn(r.value, '2026-11-23')).toEqual(['09:00']);
    expect(r.value.days.map((d) => d.date)).toEqual(['2026-11-23', DAY]); // the 25th is outside the period
    expect(r.value.skipped).toEqual([]);

    const other = await api.getTimesheet(byId(objectIdFor('employee', 2)), DAY, DAY);
    expect(other.kind === 'ok' && [other.value.hoursBank?.finalBalanceMinutes, horariosOn(other.value, DAY)]).toEqual([
      -195,
      ['10:00'],
    ]);
    expect(timesheetQueries(srv)).toEqual([
      { employee_external_id: '1001', start_date: '2026-11-23', end_date: DAY },
      { employee_id: objectIdFor('employee', 2), start_date: DAY, end_date: DAY },
    ]);
  });

  it('a balance set through the control route is what the employee sees; unset, it is zero', async () => {
    const srv = await withPunches();
    const api = clientFor(srv);
    const unset = await api.getTimesheet(ext('1005'), DAY, DAY);
    expect(unset.kind === 'ok' && unset.value.hoursBank?.finalBalanceMinutes).toBe(0);
    expect(
      (await mockCall(srv, 'PUT', '/__mock/employees/1005/hours-bank', { control: true, body: '-1.50' })).status,
    ).toBe(200);
    const set = await api.getTimesheet(ext('1005'), DAY, DAY);
    expect(set.kind === 'ok' && set.value.hoursBank?.finalBalanceMinutes).toBe(-90);
    expect(
      (await mockCall(srv, 'PUT', '/__mock/employees/1005/hours-bank', { control: true, body: '1:30' })).status,
    ).toBe(422);
  });

  it.each([
    [
      'employee-from-to',
      { employeeExternalId: 'employee', employeeId: 'employee', startDate: 'from', endDate: 'to' },
      /from: required/,
    ],
    ['data-inicio-fim', { startDate: 'data_inicio', endDate: 'data_fim' }, /data_inicio: required/],
  ] as const)(
    'variant %s: the default names get a clear refusal, the matching dialect works',
    async (variant, names, issue) => {
      const srv = await withPunches({ variants: { timesheetQuery: variant } });
      const wrong = await clientFor(srv).getTimesheet(ext('1001'), DAY, DAY);
      expect(wrong.kind).toBe('refused');
      expect(wrong.kind === 'refused' && wrong.status).toBe(400);
      expect(wrong.kind === 'refused' && wrong.reason).toMatch(issue);
      expect(wrong.kind === 'refused' && wrong.reason).toMatch(/start_date: unknown parameter/);

      const right = clientFor(srv, { timesheetQuery: names });
      for (const ref of [ext('1001'), byId(objectIdFor('employee', 1))]) {
        const r = await right.getTimesheet(ref, DAY, DAY);
        expect(r.kind === 'ok' && horariosOn(r.value, DAY)).toEqual(['08:02', '12:00', '13:00', '17:31']);
      }
    },
  );

  it('the mock can be started in another dialect: the client with the same setting works', async () => {
    const timesheetQuery = { employeeExternalId: 'matricula', startDate: 'inicio', endDate: 'fim' };
    const srv = await withPunches({ dialect: { timesheetQuery } });
    await expect(clientFor(srv).getTimesheet(ext('1001'), DAY, DAY)).resolves.toMatchObject({
      kind: 'refused',
      status: 400,
    });
    const r = await clientFor(srv, { timesheetQuery }).getTimesheet(ext('1001'), DAY, DAY);
    expect(r.kind === 'ok' && horariosOn(r.value, DAY)).toHaveLength(4);
  });

  it('hours_bank_summary absent: no balance (not zero), the punches still shown', async () => {
    const srv = await withPunches({ variants: { timesheetWithoutHoursBank: true } });
    const r = await clientFor(srv).getTimesheet(ext('1001'), DAY, DAY);
    if (r.kind !== 'ok') throw new Error(r.kind);
    expect(r.value.hoursBank).toBeNull();
    expect(horariosOn(r.value, DAY)).toEqual(['08:02', '12:00', '13:00', '17:31']);
  });

  it('malformed days are skipped one by one, the rest kept', async () => {
    const srv = await withPunches({ variants: { timesheetMalformedDays: true } });
    srv.addRecord({ employee: '1001', time: '2026-11-21T08:00' });
    srv.addRecord({ employee: '1001', time: '2026-11-22T08:00' });
    // Days 21..24: as is, null, horarios a string, horarios with '25:99' (variants.ts).
    const r = await clientFor(srv).getTimesheet(ext('1001'), '2026-11-21', DAY);
    if (r.kind !== 'ok') throw new Error(r.kind);
    expect(r.value.days.map((d) => d.date)).toEqual(['2026-11-21', DAY]);
    expect(horariosOn(r.value, '2026-11-21')).toEqual(['08:00']);
    expect(horariosOn(r.value, DAY)).toEqual(['08:02', '12:00', '13:00', '17:31']);
    expect(r.value.skipped).toEqual([
      { at: 'days.2026-11-22', reason: 'day_not_an_object' },
      { at: 'days.2026-11-23.horarios', reason: 'bad_horarios' },
      { at: `days.${DAY}.horarios[4]`, reason: 'bad_time' },
      { at: 'days.not-a-date', reason: 'bad_day_key' },
    ]);
    expect(r.value.hoursBank?.finalBalanceMinutes).toBe(750);
  });

  it('an answer that is not a JSON object is an error outcome, not an empty timesheet', async () => {
    const server = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = new ApiClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2.1`,
        token: 't',
        timeoutMs: 5_000,
        dialect: apiDialectSchema.parse({}),
      });
      clients.push(api);
      const r = await api.getTimesheet(ext('1001'), DAY, DAY);
      expect(r.kind).toBe('server_error');
      expect(r.kind === 'server_error' && r.error).toMatch(
        /GET \/timesheets: the timesheet answer is not a JSON object/,
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('these reads count against the 60-per-minute window like any request', async () => {
    const srv = await withPunches({ rateLimit: { limit: 3, windowMs: 60_000 } });
    const api = clientFor(srv);
    expect((await api.getTimesheet(ext('1001'), DAY, DAY)).kind).toBe('ok');
    expect((await api.getWorkLeaves(ext('1033'), DAY, DAY)).kind).toBe('ok');
    expect((await api.getTimesheet(ext('1001'), DAY, DAY)).kind).toBe('ok');
    expect((await api.getWorkLeaves(ext('1033'), DAY, DAY)).kind).toBe('rate_limited');
  });
});

describe('GET /work-leaves', () => {
  it('the demo: 1033 on approved vacation is noted; a partial leave and an unapproved one are not', async () => {
    const srv = await startMock();
    const api = clientFor(srv);
    const noted = async (who: string, status?: string) => {
      const r = await api.getWorkLeaves(ext(who), DAY, DAY, status === undefined ? {} : { status });
      if (r.kind !== 'ok') throw new Error(r.kind);
      return { found: r.value.leaves.length, today: wholeDayLeaveOn(r.value.leaves, DAY) };
    };
    expect(await noted('1033', 'aprovado')).toEqual({ found: 1, today: { kind: 'vacation', type: 'ferias' } });
    expect(await noted('1002')).toEqual({ found: 1, today: null }); // partial
    expect(await noted('1003')).toEqual({ found: 1, today: null }); // approved: false
    expect(await noted('1003', 'aprovado')).toEqual({ found: 0, today: null });
    expect(await noted('1001')).toEqual({ found: 0, today: null });
    expect(srv.requests().find((r) => r.path === '/v2.1/work-leaves')?.query).toEqual({
      employee_external_id: '1033',
      start_date: DAY,
      end_date: DAY,
      status: 'aprovado',
      max_results: '100',
      page: '1',
    });
  });

  it('approval_info absent: read as not yet defined, so no note, and the leave is still listed', async () => {
    const srv = await startMock({ variants: { leavesWithoutApproval: true } });
    const r = await clientFor(srv).getWorkLeaves(ext('1033'), DAY, DAY);
    if (r.kind !== 'ok') throw new Error(r.kind);
    expect(r.value.leaves.map((l) => [l.type, l.approved])).toEqual([['ferias', null]]);
    expect(r.value.skipped).toEqual([]);
    expect(wholeDayLeaveOn(r.value.leaves, DAY)).toBeNull();
  });

  it('leaves added and removed through the control routes; only those touching the days are listed', async () => {
    const srv = await startMock();
    const add = (body: unknown) => mockCall(srv, 'POST', '/__mock/work-leaves', { control: true, body });
    const sick = await add({
      employee: '1001',
      type: 'atestado',
      start_date: '2026-11-23',
      end_date: DAY,
      approved: true,
    });
    expect(sick.status).toBe(201);
    await add({ employee: '1001', type: 'folga', start_date: '2026-11-26', end_date: '2026-11-26', approved: true });
    expect((await add({ employee: '1001', type: 'x', start_date: DAY, end_date: '2026-11-01' })).status).toBe(422);
    expect((await add({ employee: '9999', type: 'x', start_date: DAY, end_date: DAY })).status).toBe(404);
    const api = clientFor(srv);
    const before = await api.getWorkLeaves(ext('1001'), DAY, DAY);
    expect(before.kind === 'ok' && wholeDayLeaveOn(before.value.leaves, DAY)).toEqual({
      kind: 'other',
      type: 'atestado',
    });
    const id = (sick.json as { _id: string })._id;
    expect((await mockCall(srv, 'DELETE', `/__mock/work-leaves/${id}`, { control: true })).status).toBe(200);
    const after = await api.getWorkLeaves(ext('1001'), DAY, DAY);
    expect(after.kind === 'ok' && after.value.leaves).toEqual([]);
  });

  it.each([
    ['with _meta', {}],
    ['without _meta or _links', { omitMeta: true, omitLinks: true }],
  ])('follows the pages %s, at most three', async (_what, variants) => {
    const srv = await startMock({ variants: { pageCap: 2, ...variants } });
    for (let i = 1; i <= 5; i++)
      srv.addLeave({ employee: '1001', type: `t${i}`, start_date: DAY, end_date: DAY, approved: true });
    const api = clientFor(srv);
    const all = await api.getWorkLeaves(ext('1001'), DAY, DAY);
    if (all.kind !== 'ok') throw new Error(all.kind);
    expect(all.value.leaves.map((l) => l.type)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect([all.value.pages, all.value.complete]).toEqual([3, true]);
    expect(
      srv
        .requests()
        .filter((r) => r.path === '/v2.1/work-leaves')
        .map((r) => r.query.page),
    ).toEqual(['1', '2', '3']);

    for (let i = 6; i <= 7; i++)
      srv.addLeave({ employee: '1001', type: `t${i}`, start_date: DAY, end_date: DAY, approved: true });
    const capped = await api.getWorkLeaves(ext('1001'), DAY, DAY);
    if (capped.kind !== 'ok') throw new Error(capped.kind);
    expect(capped.value.leaves).toHaveLength(6);
    expect([capped.value.pages, capped.value.complete]).toEqual([3, false]);
  });

  it('a page that fails fails the reading (no "no leave" from half a list)', async () => {
    const srv = await startMock({ variants: { pageCap: 1 } });
    for (let i = 1; i <= 3; i++)
      srv.addLeave({ employee: '1001', type: `t${i}`, start_date: DAY, end_date: DAY, approved: true });
    srv.setFaults({ only: { method: 'GET', pathPrefix: '/work-leaves' }, afterMatches: 1, serverError: 1 });
    const r = await clientFor(srv).getWorkLeaves(ext('1001'), DAY, DAY);
    expect(r.kind).toBe('server_error');
  });
});
