/**
 * The mock API's faults (src/mock/mock-server.ts) over real HTTP on loopback: drop after store,
 * server errors, slow responses, always 429, the seeded choice of faults, the control endpoints
 * that set them and the rate limit, a prompt close, and loopback only.
 */
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { mockCall, mockServers } from '../helpers/mock-http.js';
import { expectError } from '../helpers/mock-server-answers.js';

const start = mockServers();
const call = mockCall;

describe('faults', () => {
  const punch = { employee_external_id: '1001', time: '2026-11-21T08:03' };

  it('drop_after_store stores the record but the client sees a socket error', async () => {
    const srv = await start({ faults: { dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } } });
    await expect(call(srv, 'POST', '/times', { body: punch })).rejects.toThrow();
    expect(srv.records()).toHaveLength(1);
    // GET is outside `only`, so it is answered normally.
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    const log = srv.requests();
    expect(log[0]).toMatchObject({
      method: 'POST',
      path: '/v2.1/times',
      status: null,
      counted: true,
      fault: 'drop_after_store',
    });
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
    expect(
      (await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, body: { serverError: 1 } })).status,
    ).toBe(200);
    expectError(await call(srv, 'GET', '/sites'), 500);
    expect((await call(srv, 'PUT', '/__mock/faults', { base, authorization: null, body: null })).status).toBe(200);
    expect((await call(srv, 'GET', '/sites')).status).toBe(200);
    expect(
      (
        await call(srv, 'PUT', '/__mock/rate-limit', {
          base,
          authorization: null,
          body: { limit: 1, windowMs: 60_000 },
        })
      ).status,
    ).toBe(200);
    expectError(await call(srv, 'GET', '/sites'), 429);
    expectError(
      await call(srv, 'PUT', '/__mock/rate-limit', { base, authorization: null, body: { limit: 0, windowMs: 1 } }),
      422,
    );
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
