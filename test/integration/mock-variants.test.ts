/**
 * The mock's paging variants (pageCap, omitLinks/omitMeta, totalDrift) and cutBody (an answer cut
 * mid-body), over real HTTP on loopback: what a client of a server that pages or breaks its answers
 * this way receives. Record variants: mock-record-variants.test.ts; setting variants (control
 * routes, --variant flags): mock-variant-controls.test.ts.
 */
import net from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/mock-server.js';
import { basicAuth, mockServers } from '../helpers/mock-http.js';
import { call, expectError, page, type Envelope } from '../helpers/mock-pages.js';
import { generatedSeed } from '../../src/mock/seed.js';

const start = mockServers();
const AUTH = basicAuth('public', 'demo-token');

/** The raw bytes of one answer on a fresh connection, read until the server closes it. */
function rawGet(srv: MockServer, path: string): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sock = net.connect(srv.port, '127.0.0.1', () =>
      sock.write(`GET /v2.1${path} HTTP/1.1\r\nHost: mock\r\nAuthorization: ${AUTH}\r\n\r\n`),
    );
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('error', () => undefined); // 'close' follows and settles
    sock.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      resolve({ head: all.subarray(0, split).toString('latin1'), body: all.subarray(split + 4) });
    });
  });
}

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
    expect((await page(srv, `/employees?site_id=${site}`))._links?.next?.href).toBe(
      `employees?site_id=${site}&max_results=7&page=2`,
    );
    srv.setVariants({ pageCap: 2 });
    const sites = await page(srv, '/sites?max_results=10');
    expect(sites._items).toHaveLength(2);
    expect(sites._meta).toEqual({ max_results: 2, page: 1, total: 5 });
    srv.setVariants(null);
    expect((await page(srv, '/employees?max_results=50'))._items).toHaveLength(50);
  });

  it('omitLinks / omitMeta: envelopes without _links or _meta, for employees and sites', async () => {
    const srv = await start({ variants: { omitLinks: true } });
    for (const path of ['/employees?max_results=5&page=2', '/sites'])
      expect(Object.keys(await page(srv, path))).toEqual(['_items', '_meta']);
    srv.setVariants({ omitMeta: true });
    for (const path of ['/employees?max_results=5&page=2', '/sites'])
      expect(Object.keys(await page(srv, path))).toEqual(['_items', '_links']);
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
    expect((await page(srv, '/employees?max_results=10&page=2'))._items.map((e) => e.external_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => String(1011 + i)),
    );
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
