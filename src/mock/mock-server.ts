/**
 * Mock of the Time & Attendance API v2.1 (node:http only), serving exactly the wire shapes chosen
 * in src/api/shapes.ts, or on request the other answers the spec allows (variants.ts). It enforces
 * the spec's per-token sliding-window rate limit, can inject transport faults, and keeps every
 * stored time record and request so tests (and the standalone `timeclock mock`) can check exactly
 * what reached "the server".
 *
 * Parts: state.ts (what it remembers), api-routes.ts and times-routes.ts (/v2.1), control-routes.ts
 * (/__mock), self-service-*.ts (timesheets, work leaves and their control routes), mock-options.ts
 * (what a test may set and call), transport.ts (HTTP plumbing), variants.ts and answer-variants.ts
 * (the other answers a server may give); this file wires them to a server. The `nonApi` variant
 * answers before authentication (it stands for something in front of the API); `redirect` after
 * authentication and the rate window.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { API_VERSION_SEGMENT, apiDialectSchema } from '../api/shapes.js';
import type { Clock } from '../domain/time/clock.js';
import { absentRouteReply, isAbsentRoute, nonApiReply, redirectReply } from './answer-variants.js';
import { apiRoute } from './api-routes.js';
import { controlRoute } from './control-routes.js';
import { DEFAULT_SLOW_DELAY_MS, faultApplies, mulberry32, pickFault } from './faults.js';
import { errorReply, firstValues, type Reply } from './reply.js';
import { demoSeed } from './seed.js';
import { copyEmployee, MockState, rateRuleSchema, type RequestLogEntry } from './state.js';
import { authenticate, isLoopbackHost, readBody, retryAfterHeader, send } from './transport.js';
import { wireOptions } from './wire-variants.js';
import type { MockOptions, MockServer } from './mock-options.js';

export type { FaultKind, FaultPlan } from './faults.js';
export type { MockEmployee, MockSeed } from './seed.js';
export type { RequestLogEntry, StoredTimeRecord, TimeRecordType } from './state.js';
export type { ServerVariants } from './variants.js';
export type { LeaveInput, MockLeave } from './self-service-state.js';

export type { MockOptions, MockServer } from './mock-options.js';

export async function startMockServer(opts: MockOptions = {}): Promise<MockServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`mock server binds to loopback only, not ${host}`);
  const clock: Clock = opts.clock ?? { now: () => Date.now() };
  const random = opts.random ?? mulberry32(1);
  const retryAfterFormat = opts.retryAfterFormat ?? 'seconds';
  const state = new MockState({
    seed: opts.seed ?? demoSeed(),
    tokens: opts.tokens ?? ['demo-token'],
    rateLimit: opts.rateLimit ?? { limit: 60, windowMs: 60_000 },
    clock,
    dialect: apiDialectSchema.parse(opts.dialect ?? {}),
    faults: opts.faults ?? null,
    variants: opts.variants ?? null,
  });
  const { log, rate } = state;

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  // Control routes (entry null) are the test's own line: no wire variant touches them.
  const reply = (res: http.ServerResponse, r: Reply, entry: RequestLogEntry | null): void =>
    send(
      res,
      r,
      entry,
      clock.now(),
      entry === null ? {} : wireOptions(state.variants, res.req.method, res.req.url),
      state.variants?.date,
    );

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const arrival = clock.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const params = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
    const isControl = path === '/__mock' || path.startsWith('/__mock/');
    let entry: RequestLogEntry | null = null;
    try {
      if (isControl) {
        const body = await readBody(req);
        reply(
          res,
          body.tooLarge ? errorReply(413, 'request body too large') : controlRoute(state, method, path, body.text),
          null,
        );
        return;
      }
      entry = { at: arrival, method, path, query: firstValues(params), status: null, counted: false, fault: null };
      log.push(entry);
      const variants = state.variants;
      if (variants?.nonApi !== undefined) {
        // Something in front of the API answers: no authentication, no rate window, nothing processed.
        await readBody(req);
        reply(res, nonApiReply(variants.nonApi), entry);
        return;
      }
      const isApi = path === API_VERSION_SEGMENT || path.startsWith(`${API_VERSION_SEGMENT}/`);
      if (!isApi) {
        await readBody(req);
        reply(res, errorReply(404, `not found: ${path}`), entry);
        return;
      }

      // Decisions that depend on the arrival instant are taken now, before the body is read.
      const token = authenticate(req.headers.authorization, state.tokens);
      if (token === null) {
        await readBody(req);
        reply(
          res,
          errorReply(401, 'please provide proper credentials', undefined, { 'www-authenticate': 'Basic realm="api"' }),
          entry,
        );
        return;
      }
      const retryFormat = variants?.retryAfterDate ? 'http-date' : retryAfterFormat;
      const apiPath = path.slice(API_VERSION_SEGMENT.length).replace(/\/+$/, '');
      const faults = state.faults;
      const matches = faults !== null && faultApplies(faults, method, apiPath || '/');
      const plan = matches && faults && state.faultMatches++ >= (faults.afterMatches ?? 0) ? faults : null;
      if (plan?.always429) {
        entry.fault = 'always_429';
        await readBody(req);
        reply(
          res,
          errorReply(429, 'too many requests (injected)', undefined, {
            'retry-after': retryAfterHeader(retryFormat, arrival + 1000, arrival),
          }),
          entry,
        );
        return;
      }
      const admission = rate.admit(token, arrival);
      if (!admission.ok) {
        await readBody(req);
        const { limit, windowMs } = rate.getRule();
        const headers = { 'retry-after': retryAfterHeader(retryFormat, admission.retryAt, arrival) };
        reply(
          res,
          errorReply(429, `too many requests: at most ${limit} per ${windowMs} ms`, undefined, headers),
          entry,
        );
        return;
      }
      entry.counted = true;
      const fault = plan ? pickFault(plan, random) : null;
      entry.fault = fault;

      const body = await readBody(req);
      let answer: Reply;
      if (fault === 'server_error') {
        answer = errorReply(500, 'internal server error (injected)');
      } else if (variants?.redirect) {
        answer = redirectReply(variants.redirect); // authenticated and counted, then sent elsewhere
      } else if (body.tooLarge) {
        answer = errorReply(413, 'request body too large');
      } else if (isAbsentRoute(variants?.absentRoutes, method, apiPath)) {
        answer = absentRouteReply(variants?.absentRouteStatus);
      } else {
        const r = apiRoute(state, apiPath, params, () => body, arrival, token);
        if (!r) answer = errorReply(404, `not found: ${path}`);
        else if (!r.allow.includes(method))
          answer = errorReply(405, `method ${method} not allowed`, undefined, { allow: r.allow.join(', ') });
        else answer = r.handle(method);
      }

      if (fault === 'drop_after_store') {
        req.socket.destroy(); // the work is done; the client never learns the outcome
        return;
      }
      if (fault === 'slow_response') {
        const delay = plan?.slowDelayMs ?? DEFAULT_SLOW_DELAY_MS;
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply(res, answer, entry);
        }, delay);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      reply(res, answer, entry);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (entry === null) {
        entry = { at: arrival, method, path, query: firstValues(params), status: null, counted: false, fault: null };
        log.push(entry);
      }
      entry.error = message;
      if (res.headersSent || req.destroyed) {
        res.destroy();
        return;
      }
      reply(res, errorReply(500, 'internal server error'), entry);
    }
  }

  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
  if (opts.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock server has no TCP address');
  const origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url: `${origin}${API_VERSION_SEGMENT}`,
    origin,
    port: address.port,
    setFaults: (plan) => state.setFaults(plan),
    setRateLimit(rule) {
      rate.setRule(rateRuleSchema.parse(rule));
    },
    setTokens: (list) => state.setTokens(list),
    setVariants: (v) => state.setVariants(v),
    records: () => state.records.map((r) => ({ ...r })),
    addRecord: (r) => ({ ...state.addRecord(r.employee, r.time, r.type ?? 'registro externo') }),
    deleteRecord: (id) => state.deleteRecord(id),
    requests: () => log.map((e) => ({ ...e, query: { ...e.query } })),
    employees: () => Array.from(state.employeesById.values(), copyEmployee),
    addEmployees: (list) => state.addEmployees(list),
    setActive: (key, active) => state.setActive(key, active),
    setAllowExternalApiRecord: (key, value) => state.setAllowExternalApiRecord(key, value),
    leaves: () => state.selfService.leaves.map((l) => structuredClone(l)),
    addLeave(leave) {
      const added = state.selfService.addLeave(leave);
      if (!added) throw new Error(`no employee with _id or external_id '${leave.employee}'`);
      return structuredClone(added);
    },
    deleteLeave: (id) => state.selfService.deleteLeave(id),
    setHoursBalance(key, value) {
      if (!state.selfService.setBalance(key, value)) throw new Error(`no employee with _id or external_id '${key}'`);
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
