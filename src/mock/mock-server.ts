/**
 * Mock of the Time & Attendance API v2.1 (node:http only), serving exactly the wire shapes chosen
 * in src/api/shapes.ts. It enforces the spec's per-token sliding-window rate limit, can inject
 * transport faults, and keeps every stored time record and request so tests (and the standalone
 * `timeclock mock`) can check exactly what reached "the server".
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import {
  API_VERSION_SEGMENT,
  BASIC_AUTH_USER,
  MAX_PAGE_SIZE,
  defaultApiDialect,
  localDatePattern,
  localDateTimePattern,
  localTimePattern,
  objectIdPattern,
  type ApiDialect,
  type ErrorBody,
  type Site,
} from '../api/shapes.js';
import type { Clock } from '../domain/clock.js';
import { DEFAULT_SLOW_DELAY_MS, faultApplies, faultPlanSchema, mulberry32, pickFault, type FaultKind, type FaultPlan } from './faults.js';
import { RateWindow } from './rate-window.js';
import { demoSeed, objectIdFor, type MockEmployee, type MockSeed } from './seed.js';

export type { FaultKind, FaultPlan } from './faults.js';
export type { MockEmployee, MockSeed } from './seed.js';

export type MockOptions = {
  /** Default '127.0.0.1'. Loopback only: the mock has unauthenticated control endpoints. */
  host?: string;
  /** Default 0 (random free port). */
  port?: number;
  /** Accepted API tokens (Basic auth password, user 'public'); default ['demo-token']. */
  tokens?: string[];
  /** Default 60 per 60_000 ms, as in the spec. */
  rateLimit?: { limit: number; windowMs: number };
  /** Form of `Retry-After` on 429; default 'seconds'. */
  retryAfterFormat?: 'seconds' | 'http-date';
  dialect?: ApiDialect;
  /** Default demoSeed(). */
  seed?: MockSeed;
  faults?: FaultPlan;
  /** Window maths, the Date header, `_created` and log timestamps; default Date.now. */
  clock?: Clock;
  /** Draws for fault selection; default mulberry32(1) so fault sequences are reproducible. */
  random?: () => number;
};

export type StoredTimeRecord = {
  _id: string;
  employee_id: string;
  employee_external_id?: string;
  time: string;
  type: 'registro externo';
  approved: boolean;
  _created: string;
  receivedAt: number;
  token: string;
};

export type RequestLogEntry = {
  at: number;
  method: string;
  /** Path as received, without the query (e.g. '/v2.1/times'). */
  path: string;
  query: Record<string, string>;
  /** null while unanswered, and for good when the connection was dropped. */
  status: number | null;
  /** Counted against the token's rate window. */
  counted: boolean;
  fault: FaultKind | null;
  /** Message of an unexpected server error (status 500 without a fault). */
  error?: string;
};

export type MockServer = {
  /** Base URL including the version segment, e.g. http://127.0.0.1:41234/v2.1 */
  url: string;
  origin: string;
  port: number;
  setFaults(plan: FaultPlan | null): void;
  setRateLimit(rule: { limit: number; windowMs: number }): void;
  /** The accepted API tokens from now on (a revoked token, a new one issued); also `PUT /__mock/tokens`. */
  setTokens(list: string[]): void;
  records(): StoredTimeRecord[];
  requests(): RequestLogEntry[];
  employees(): MockEmployee[];
  addEmployees(list: MockEmployee[]): void;
  setActive(employeeIdOrExternalId: string, active: boolean): void;
  /** Closes the server and destroys open sockets (slow responses included) so tests never hang. */
  close(): Promise<void>;
};

const DEFAULT_PAGE_SIZE = 25;
const MAX_BODY_BYTES = 1024 * 1024;

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

const tokensSchema = z.array(z.string().min(1)).min(1);

const rateRuleSchema = z.strictObject({
  limit: z.number().int().min(1),
  windowMs: z.number().int().min(1),
});

function errorReply(status: number, message: string, issues?: Record<string, string>, headers?: Record<string, string>): Reply {
  const body: ErrorBody = { _status: 'ERR', _error: { code: status, message } };
  if (issues && Object.keys(issues).length > 0) body._issues = issues;
  return { status, body, headers };
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Copies the parts of an employee the mock (or a caller) might mutate; the rest is plain data that
 * is never changed in place. Much cheaper than structuredClone for a 100,000-employee seed.
 */
function copyEmployee(e: MockEmployee): MockEmployee {
  const copy: MockEmployee = { ...e, site_ids: [...e.site_ids] };
  if (e.contract_data) copy.contract_data = { ...e.contract_data };
  return copy;
}

/** `localDatePattern` admits 2026-02-30; this rejects days the month does not have. */
function isCalendarDate(date: string): boolean {
  if (!localDatePattern.test(date)) return false;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] as number;
  return d <= days;
}

/** The spec's `_created` shape: YYYY-MM-DDTHH:MM followed by an offset (always UTC here). */
function createdStamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}+00:00`;
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!(k in out)) out[k] = v;
  return out;
}

/** Turns zod issues into the error body's flat `{ field: message }` map. */
function issuesOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const iss of error.issues) {
    if (iss.code === 'unrecognized_keys') {
      for (const k of iss.keys) out[k] = 'unknown field';
    } else {
      const key = iss.path.length > 0 ? iss.path.map(String).join('.') : '_body';
      out[key] ??= iss.message;
    }
  }
  return out;
}

const requiredString = z.string({ error: (iss) => (iss.input === undefined ? 'required field' : 'must be a string') });
const employeeRefFields = {
  employee_id: z.string({ error: 'must be a string' }).regex(objectIdPattern, 'must be a 24-hex id').optional(),
  employee_external_id: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
};
const combinedPunchSchema = z.strictObject({
  ...employeeRefFields,
  time: requiredString.regex(localDateTimePattern, 'must be YYYY-MM-DDTHH:MM'),
});
const splitPunchSchema = z.strictObject({
  ...employeeRefFields,
  date: requiredString.regex(localDatePattern, 'must be YYYY-MM-DD'),
  time: requiredString.regex(localTimePattern, 'must be HH:MM'),
});

/** Strictly positive decimal integer (no sign, no decimals); `undefined` when absent. */
function parsePositiveInt(raw: string | null): number | undefined | 'invalid' {
  if (raw === null) return undefined;
  if (!/^\d{1,15}$/.test(raw)) return 'invalid';
  const n = Number(raw);
  return n >= 1 ? n : 'invalid';
}

function readBody(req: http.IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true; // keep draining so the connection stays usable
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
    // A client that goes away mid-body may emit no 'error'; settle anyway (no-op after 'end').
    req.on('close', () => reject(new Error('client closed the connection before the body ended')));
  });
}

export async function startMockServer(opts: MockOptions = {}): Promise<MockServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`mock server binds to loopback only, not ${host}`);
  const clock: Clock = opts.clock ?? { now: () => Date.now() };
  const random = opts.random ?? mulberry32(1);
  let tokens = new Set(opts.tokens ?? ['demo-token']);
  function setTokens(list: string[]): void {
    tokens = new Set(tokensSchema.parse(list));
  }
  const dialect = opts.dialect ?? defaultApiDialect;
  const retryAfterFormat = opts.retryAfterFormat ?? 'seconds';
  const rate = new RateWindow(clock, rateRuleSchema.parse(opts.rateLimit ?? { limit: 60, windowMs: 60_000 }));
  let faults: FaultPlan | null = opts.faults ? faultPlanSchema.parse(opts.faults) : null;
  /** Matching requests seen since the plan was set (for `afterMatches`). */
  let faultMatches = 0;

  const seed = opts.seed ?? demoSeed();
  const sites = new Map<string, Site>(seed.sites.map((s) => [s._id, structuredClone(s)]));
  // Map keeps insertion order, which is the stable listing order; re-adding an _id keeps its place.
  const employeesById = new Map<string, MockEmployee>();
  const idByExternal = new Map<string, string>();
  const records: StoredTimeRecord[] = [];
  const log: RequestLogEntry[] = [];
  let recordSeq = 0;

  function addEmployees(list: MockEmployee[]): void {
    for (const raw of list) {
      const e = copyEmployee(raw);
      if (e.external_id !== undefined) {
        const owner = idByExternal.get(e.external_id);
        if (owner !== undefined && owner !== e._id) throw new Error(`external_id ${e.external_id} already belongs to ${owner}`);
      }
      const previous = employeesById.get(e._id);
      if (previous?.external_id !== undefined) idByExternal.delete(previous.external_id);
      employeesById.set(e._id, e);
      if (e.external_id !== undefined) idByExternal.set(e.external_id, e._id);
    }
  }
  addEmployees(seed.employees);

  function byExternal(ext: string): MockEmployee | undefined {
    const id = idByExternal.get(ext);
    return id === undefined ? undefined : employeesById.get(id);
  }

  /** Read shape: everything except the mock-internal fields. */
  function wireEmployee(e: MockEmployee): Record<string, unknown> {
    const { active: _active, site_ids: _sites, ...rest } = e;
    return rest;
  }

  function retryAfterHeader(at: number, now: number): string {
    if (retryAfterFormat === 'seconds') return String(Math.max(1, Math.ceil((at - now) / 1000)));
    // HTTP dates have whole seconds: round up so a client obeying it never arrives early.
    return new Date(Math.ceil(at / 1000) * 1000).toUTCString();
  }

  // ---- API handlers -------------------------------------------------------------------------

  function postTimes(bodyText: string, arrival: number, token: string): Reply {
    let json: unknown;
    try {
      json = JSON.parse(bodyText);
    } catch {
      return errorReply(400, 'request body must be valid JSON');
    }
    if (!isRecord(json)) return errorReply(400, 'request body must be a JSON object');
    const parsed = (dialect.punchBody === 'combined' ? combinedPunchSchema : splitPunchSchema).safeParse(json);
    const issues: Record<string, string> = parsed.success ? {} : issuesOf(parsed.error);
    const hasId = json.employee_id !== undefined;
    const hasExt = json.employee_external_id !== undefined;
    if (hasId && hasExt) {
      issues.employee_id = 'mutually exclusive with employee_external_id';
      issues.employee_external_id = 'mutually exclusive with employee_id';
    } else if (!hasId && !hasExt) {
      issues.employee_id = 'exactly one of employee_id and employee_external_id is required';
    }
    if (!parsed.success || Object.keys(issues).length > 0) return errorReply(422, 'request validation failed', issues);

    const data = parsed.data;
    const time = 'date' in data ? `${data.date}T${data.time}` : data.time;
    if (!isCalendarDate(time.slice(0, 10))) {
      return errorReply(422, 'request validation failed', { [dialect.punchBody === 'split' ? 'date' : 'time']: 'not a calendar date' });
    }
    const [field, value] = data.employee_id !== undefined ? ['employee_id', data.employee_id] : ['employee_external_id', data.employee_external_id ?? ''];
    const emp = field === 'employee_id' ? employeesById.get(value) : byExternal(value);
    if (!emp || !emp.active) return errorReply(404, `no active employee with ${field} '${value}'`);

    const rec: StoredTimeRecord = {
      _id: objectIdFor('time_record', ++recordSeq),
      employee_id: emp._id,
      time,
      type: 'registro externo',
      approved: false,
      _created: createdStamp(arrival),
      receivedAt: arrival,
      token,
    };
    if (emp.external_id !== undefined) rec.employee_external_id = emp.external_id;
    records.push(rec);
    return { status: 201, body: { _id: rec._id, _status: 'OK', _created: rec._created } };
  }

  function getTimes(params: URLSearchParams): Reply {
    const issues: Record<string, string> = {};
    const id = params.get('employee_id');
    const ext = params.get('employee_external_id');
    if ((id === null) === (ext === null)) issues.employee_id = 'exactly one of employee_id and employee_external_id is required';
    const { startDate: startKey, endDate: endKey } = dialect.timesQuery;
    const start = params.get(startKey);
    const end = params.get(endKey);
    if (start === null || !isCalendarDate(start)) issues[startKey] = 'required, YYYY-MM-DD';
    if (end === null || !isCalendarDate(end)) issues[endKey] = 'required, YYYY-MM-DD';
    if (start !== null && end !== null && issues[startKey] === undefined && issues[endKey] === undefined && start > end) {
      issues[endKey] = `must not be before ${startKey}`;
    }
    if (Object.keys(issues).length > 0 || start === null || end === null) return errorReply(400, 'invalid query', issues);

    // Records stay readable after an employee is deactivated: rule 1 concerns employee reads.
    const emp = id !== null ? employeesById.get(id) : byExternal(ext ?? '');
    if (!emp) return errorReply(404, id !== null ? `no employee with employee_id '${id}'` : `no employee with employee_external_id '${ext}'`);
    const times = records
      .filter((r) => r.employee_id === emp._id && r.time.slice(0, 10) >= start && r.time.slice(0, 10) <= end)
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
      .map((r) => ({ _id: r._id, approved: r.approved, type: r.type, time: r.time }));
    return { status: 200, body: { employee_id: emp._id, times } };
  }

  /** Eve-style paginated envelope; `extra` holds filter params to carry into the links. */
  function page<T>(resource: string, params: URLSearchParams, all: T[], extra: Record<string, string>, toWire: (item: T) => unknown = (x) => x): Reply {
    const maxRaw = parsePositiveInt(params.get('max_results'));
    const pageRaw = parsePositiveInt(params.get('page'));
    const issues: Record<string, string> = {};
    if (maxRaw === 'invalid') issues.max_results = 'must be an integer >= 1';
    if (pageRaw === 'invalid') issues.page = 'must be an integer >= 1';
    if (maxRaw === 'invalid' || pageRaw === 'invalid') return errorReply(400, 'invalid query', issues);
    const max = Math.min(maxRaw ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const pageNo = pageRaw ?? 1;
    const total = all.length;
    const last = Math.max(1, Math.ceil(total / max));
    const href = (p: number): string => `${resource}?${new URLSearchParams({ ...extra, max_results: String(max), page: String(p) }).toString()}`;
    const links: Record<string, { title: string; href: string }> = {
      parent: { title: 'home', href: '/' },
      self: { title: resource, href: href(pageNo) },
    };
    if (pageNo < last) {
      links.next = { title: 'next page', href: href(pageNo + 1) };
      links.last = { title: 'last page', href: href(last) };
    }
    if (pageNo > 1) links.prev = { title: 'previous page', href: href(Math.min(pageNo - 1, last)) };
    const start = (pageNo - 1) * max;
    return { status: 200, body: { _items: all.slice(start, start + max).map(toWire), _links: links, _meta: { max_results: max, page: pageNo, total } } };
  }

  function listEmployees(params: URLSearchParams): Reply {
    const siteParam = dialect.siteFilterParam;
    const site = params.get(siteParam);
    if (site !== null && !objectIdPattern.test(site)) return errorReply(400, 'invalid query', { [siteParam]: 'must be a 24-hex id' });
    const selected: MockEmployee[] = [];
    // An unknown site simply selects nobody.
    for (const e of employeesById.values()) {
      if (e.active && (site === null || e.site_ids.includes(site))) selected.push(e);
    }
    return page('employees', params, selected, site === null ? {} : { [siteParam]: site }, wireEmployee);
  }

  type Route = { allow: string[]; handle: (method: string) => Reply };

  function route(apiPath: string, params: URLSearchParams, body: () => { text: string }, arrival: number, token: string): Route | null {
    const segs = apiPath.split('/').slice(1);
    let id: string | undefined;
    if (segs.length === 2) {
      try {
        id = decodeURIComponent(segs[1] as string);
      } catch {
        return null;
      }
    }
    const [head] = segs;
    if (segs.length === 1 && head === 'times') {
      return { allow: ['GET', 'POST'], handle: (m) => (m === 'GET' ? getTimes(params) : postTimes(body().text, arrival, token)) };
    }
    if (segs.length === 1 && head === 'employees') return { allow: ['GET'], handle: () => listEmployees(params) };
    if (segs.length === 1 && head === 'sites') return { allow: ['GET'], handle: () => page('sites', params, [...sites.values()], {}) };
    if (id !== undefined && head === 'employees') {
      return {
        allow: ['GET'],
        handle: () => {
          const e = employeesById.get(id);
          return e && e.active ? { status: 200, body: wireEmployee(e) } : errorReply(404, `no active employee with _id '${id}'`);
        },
      };
    }
    if (id !== undefined && head === 'sites') {
      return {
        allow: ['GET'],
        handle: () => {
          const s = sites.get(id);
          return s ? { status: 200, body: s } : errorReply(404, `no site with _id '${id}'`);
        },
      };
    }
    return null;
  }

  // ---- control endpoints (no auth, not rate limited, not logged) ------------------------------

  function control(method: string, path: string, bodyText: string): Reply {
    const readJson = (): { ok: true; value: unknown } | { ok: false; reply: Reply } => {
      try {
        return { ok: true, value: JSON.parse(bodyText) };
      } catch {
        return { ok: false, reply: errorReply(400, 'request body must be valid JSON') };
      }
    };
    switch (path) {
      case '/__mock/records':
        return method === 'GET' ? { status: 200, body: records } : errorReply(405, 'method not allowed', undefined, { allow: 'GET' });
      case '/__mock/requests':
        return method === 'GET' ? { status: 200, body: log } : errorReply(405, 'method not allowed', undefined, { allow: 'GET' });
      case '/__mock/faults': {
        if (method === 'GET') return { status: 200, body: { faults } };
        if (method !== 'PUT') return errorReply(405, 'method not allowed', undefined, { allow: 'GET, PUT' });
        const j = readJson();
        if (!j.ok) return j.reply;
        const parsed = faultPlanSchema.nullable().safeParse(j.value);
        if (!parsed.success) return errorReply(422, 'invalid fault plan', issuesOf(parsed.error));
        faults = parsed.data;
        faultMatches = 0;
        return { status: 200, body: { _status: 'OK', faults } };
      }
      case '/__mock/tokens': {
        // Write-only: the control endpoints are unauthenticated, so the tokens are never read back.
        if (method !== 'PUT') return errorReply(405, 'method not allowed', undefined, { allow: 'PUT' });
        const j = readJson();
        if (!j.ok) return j.reply;
        const parsed = tokensSchema.safeParse(j.value);
        if (!parsed.success) return errorReply(422, 'invalid token list: a non-empty array of non-empty strings', issuesOf(parsed.error));
        setTokens(parsed.data);
        return { status: 200, body: { _status: 'OK', tokens: parsed.data.length } };
      }
      case '/__mock/rate-limit': {
        if (method === 'GET') return { status: 200, body: rate.getRule() };
        if (method !== 'PUT') return errorReply(405, 'method not allowed', undefined, { allow: 'GET, PUT' });
        const j = readJson();
        if (!j.ok) return j.reply;
        const parsed = rateRuleSchema.safeParse(j.value);
        if (!parsed.success) return errorReply(422, 'invalid rate limit', issuesOf(parsed.error));
        rate.setRule(parsed.data);
        return { status: 200, body: { _status: 'OK', ...rate.getRule() } };
      }
      default:
        return errorReply(404, `no control endpoint ${path}`);
    }
  }

  // ---- transport -----------------------------------------------------------------------------

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function send(res: http.ServerResponse, reply: Reply, entry: RequestLogEntry | null): void {
    if (res.destroyed || res.headersSent) return;
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      ...reply.headers,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload),
      date: new Date(clock.now()).toUTCString(),
    });
    res.end(payload);
    if (entry) entry.status = reply.status;
  }

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
        send(res, body.tooLarge ? errorReply(413, 'request body too large') : control(method, path, body.text), null);
        return;
      }
      entry = { at: arrival, method, path, query: firstValues(params), status: null, counted: false, fault: null };
      log.push(entry);
      const isApi = path === API_VERSION_SEGMENT || path.startsWith(`${API_VERSION_SEGMENT}/`);
      if (!isApi) {
        await readBody(req);
        send(res, errorReply(404, `not found: ${path}`), entry);
        return;
      }

      // Decisions that depend on the arrival instant are taken now, before the body is read.
      const token = authenticate(req.headers.authorization);
      if (token === null) {
        await readBody(req);
        send(res, errorReply(401, 'please provide proper credentials', undefined, { 'www-authenticate': 'Basic realm="api"' }), entry);
        return;
      }
      const apiPath = path.slice(API_VERSION_SEGMENT.length).replace(/\/+$/, '');
      const matches = faults !== null && faultApplies(faults, method, apiPath || '/');
      const plan = matches && faults && faultMatches++ >= (faults.afterMatches ?? 0) ? faults : null;
      if (plan?.always429) {
        entry.fault = 'always_429';
        await readBody(req);
        send(res, errorReply(429, 'too many requests (injected)', undefined, { 'retry-after': retryAfterHeader(arrival + 1000, arrival) }), entry);
        return;
      }
      const admission = rate.admit(token, arrival);
      if (!admission.ok) {
        await readBody(req);
        const { limit, windowMs } = rate.getRule();
        const headers = { 'retry-after': retryAfterHeader(admission.retryAt, arrival) };
        send(res, errorReply(429, `too many requests: at most ${limit} per ${windowMs} ms`, undefined, headers), entry);
        return;
      }
      entry.counted = true;
      const fault = plan ? pickFault(plan, random) : null;
      entry.fault = fault;

      const body = await readBody(req);
      let reply: Reply;
      if (fault === 'server_error') {
        reply = errorReply(500, 'internal server error (injected)');
      } else if (body.tooLarge) {
        reply = errorReply(413, 'request body too large');
      } else {
        const r = route(apiPath, params, () => body, arrival, token);
        if (!r) reply = errorReply(404, `not found: ${path}`);
        else if (!r.allow.includes(method)) reply = errorReply(405, `method ${method} not allowed`, undefined, { allow: r.allow.join(', ') });
        else reply = r.handle(method);
      }

      if (fault === 'drop_after_store') {
        req.socket.destroy(); // the work is done; the client never learns the outcome
        return;
      }
      if (fault === 'slow_response') {
        const delay = plan?.slowDelayMs ?? DEFAULT_SLOW_DELAY_MS;
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, reply, entry);
        }, delay);
        timers.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          timers.delete(timer);
        });
        return;
      }
      send(res, reply, entry);
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
      send(res, errorReply(500, 'internal server error'), entry);
    }
  }

  function authenticate(header: string | undefined): string | null {
    if (header === undefined) return null;
    const m = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
    if (!m) return null;
    const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    return user === BASIC_AUTH_USER && tokens.has(password) ? password : null;
  }

  const server = http.createServer((req, res) => {
    void handle(req, res);
  });
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
    setFaults(plan) {
      faults = plan === null ? null : faultPlanSchema.parse(plan);
      faultMatches = 0;
    },
    setRateLimit(rule) {
      rate.setRule(rateRuleSchema.parse(rule));
    },
    setTokens,
    records: () => records.map((r) => ({ ...r })),
    requests: () => log.map((e) => ({ ...e, query: { ...e.query } })),
    employees: () => Array.from(employeesById.values(), copyEmployee),
    addEmployees,
    setActive(key, active) {
      const e = employeesById.get(key) ?? byExternal(key);
      if (!e) throw new Error(`no employee with _id or external_id '${key}'`);
      e.active = active;
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
