import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { bridgeErrorSchema } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { startWebBridge, type WebBridge, type WebBridgeOptions } from '../../src/web/web-bridge.js';
import { agentWithRenderer } from './bridge-setup.js';

export const API_TOKEN = 'api-token-7f3c9e51d2b8a604';
export const ADMIN_PIN = '582913';
export const INDEX = '<!doctype html><title>kiosk</title><script src="/app.js"></script>';

export type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

export type Ctx = {
  mock: MockServer;
  agent: Agent;
  bridge: WebBridge;
  root: string;
  clock: { t: number; now(): number };
};

export type WebBridgeRig = {
  cleanups: Array<() => Promise<void> | void>;
  /** Every response body and log line of the test, checked for secrets at the end of each test. */
  seen: string[];
  logLines: string[];
  /** node:http, so that Host, Origin and the raw path are sent exactly as written. */
  send(
    url: string,
    o: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
  ): Promise<Reply>;
  setup(over?: Partial<WebBridgeOptions>, wrap?: (a: Agent) => WebBridgeOptions['agent']): Promise<Ctx>;
  /**
   * A call as the kiosk's browser makes it: the page token, and the admin cookie this rig's browser
   * was given (kept like a browser keeps it; a `cookie` header given here is sent instead).
   */
  api(b: WebBridge, name: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Another client: the same page token, its own cookie jar (empty at first). */
  client(): (b: WebBridge, name: string, body: unknown, headers?: Record<string, string>) => Promise<Reply>;
  /** The event stream, as text so far; closed after the test. */
  listen(b: WebBridge): { text(): string };
};

/**
 * The web bridge against a real agent (real SQLite, real mock API) on 127.0.0.1, for one test file:
 * call once at the top level. After each test it runs the cleanups, last first; the last of them
 * checks that no response body or log line held the API token, the bridge's token or the admin PIN.
 */
export function webBridgeRig(): WebBridgeRig {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()?.();
  });
  const seen: string[] = [];
  const logLines: string[] = [];

  function send(
    url: string,
    o: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
  ): Promise<Reply> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, method: o.method ?? 'GET', path: o.path, headers: o.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            seen.push(text);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(o.body);
    });
  }

  async function setup(
    over: Partial<WebBridgeOptions> = {},
    wrap?: (a: Agent) => WebBridgeOptions['agent'],
  ): Promise<Ctx> {
    const { mock, agent, root } = await agentWithRenderer(cleanups, API_TOKEN, {
      'index.html': INDEX,
      'app.js': 'console.log(1);',
    });
    fs.writeFileSync(path.join(root, '..', 'package.json'), '{"secret": "outside the renderer"}');
    const clock = { t: Date.now(), now: () => clock.t };
    const log = createLogger({ level: 'debug', write: (l) => logLines.push(l) });
    const bridge = await startWebBridge({
      agent: wrap ? wrap(agent) : agent,
      host: '127.0.0.1',
      port: 0,
      rendererDir: root,
      adminPin: { verify: async (pin) => pin === ADMIN_PIN },
      clock,
      log,
      ...over,
    });
    cleanups.push(() => bridge.close());
    cleanups.push(() => {
      for (const s of [...seen, ...logLines]) {
        expect(s).not.toContain(API_TOKEN);
        expect(s).not.toContain(bridge.token);
        expect(s).not.toContain(ADMIN_PIN);
      }
      seen.length = 0;
      logLines.length = 0;
    });
    return { mock, agent, bridge, root, clock };
  }

  function client(): WebBridgeRig['api'] {
    const jar = new Map<string, string>();
    return async (b, name, body, headers = {}) => {
      const kept = jar.get(b.origin);
      const r = await send(b.origin, {
        method: 'POST',
        path: `/api/${name}`,
        headers: {
          'content-type': 'application/json',
          'x-kiosk-token': b.token,
          origin: b.origin,
          ...(kept ? { cookie: kept } : {}),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      keepCookie(jar, b.origin, r);
      return r;
    };
  }
  const api = client();

  function listen(b: WebBridge): { text(): string } {
    const u = new URL(b.origin);
    let buf = '';
    const req = http.get({ host: u.hostname, port: u.port, path: `/api/events?t=${b.token}` });
    cleanups.push(() => void req.destroy());
    req.on('response', (res) => res.on('data', (c: Buffer) => (buf += c.toString('utf8'))));
    return { text: () => buf };
  }

  return { cleanups, seen, logLines, send, setup, api, client, listen };
}

/** What a browser does with the bridge's Set-Cookie: keep `name=value`, or forget it when cleared. */
export function keepCookie(jar: Map<string, string>, origin: string, r: { headers: http.IncomingHttpHeaders }): void {
  for (const line of r.headers['set-cookie'] ?? []) {
    const pair = line.split(';')[0] ?? '';
    if (/;\s*Max-Age=0/i.test(line) || pair.endsWith('=')) jar.delete(origin);
    else jar.set(origin, pair);
  }
}

export const json = (r: Reply): unknown => JSON.parse(r.text);
export const errorOf = (r: Reply) => bridgeErrorSchema.parse(json(r)).error;
