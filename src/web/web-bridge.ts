/**
 * The bridge contract over loopback HTTP, for browser kiosks (`chromium --kiosk <url>`), headless
 * boxes and end-to-end tests. Thin: it checks who is asking, validates against src/contract.ts,
 * calls the agent facade through ./handlers.ts, and serves the renderer's files.
 *
 * Who may ask: only a page loaded from this very origin that knows the session token handed out
 * at start. Host must be ours (a DNS-rebinding page sends its own name), Origin, when sent, must be
 * ours (another site's page), and every API request carries the token (`x-kiosk-token`, or `?t=`
 * for the event stream, which EventSource cannot give headers). No token, PIN or request body is
 * ever logged.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { AFD_DOWNLOAD_PATH, calls, events, isCallName, KIOSK_CSP, type CallName, type ErrorCode, type EventName, type ScreenSettings } from '../contract.js';
import type { Clock } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log.js';
import { AdminSession, agentHandlers, type AdminPin, type BridgeAgent } from '../agent/bridge-handlers.js';
import { readStatic } from './static-files.js';
import { serveAfdDownload } from './afd-download.js';

export type WebBridgeOptions = {
  agent: BridgeAgent;
  /** Loopback only: an IPv4 address in 127.0.0.0/8 or ::1. Anything else is refused. */
  host: string;
  /** 0: any free port. */
  port: number;
  rendererDir: string;
  /** null: admin login is refused (no admin calls on this terminal). */
  adminPin: AdminPin | null;
  /** What the screen is told by `screenSettings` (language, wedge timing, PIN rules). */
  screen?: ScreenSettings;
  adminIdleMs?: number;
  clock?: Clock;
  log?: Logger;
  /** Default 15 s. */
  heartbeatMs?: number;
};

export type WebBridge = {
  /** The page to open, token included: hand it to the kiosk browser only. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
};

const MAX_BODY = 64 * 1024;
const SECURITY_HEADERS = {
  'content-security-policy': KIOSK_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const STATUS_OF: Record<ErrorCode, number> = { bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, internal: 500 };

type Issue = { path: (string | number)[]; message: string };

export function isLoopbackHost(host: string): boolean {
  if (net.isIPv4(host)) return host.split('.')[0] === '127';
  return net.isIPv6(host) && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

export async function startWebBridge(opts: WebBridgeOptions): Promise<WebBridge> {
  if (!isLoopbackHost(opts.host)) throw new Error(`the web bridge listens on loopback only (127.0.0.1 or ::1), not on ${JSON.stringify(opts.host)}`);
  const rootReal = await fs.realpath(opts.rendererDir);
  if (!(await fs.stat(rootReal)).isDirectory()) throw new Error(`renderer directory ${opts.rendererDir} is not a directory`);
  const log = opts.log ?? silentLogger;
  const clock = opts.clock ?? { now: () => Date.now() };
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const token = randomBytes(32).toString('hex');
  const tokenDigest = sha256(token);
  const session = new AdminSession(opts.adminPin, opts.adminIdleMs ?? 120_000, clock);
  const handlers = agentHandlers(opts.agent, session, opts.screen);
  const streams = new Set<http.ServerResponse>();

  let hostPort = '';
  let origin = '';

  const tokenOk = (given: string | string[] | null | undefined): boolean =>
    typeof given === 'string' && given.length > 0 && timingSafeEqual(sha256(given), tokenDigest);

  function sendJson(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    const data = JSON.stringify(body);
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(data), ...extra });
    res.end(data);
  }

  function sendError(res: http.ServerResponse, code: ErrorCode, message: string, o: { status?: number; issues?: Issue[]; headers?: Record<string, string> } = {}): void {
    sendJson(res, o.status ?? STATUS_OF[code], { ok: false, error: { code, message, ...(o.issues ? { issues: o.issues } : {}) } }, o.headers);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if ((req.headers.host ?? '').toLowerCase() !== hostPort) return sendError(res, 'forbidden', 'wrong Host');
    if (req.headers.origin !== undefined && req.headers.origin !== origin) return sendError(res, 'forbidden', 'foreign Origin');
    const raw = req.url ?? '';
    if (!raw.startsWith('/')) return sendError(res, 'bad_request', 'bad request target');
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    if (pathname === '/api' || pathname.startsWith('/api/')) return api(req, res, pathname, query);
    return serveStatic(req, res, pathname);
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
    if (pathname === '/api/events') {
      if (!tokenOk(req.headers['x-kiosk-token'] ?? query.get('t'))) return sendError(res, 'unauthorized', 'missing or wrong token');
      if (req.method !== 'GET') return sendError(res, 'bad_request', 'use GET', { status: 405, headers: { allow: 'GET' } });
      return eventStream(req, res);
    }
    if (!tokenOk(req.headers['x-kiosk-token'])) return sendError(res, 'unauthorized', 'missing or wrong token');
    if (pathname.startsWith(AFD_DOWNLOAD_PATH)) {
      const afd = opts.agent.afd;
      const id = pathname.slice(AFD_DOWNLOAD_PATH.length);
      return serveAfdDownload(req, res, id, { take: (i) => afd.takeDownload(i), adminOk: () => session.touch(), headers: SECURITY_HEADERS, sendError });
    }
    const name = pathname.slice('/api/'.length);
    if (!isCallName(name)) return sendError(res, 'not_found', 'no such call');
    if (req.method !== 'POST') return sendError(res, 'bad_request', 'use POST', { status: 405, headers: { allow: 'POST' } });
    const spec = calls[name];
    if (spec.admin && !session.touch()) return sendError(res, 'forbidden', 'admin session required');
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return sendError(res, 'bad_request', 'body must be application/json', { status: 415 });
    }
    const body = await readBody(req);
    if (body === 'too_large') return sendError(res, 'bad_request', `body larger than ${MAX_BODY} bytes`, { status: 413, headers: { connection: 'close' } });
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return sendError(res, 'bad_request', 'body is not JSON');
    }
    const input = spec.input.safeParse(json);
    if (!input.success) return sendError(res, 'bad_request', `input does not fit the ${name} call`, { issues: issuesOf(input.error) });
    let output: unknown;
    try {
      output = await invoke(name, input.data);
    } catch (e) {
      log.error('web bridge call failed', { call: name, error: (e as Error).message });
      return sendError(res, 'internal', 'the call failed');
    }
    const checked = spec.output.safeParse(output);
    if (!checked.success) {
      log.error('web bridge call answered outside the contract', { call: name, issues: issuesOf(checked.error).map((i) => `${i.path.join('.')}: ${i.message}`) });
      return sendError(res, 'internal', 'the call failed');
    }
    sendJson(res, 200, { ok: true, value: checked.data });
  }

  /** Handler and schema are looked up by the same name, so the input already has that call's type. */
  function invoke(name: CallName, input: unknown): Promise<unknown> | unknown {
    const fn = handlers[name] as (i: unknown) => Promise<unknown> | unknown;
    return fn(input);
  }

  function eventStream(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': connected\n\n');
    streams.add(res);
    const send = <E extends EventName>(event: E, payload: unknown): void => {
      const checked = (events[event] as z.ZodType).safeParse(payload);
      if (!checked.success) {
        log.error('agent event outside the contract, not sent', { event });
        return;
      }
      res.write(`event: ${event}\ndata: ${JSON.stringify(checked.data)}\n\n`);
    };
    const offs = [opts.agent.on('punch', (p) => send('punch', p)), opts.agent.on('status', (s) => send('status', s))];
    const beat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
    beat.unref();
    const stop = (): void => {
      clearInterval(beat);
      for (const off of offs) off();
      streams.delete(res);
    };
    req.on('close', stop);
    res.on('close', stop);
    // The screen draws its status bar at once instead of waiting for the next change.
    try {
      send('status', opts.agent.status());
    } catch (e) {
      log.warn('status for a new event stream failed', { error: (e as Error).message });
    }
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 'bad_request', 'use GET', { status: 405, headers: { allow: 'GET, HEAD' } });
    const file = await readStatic(rootReal, pathname);
    if (!file) return sendError(res, 'not_found', 'not found');
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': file.type, 'content-length': file.body.length });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log.error('web bridge request failed', { error: (e as Error).message });
      sendError(res, 'internal', 'request failed');
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostName = net.isIPv6(opts.host) ? `[${opts.host}]` : opts.host;
  hostPort = `${hostName}:${port}`.toLowerCase();
  origin = `http://${hostPort}`;
  log.info('web bridge listening', { origin });

  return {
    url: `${origin}/?t=${token}`,
    origin,
    token,
    close: async () => {
      for (const res of streams) res.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
}

/** The body, or 'too_large' past MAX_BODY (the rest is drained, not kept). */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too_large'> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > MAX_BODY) {
        req.off('data', onData);
        req.resume();
        resolve('too_large');
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
