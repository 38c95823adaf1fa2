/**
 * The bridge contract over loopback HTTP, for browser kiosks (`chromium --kiosk <url>`), headless
 * boxes and end-to-end tests. Thin: it checks who is asking and frames calls (POST, JSON body) and
 * events (a server-sent event stream); validation, the admin gate, the call and the check of what
 * goes back are the one dispatcher's (src/bridge/dispatcher.ts). It also serves the renderer's files.
 *
 * Who may ask: only a page loaded from this very origin that knows the session token handed out
 * at start. Host must be ours (a DNS-rebinding page sends its own name), Origin, when sent, must be
 * ours (another site's page), and every API request carries the token (`x-kiosk-token`, or `?t=`
 * for the event stream, which EventSource cannot give headers). Admin calls also need the admin
 * session of the browser asking: the PIN login sets a cookie only that browser holds
 * (admin-cookie.ts). No token, cookie, PIN or request body is ever logged.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  AFD_DOWNLOAD_PATH,
  isCallName,
  KIOSK_CSP,
  SCREEN_CODE_PATH,
  screenCodeRequestSchema,
  type ErrorCode,
} from '../contract.js';
import { silentLogger } from '../log.js';
import { createDispatcher, type Caller, type DispatcherOptions, type Issue } from '../bridge/dispatcher.js';
import { readStatic } from './static-files.js';
import { serveAfdDownload } from './afd-download.js';
import { AdminSessions, clearAdminCookie, setAdminCookie } from './admin-cookie.js';
import { OneTimeCodes } from './one-time-codes.js';
import { readJson } from './request-body.js';

export type WebBridgeOptions = DispatcherOptions & {
  /** Loopback only: an IPv4 address in 127.0.0.0/8 or ::1. Anything else is refused. */
  host: string;
  /** 0: any free port. */
  port: number;
  rendererDir: string;
  /** Default 15 s. */
  heartbeatMs?: number;
};

export type WebBridge = {
  /** The page to open, token included: hand it to the kiosk browser only. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
  /** The page's address without any credential: what a log may say. */
  address: string;
  /** The page with a new one-time code instead of the token, for a browser's command line (screen-code.ts). */
  urlWithCode(): string;
};

const SECURITY_HEADERS = {
  'content-security-policy': KIOSK_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  internal: 500,
};

export function isLoopbackHost(host: string): boolean {
  if (net.isIPv4(host)) return host.split('.')[0] === '127';
  return net.isIPv6(host) && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

export async function startWebBridge(opts: WebBridgeOptions): Promise<WebBridge> {
  if (!isLoopbackHost(opts.host))
    throw new Error(`the web bridge listens on loopback only (127.0.0.1 or ::1), not on ${JSON.stringify(opts.host)}`);
  const rootReal = await fs.realpath(opts.rendererDir);
  if (!(await fs.stat(rootReal)).isDirectory())
    throw new Error(`renderer directory ${opts.rendererDir} is not a directory`);
  const log = opts.log ?? silentLogger;
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const token = randomBytes(32).toString('hex');
  const tokenDigest = sha256(token);
  const dispatcher = createDispatcher(opts);
  // One admin session per browser (its cookie), as the IPC bridge keeps one per window.
  const sessions = new AdminSessions(() => dispatcher.newSession());
  const streams = new Set<http.ServerResponse>();
  const codes = new OneTimeCodes(opts.clock ?? { now: () => Date.now() });

  let hostPort = '';
  let origin = '';

  const tokenOk = (given: string | string[] | null | undefined): boolean =>
    typeof given === 'string' && given.length > 0 && timingSafeEqual(sha256(given), tokenDigest);

  function sendJson(res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    if (res.headersSent) return void res.end();
    const data = JSON.stringify(body);
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(data),
      ...extra,
    });
    res.end(data);
  }

  function sendError(
    res: http.ServerResponse,
    code: ErrorCode,
    message: string,
    o: { status?: number; issues?: Issue[]; headers?: Record<string, string> } = {},
  ): void {
    sendJson(
      res,
      o.status ?? STATUS_OF[code],
      { ok: false, error: { code, message, ...(o.issues ? { issues: o.issues } : {}) } },
      o.headers,
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if ((req.headers.host ?? '').toLowerCase() !== hostPort) return sendError(res, 'forbidden', 'wrong Host');
    if (req.headers.origin !== undefined && req.headers.origin !== origin)
      return sendError(res, 'forbidden', 'foreign Origin');
    const raw = req.url ?? '';
    if (!raw.startsWith('/')) return sendError(res, 'bad_request', 'bad request target');
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    if (pathname === '/api' || pathname.startsWith('/api/')) return api(req, res, pathname, query);
    return serveStatic(req, res, pathname);
  }

  async function api(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
    query: URLSearchParams,
  ): Promise<void> {
    if (pathname === '/api/events') {
      if (!tokenOk(req.headers['x-kiosk-token'] ?? query.get('t')))
        return sendError(res, 'unauthorized', 'missing or wrong token');
      if (req.method !== 'GET')
        return sendError(res, 'bad_request', 'use GET', { status: 405, headers: { allow: 'GET' } });
      return eventStream(req, res);
    }
    if (pathname === SCREEN_CODE_PATH) return exchangeCode(req, res);
    if (!tokenOk(req.headers['x-kiosk-token'])) return sendError(res, 'unauthorized', 'missing or wrong token');
    if (pathname.startsWith(AFD_DOWNLOAD_PATH)) {
      const afd = opts.agent.afd;
      const id = pathname.slice(AFD_DOWNLOAD_PATH.length);
      return serveAfdDownload(req, res, id, {
        take: (i) => afd.takeDownload(i),
        adminOk: () => sessions.of(req.headers.cookie).touch(),
        headers: SECURITY_HEADERS,
        sendError,
      });
    }
    const name = pathname.slice('/api/'.length);
    if (!isCallName(name)) return sendError(res, 'not_found', 'no such call');
    if (req.method !== 'POST')
      return sendError(res, 'bad_request', 'use POST', { status: 405, headers: { allow: 'POST' } });
    const cookie = req.headers.cookie;
    const login = name === 'adminLogin';
    const session = login ? sessions.forLogin() : sessions.of(cookie);
    const caller: Caller = { session, via: 'web bridge' };
    const a = await dispatcher.dispatch(name, () => readJson(req), caller);
    if ('refused' in a) return sendError(res, a.refused.code, a.refused.message, a.refused);
    const headers: Record<string, string> = {};
    if (login || name === 'adminLogout' || name === 'lock') {
      // A login, a logout or a lock ends the session this browser had; a login that opened one sets its own.
      sessions.drop(cookie);
      headers['set-cookie'] = login && session.isOpen() ? setAdminCookie(sessions.keep(session)) : clearAdminCookie();
    }
    sendJson(res, a.ok ? 200 : STATUS_OF[a.error.code], a, headers);
  }

  /** A one-time code (from the browser's `/?c=`) for the page token: once, within its time, and never logged. */
  async function exchangeCode(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'POST')
      return sendError(res, 'bad_request', 'use POST', { status: 405, headers: { allow: 'POST' } });
    const framed = await readJson(req);
    if ('refused' in framed) return sendError(res, framed.refused.code, framed.refused.message, framed.refused);
    const asked = screenCodeRequestSchema.safeParse(framed.input);
    if (!asked.success) return sendError(res, 'bad_request', 'expected {"code": <32 hex digits>}');
    if (!codes.take(asked.data.code)) return sendError(res, 'forbidden', 'unknown, used or expired code');
    sendJson(res, 200, { ok: true, token });
  }

  function eventStream(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': connected\n\n');
    streams.add(res);
    const off = dispatcher.subscribe(
      (event, payload) => res.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`),
      { statusNow: true },
    );
    const beat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
    beat.unref();
    const stop = (): void => {
      clearInterval(beat);
      off();
      streams.delete(res);
    };
    req.on('close', stop);
    res.on('close', stop);
  }

  async function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(res, 'bad_request', 'use GET', { status: 405, headers: { allow: 'GET, HEAD' } });
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
    address: `${origin}/`,
    urlWithCode: () => `${origin}/?c=${codes.issue()}`,
    close: async () => {
      sessions.endAll();
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
