/**
 * The mock's wire variants (issue 23): what a gateway or a slow link does to an answer on its way.
 * Read here with raw bytes and no Accept-Encoding, as a client that asks for nothing would.
 */
import zlib from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/api/shapes.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { basicAuth, mockCall, mockServers } from '../helpers/mock-http.js';
import { waitFor } from '../helpers/temp.js';

const start = mockServers();
const AUTH = basicAuth('public', 'demo-token');
const PUNCH = JSON.stringify({ employee_external_id: '1001', time: '2026-11-21T08:03' });

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer };

/** One request; no Accept-Encoding unless given. */
async function raw(
  srv: MockServer,
  method: 'GET' | 'POST',
  path: string,
  o: { body?: string; headers?: Record<string, string>; control?: boolean } = {},
): Promise<Raw> {
  const headers: Record<string, string> = {
    ...(o.control ? {} : { authorization: AUTH }),
    ...(o.body ? { 'content-type': 'application/json' } : {}),
    ...o.headers,
  };
  const res = await request(`${o.control ? srv.origin : srv.url}${path}`, { method, headers, body: o.body });
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

const DECODE = { gzip: zlib.gunzipSync, deflate: zlib.inflateSync, br: zlib.brotliDecompressSync } as const;

describe('compress', () => {
  it.each(['gzip', 'deflate', 'br'] as const)(
    '%s: every API answer is encoded whatever was asked; control routes are not; off, nothing is',
    async (how) => {
      const srv = await start({ variants: { compress: how } });
      const answers = [
        await raw(srv, 'GET', '/employees?max_results=2'),
        await raw(srv, 'POST', '/times', { body: PUNCH, headers: { 'accept-encoding': 'identity' } }),
        await raw(srv, 'GET', '/employees', { headers: { authorization: basicAuth('public', 'wrong') } }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 201, 401]);
      for (const a of answers) {
        expect(a.headers['content-encoding']).toBe(how);
        expect(Number(a.headers['content-length'])).toBe(a.bytes.length);
        expect((): unknown => JSON.parse(a.bytes.toString('utf8'))).toThrow();
        expect(JSON.parse(DECODE[how](a.bytes).toString('utf8'))).toBeTypeOf('object');
      }
      expect(errorBodySchema.parse(JSON.parse(DECODE[how](answers[2]!.bytes).toString('utf8')))._error.code).toBe(401);
      const control = await raw(srv, 'GET', '/__mock/records', { control: true });
      expect(control.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(control.bytes.toString('utf8'))).toHaveLength(1);
      srv.setVariants(null);
      const plain = await raw(srv, 'GET', '/sites');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(plain.bytes.toString('utf8'))).toHaveProperty('_items');
    },
  );

  it('pages that are not the API are compressed too (a gateway in front of everything)', async () => {
    const srv = await start({ variants: { compress: 'gzip', nonApi: 'html-404' } });
    const page = await raw(srv, 'GET', '/times');
    expect(page).toMatchObject({
      status: 404,
      headers: { 'content-encoding': 'gzip', 'content-type': 'text/html; charset=utf-8' },
    });
    expect(zlib.gunzipSync(page.bytes).toString('utf8')).toContain('404 Not Found');
  });
});

describe('postTimesBody: the record is stored, the 201 carries something else', () => {
  it.each([
    ['text', /^text\/plain/, (t: string) => expect(t).toMatch(/^Created [0-9a-f]{24}\n$/)],
    ['html', /^text\/html/, (t: string) => expect(t).toMatch(/<h1>Created<\/h1>/)],
    ['xml', /^application\/xml/, (t: string) => expect(t).toMatch(/^<\?xml .*<_status>OK<\/_status><\/resource>\n$/s)],
    ['truncated-json', /^application\/json/, (t: string) => expect((): unknown => JSON.parse(t)).toThrow()],
  ] as const)('%s', async (kind, type, check) => {
    const srv = await start({ variants: { postTimesBody: kind } });
    const res = await raw(srv, 'POST', '/times', { body: PUNCH });
    expect(res.status).toBe(201);
    expect(String(res.headers['content-type'])).toMatch(type);
    check(res.bytes.toString('utf8'));
    expect(srv.records()).toHaveLength(1);
    // Reads and refusals are untouched.
    expect(
      (await mockCall(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-21&end_date=2026-11-21')).json,
    ).toMatchObject({ times: [{ time: '2026-11-21T08:03' }] });
    expect(
      (await mockCall(srv, 'POST', '/times', { body: { employee_external_id: '9999', time: '2026-11-21T08:03' } }))
        .status,
    ).toBe(404);
  });

  it('bad-gzip: a body that claims gzip and is not', async () => {
    const srv = await start({ variants: { postTimesBody: 'bad-gzip', compress: 'br' } });
    const res = await raw(srv, 'POST', '/times', { body: PUNCH });
    expect(res).toMatchObject({ status: 201, headers: { 'content-encoding': 'gzip' } });
    expect(() => zlib.gunzipSync(res.bytes)).toThrow();
    expect(srv.records()).toHaveLength(1);
  });

  it('cut: half the promised body, then the connection is closed', async () => {
    const srv = await start({ variants: { postTimesBody: 'cut' } });
    const res = await request(`${srv.url}/times`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: PUNCH,
    });
    expect(res.statusCode).toBe(201);
    await expect(res.body.text()).rejects.toThrow();
    expect(srv.records()).toHaveLength(1);
    expect(srv.requests()[0]).toMatchObject({ status: 201, fault: 'cut_body' });
  });
});

describe('trickle', () => {
  it('headers at once, the body at the given rate, only where selected; the log tells how far it got', async () => {
    const srv = await start({
      variants: { trickle: { bytesPerSecond: 40, only: { method: 'POST', pathPrefix: '/times' } } },
    });
    const fast = await raw(srv, 'GET', '/times?employee_external_id=1001&start_date=2026-11-21&end_date=2026-11-21');
    expect(fast.status).toBe(200);
    expect(srv.requests()[0]?.trickled).toBeUndefined();

    const t0 = Date.now();
    const res = await request(`${srv.url}/times`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: PUNCH,
    });
    const headersAfter = Date.now() - t0;
    const text = await res.body.text();
    const bodyAfter = Date.now() - t0;
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ _status: 'OK' });
    // ~70 bytes at 40 a second: well over a second for the body, the headers at once.
    expect(headersAfter).toBeLessThan(bodyAfter - 1_000);
    expect(srv.requests()[1]?.trickled).toEqual({ sent: Buffer.byteLength(text), of: Buffer.byteLength(text) });
  });

  it('stops when the client hangs up', async () => {
    const srv = await start({ variants: { trickle: { bytesPerSecond: 5 } } });
    const res = await request(`${srv.url}/sites`, { headers: { authorization: AUTH } });
    await waitFor(() => (srv.requests()[0]?.trickled?.sent ?? 0) >= 2, 'a few bytes trickled');
    res.body.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const at = srv.requests()[0]?.trickled?.sent;
    await new Promise((r) => setTimeout(r, 600));
    expect(srv.requests()[0]?.trickled?.sent).toBe(at);
    expect(at).toBeLessThan(srv.requests()[0]?.trickled?.of ?? 0);
  });
});

describe('PUT /__mock/variants validates the wire variants', () => {
  it.each([
    [{ compress: 'zstd' }, 'compress'],
    [{ postTimesBody: 'json' }, 'postTimesBody'],
    [{ trickle: { bytesPerSecond: 0 } }, 'trickle.bytesPerSecond'],
    [{ trickle: { bytesPerSecond: 5, only: { pathPrefix: 'times' } } }, 'trickle.only.pathPrefix'],
  ])('rejects %j (422 naming %s)', async (body, field) => {
    const srv = await start();
    const res = await mockCall(srv, 'PUT', '/__mock/variants', { control: true, body });
    expect(res.status).toBe(422);
    expect(errorBodySchema.parse(res.json)._issues?.[field]).toBeDefined();
  });
});
