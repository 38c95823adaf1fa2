/**
 * src/api/undici-parts.ts loads undici's dispatchers and its request from their own files, not from
 * undici's index: those paths must still be what the index exports, and a request through them must
 * still be the request undici's `request(url, { dispatcher })` makes.
 */
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ProxyAgent, request } from '../../src/api/undici-parts.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe("undici's parts, each from its own file", () => {
  it('are the classes and the request function undici exports', () => {
    expect(Agent).toBe(undici.Agent);
    expect(ProxyAgent).toBe(undici.ProxyAgent);
    // The index puts its request methods on every dispatcher's prototype: the file undici-parts.ts puts them from.
    const api = createRequire(import.meta.url)('undici/lib/api/index.js') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['connect', 'pipeline', 'request', 'stream', 'upgrade']);
    for (const [name, method] of Object.entries(api))
      expect(method, name).toBe(undici.Dispatcher.prototype[name as keyof undici.Dispatcher]);
  });

  it("send the method, path with query, headers and body undici's request(url, { dispatcher }) sends", async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers['x-probe']} ${body}`);
        res.setHeader('date', 'Mon, 30 Nov 2026 00:00:00 GMT');
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v2.1/times?page=2&x=%20y`);
    const agent = new Agent();
    cleanups.push(() => agent.close());
    const opts = { method: 'POST' as const, headers: { 'x-probe': 'one' }, body: '{"a":1}' };

    const mine = await request(agent, url, opts);
    const theirs = await undici.request(url, { ...opts, dispatcher: agent });

    expect([mine.statusCode, await mine.body.text(), mine.headers['date']]).toEqual([
      theirs.statusCode,
      await theirs.body.text(),
      theirs.headers['date'],
    ]);
    expect(seen).toEqual(['POST /v2.1/times?page=2&x=%20y one {"a":1}', 'POST /v2.1/times?page=2&x=%20y one {"a":1}']);
  });
});
