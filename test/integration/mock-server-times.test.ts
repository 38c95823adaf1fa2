/**
 * The mock API's POST /times and GET /times (src/mock/mock-server.ts) over real HTTP on loopback:
 * body validation and its error answers, stored records, the 'split' dialect, malformed JSON, and
 * an unexpected error turned into a 500.
 */
import { describe, expect, it } from 'vitest';
import { timesResponseSchema, createdSchema, defaultApiDialect } from '../../src/api/shapes.js';
import { mockCall, mockServers } from '../helpers/mock-http.js';
import { expectError, fakeClock } from '../helpers/mock-server-answers.js';
import { objectIdFor } from '../../src/mock/seed.js';

const start = mockServers();
const call = mockCall;

describe('POST /times', () => {
  it('validates the body and answers 422/404/400 with parseable error bodies', async () => {
    const srv = await start();
    const emp1 = objectIdFor('employee', 1);
    const both = expectError(
      await call(srv, 'POST', '/times', {
        body: { employee_id: emp1, employee_external_id: '1001', time: '2026-11-21T08:03' },
      }),
      422,
    );
    expect(Object.keys(both._issues ?? {})).toContain('employee_external_id');
    const neither = expectError(await call(srv, 'POST', '/times', { body: { time: '2026-11-21T08:03' } }), 422);
    expect(neither._issues?.employee_id).toBeDefined();
    const badTime = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21 08:03' } }),
      422,
    );
    expect(badTime._issues?.time).toBeDefined();
    const missingTime = expectError(await call(srv, 'POST', '/times', { body: { employee_external_id: '1001' } }), 422);
    expect(missingTime._issues?.time).toBe('required field');
    const feb30 = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-02-30T08:00' } }),
      422,
    );
    expect(feb30._issues?.time).toMatch(/calendar/);
    const unknownField = expectError(
      await call(srv, 'POST', '/times', {
        body: { employee_external_id: '1001', time: '2026-11-21T08:03', kiosk: 'k1' },
      }),
      422,
    );
    expect(unknownField._issues?.kiosk).toBe('unknown field');
    const badId = expectError(
      await call(srv, 'POST', '/times', { body: { employee_id: 'xyz', time: '2026-11-21T08:03' } }),
      422,
    );
    expect(badId._issues?.employee_id).toBeDefined();
    const unknown = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '9999', time: '2026-11-21T08:03' } }),
      404,
    );
    expect(unknown._error.message).toContain('9999');
    srv.setActive('1002', false);
    const inactive = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '1002', time: '2026-11-21T08:03' } }),
      404,
    );
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
    expect((await call(srv, 'POST', '/times', { body: { employee_id: e36, time: '2026-11-21T09:00' } })).status).toBe(
      201,
    );

    const recs = srv.records();
    expect(recs).toHaveLength(4);
    expect(recs[0]).toMatchObject({
      _id: created._id,
      employee_id: objectIdFor('employee', 1),
      employee_external_id: '1001',
      time: '2026-11-21T08:03',
      type: 'registro externo',
      approved: false,
      token: 'demo-token',
    });
    expect(recs[3]?.employee_external_id).toBeUndefined();

    const times = await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20&end_date=2026-11-21');
    expect(times.status).toBe(200);
    const parsed = timesResponseSchema.parse(times.json);
    expect(parsed.employee_id).toBe(objectIdFor('employee', 1));
    expect(parsed.times.map((t) => t.time)).toEqual(['2026-11-20T17:59', '2026-11-21T08:03', '2026-11-21T08:03']);
    expect(parsed.times.every((t) => t.type === 'registro externo' && t.approved === false)).toBe(true);
    const oneDay = timesResponseSchema.parse(
      (await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-21&end_date=2026-11-21')).json,
    );
    expect(oneDay.times).toHaveLength(2);
    const byId = timesResponseSchema.parse(
      (await call(srv, 'GET', `/times?employee_id=${e36}&start_date=2026-11-21&end_date=2026-11-21`)).json,
    );
    expect(byId.times).toHaveLength(1);

    expectError(await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20'), 400);
    expectError(
      await call(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-20&end_date=21/11/2026'),
      400,
    );
    expectError(await call(srv, 'GET', '/times?start_date=2026-11-20&end_date=2026-11-21'), 400);
    expectError(
      await call(srv, 'GET', '/times?employee_external_id=4242&start_date=2026-11-20&end_date=2026-11-21'),
      404,
    );

    // The control endpoint shows the same records to a standalone user.
    const ctl = await call(srv, 'GET', '/__mock/records', { base: srv.origin, authorization: null });
    expect(Array.isArray(ctl.json) && ctl.json.length).toBe(4);
  });

  it("accepts the 'split' dialect (date + time) and custom GET /times parameter names", async () => {
    const dialect = {
      ...defaultApiDialect,
      punchBody: 'split' as const,
      timesQuery: { startDate: 'from', endDate: 'to' },
    };
    const srv = await start({ dialect });
    expect(
      (await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', date: '2026-11-21', time: '08:03' } }))
        .status,
    ).toBe(201);
    const combined = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', time: '2026-11-21T08:03' } }),
      422,
    );
    expect(combined._issues?.date).toBe('required field');
    const feb30 = expectError(
      await call(srv, 'POST', '/times', { body: { employee_external_id: '1003', date: '2026-02-30', time: '08:03' } }),
      422,
    );
    expect(feb30._issues?.date).toMatch(/calendar/);
    expect(srv.records().map((r) => r.time)).toEqual(['2026-11-21T08:03']);
    const times = timesResponseSchema.parse(
      (await call(srv, 'GET', '/times?employee_external_id=1003&from=2026-11-21&to=2026-11-21')).json,
    );
    expect(times.times).toHaveLength(1);
  });

  it('answers 400 to malformed JSON and keeps serving', async () => {
    const srv = await start();
    expectError(await call(srv, 'POST', '/times', { rawBody: '{"employee_external_id": "1001", "time": ' }), 400);
    expect(
      (await call(srv, 'POST', '/times', { body: { employee_external_id: '1001', time: '2026-11-21T08:03' } })).status,
    ).toBe(201);
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
