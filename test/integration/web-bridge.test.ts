/**
 * The web bridge against a real agent (real SQLite, real mock API) on 127.0.0.1: the contract's
 * calls over HTTP, who may call them (token, Host, Origin, admin session), typed refusals of
 * wrong-shaped input, the event stream, and the renderer's static files.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/agent.js';
import type { AgentStatus } from '../../src/agent/status.js';
import { bridgeErrorSchema, callResultSchema } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { startWebBridge, type WebBridge, type WebBridgeOptions } from '../../src/web/web-bridge.js';
import { agentWithRenderer } from '../helpers/bridge-setup.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const API_TOKEN = 'api-token-7f3c9e51d2b8a604';
const ADMIN_PIN = '582913';
const INDEX = '<!doctype html><title>kiosk</title><script src="/app.js"></script>';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Every response body and log line of the test, checked for secrets at the end of each test. */
const seen: string[] = [];
const logLines: string[] = [];

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** node:http, so that Host, Origin and the raw path are sent exactly as written. */
function send(url: string, o: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Reply> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: o.method ?? 'GET', path: o.path, headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        seen.push(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

type Ctx = { mock: MockServer; agent: Agent; bridge: WebBridge; root: string; clock: { t: number; now(): number } };

async function setup(over: Partial<WebBridgeOptions> = {}, wrap?: (a: Agent) => WebBridgeOptions['agent']): Promise<Ctx> {
  const { mock, agent, root } = await agentWithRenderer(cleanups, API_TOKEN, { 'index.html': INDEX, 'app.js': 'console.log(1);' });
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

function api(b: WebBridge, name: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(b.origin, {
    method: 'POST',
    path: `/api/${name}`,
    headers: { 'content-type': 'application/json', 'x-kiosk-token': b.token, origin: b.origin, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const json = (r: Reply): unknown => JSON.parse(r.text);

/** The event stream, as text so far; closed after the test. */
function listen(b: WebBridge): { text(): string } {
  const u = new URL(b.origin);
  let buf = '';
  const req = http.get({ host: u.hostname, port: u.port, path: `/api/events?t=${b.token}` });
  cleanups.push(() => void req.destroy());
  req.on('response', (res) => res.on('data', (c: Buffer) => (buf += c.toString('utf8'))));
  return { text: () => buf };
}
const errorOf = (r: Reply) => bridgeErrorSchema.parse(json(r)).error;

describe('calls through the web bridge', () => {
  it('a punch registers, answers with the contract shape, and the service gets the record', async () => {
    const { bridge, mock } = await setup();
    expect(bridge.url).toBe(`${bridge.origin}/?t=${bridge.token}`);
    expect(bridge.token).toMatch(/^[0-9a-f]{64}$/);
    const r = await api(bridge, 'punch', { credential: { kind: 'id', value: '1002' } });
    expect(r.status).toBe(200);
    const body = callResultSchema('punch').parse(json(r));
    expect(body).toMatchObject({ ok: true, value: { ok: true, employeeExternalId: '1002', repeat: false } });
    await waitFor(() => mock.records().some((x) => x.employee_external_id === '1002'), 'the record at the service');

    const st = await api(bridge, 'status', {});
    const status = callResultSchema('status').parse(json(st));
    expect(status.ok && status.value.roster.size).toBeGreaterThan(0);
    expect(st.text).not.toContain(API_TOKEN);
  });

  it('a wedge scan of an unknown badge is refused as a typed punch result', async () => {
    const { bridge } = await setup();
    const r = await api(bridge, 'badgeScan', { code: 'NOBODY-1', source: 'wedge' });
    expect(json(r)).toMatchObject({ ok: true, value: { ok: false, reason: 'unknown_credential' } });
  });
});

describe('who may call', () => {
  it('no token or a wrong token: 401; unknown call: 404 (401 without a token)', async () => {
    const { bridge } = await setup();
    const none = await send(bridge.origin, { method: 'POST', path: '/api/status', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(errorOf(none).code).toBe('unauthorized');
    const wrong = await api(bridge, 'status', {}, { 'x-kiosk-token': 'f'.repeat(64) });
    expect(wrong.status).toBe(401);
    expect((await api(bridge, 'status', {}, { 'x-kiosk-token': bridge.token.slice(0, 10) })).status).toBe(401);
    const unknown = await api(bridge, 'formatDisk', {});
    expect(unknown.status).toBe(404);
    expect(errorOf(unknown).code).toBe('not_found');
    expect((await api(bridge, 'formatDisk', {}, { 'x-kiosk-token': '' })).status).toBe(401);
    // A settings call is an admin call: refused without the admin session.
    expect((await api(bridge, 'setApiToken', { token: 'x' })).status).toBe(403);
    // The token is not accepted in the query of a call (it would end up in histories and logs).
    const inQuery = await send(bridge.origin, { method: 'POST', path: `/api/status?t=${bridge.token}`, headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(inQuery.status).toBe(401);
  });

  it('a foreign Origin or a wrong Host (DNS rebinding): 403, for calls, events and files', async () => {
    const { bridge } = await setup();
    const foreign = await api(bridge, 'status', {}, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    expect(errorOf(foreign).code).toBe('forbidden');
    expect((await api(bridge, 'status', {}, { origin: 'null' })).status).toBe(403);
    const port = new URL(bridge.origin).port;
    for (const host of [`evil.example:${port}`, `localhost:${port}`, '127.0.0.1:1']) {
      expect((await api(bridge, 'status', {}, { host })).status).toBe(403);
      expect((await send(bridge.origin, { path: '/', headers: { host } })).status).toBe(403);
    }
    expect((await send(bridge.origin, { path: `/api/events?t=${bridge.token}`, headers: { origin: 'http://evil.example' } })).status).toBe(403);
    // Without an Origin header (a top-level navigation, curl), the call goes through.
    expect((await send(bridge.origin, { method: 'POST', path: '/api/status', headers: { 'content-type': 'application/json', 'x-kiosk-token': bridge.token }, body: '{}' })).status).toBe(200);
  });

  it('admin calls need a session: refused before login and with a wrong PIN, allowed with the right one, refused again after lock', async () => {
    const { bridge, agent } = await setup();
    const before = await api(bridge, 'listRejected', {});
    expect(before.status).toBe(403);
    expect(errorOf(before).code).toBe('forbidden');

    const wrong = await api(bridge, 'adminLogin', { pin: '000000' });
    expect(json(wrong)).toMatchObject({ ok: true, value: { ok: false, code: 'wrong_pin' } });
    expect((await api(bridge, 'listRejected', {})).status).toBe(403);

    const right = callResultSchema('adminLogin').parse(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN })));
    expect(right).toMatchObject({ ok: true, value: { ok: true, expiresAt: expect.any(Number) } });
    expect(json(await api(bridge, 'listRejected', {}))).toEqual({ ok: true, value: [] });
    expect(json(await api(bridge, 'retryRejected', { punchId: 999_999 }))).toMatchObject({ ok: true, value: { ok: false } });
    expect(json(await api(bridge, 'enrollBadge', { code: 'CARD-WEB-1', employee: '1003' }))).toMatchObject({ ok: true, value: { ok: true } });
    expect(await agent.punch({ kind: 'badge', value: 'CARD-WEB-1' })).toMatchObject({ ok: true, employeeExternalId: '1003' });
    expect(json(await api(bridge, 'syncRoster', {}))).toMatchObject({ ok: true, value: { ok: true, employees: expect.any(Number) } });

    expect(json(await api(bridge, 'lock', {}))).toEqual({ ok: true, value: { ok: true } });
    expect((await api(bridge, 'listRejected', {})).status).toBe(403);
    expect((await api(bridge, 'retryRejected', { punchId: 1 })).status).toBe(403);
  });

  it('admin answers carry a code and params for the screen to word them, and no params value holds a PIN', async () => {
    const { bridge, agent, mock } = await setup();
    await api(bridge, 'adminLogin', { pin: ADMIN_PIN });
    const answers: unknown[] = [];
    const call = async (name: string, body: unknown): Promise<unknown> => {
      const r = json(await api(bridge, name, body)) as { ok: boolean; value?: unknown };
      expect(r.ok, `${name} answered`).toBe(true);
      answers.push(r.value);
      return r.value;
    };
    const name = (ext: string): string => mock.employees().find((e) => e.external_id === ext)?.full_name ?? '?';

    // retryRejected: a punch the service refused, fixed and queued again; a punch that is not rejected.
    mock.setActive('1005', false);
    expect(await agent.punch({ kind: 'id', value: '1005' })).toMatchObject({ ok: true });
    await waitFor(() => agent.status().queue.rejected === 1, 'the punch rejected by the API');
    const rejected = agent.listRejected()[0];
    mock.setActive('1005', true);
    expect(await call('retryRejected', { punchId: rejected?.id })).toEqual({
      ok: true,
      code: 'retry_queued',
      params: { id: String(rejected?.id) },
    });
    expect(await call('retryRejected', { punchId: 999_999 })).toMatchObject({ ok: false, code: 'retry_not_rejected', params: { id: '999999' } });

    // PINs: set, malformed, for nobody, cleared, cleared again.
    expect(await call('setPin', { employee: '1008', pin: '4321' })).toMatchObject({ ok: true, code: 'pin_set', params: { name: name('1008') } });
    expect(await call('setPin', { employee: '1008', pin: '12' })).toMatchObject({ ok: false, code: 'pin_bad_format', params: { min: '4', max: '8' } });
    expect(await call('setPin', { employee: '9999', pin: '4321' })).toMatchObject({ ok: false, code: 'employee_not_found', params: { query: '9999' } });
    expect(await call('clearPin', { employee: '1008' })).toMatchObject({ ok: true, code: 'pin_cleared', params: { name: name('1008') } });
    expect(await call('clearPin', { employee: '1008' })).toMatchObject({ ok: false, code: 'pin_not_set', params: { name: name('1008') } });

    // Badges: enrolled, moved to someone else, refused, removed, not enrolled; a scan that never comes.
    expect(await call('enrollBadge', { code: 'CARD-CODE-1', employee: '1003' })).toMatchObject({
      ok: true,
      code: 'badge_enrolled',
      params: { name: name('1003') },
      employeeId: expect.any(String),
    });
    expect(await call('enrollBadge', { code: 'CARD-CODE-1', employee: '1004' })).toMatchObject({
      ok: true,
      code: 'badge_moved',
      params: { name: name('1004'), previousName: name('1003') },
    });
    expect(await call('enrollBadge', { code: 'bad code', employee: '1004' })).toMatchObject({ ok: false, code: 'badge_invalid' });
    expect(await call('enrollBadge', { code: 'CARD-CODE-2', employee: 'nobody' })).toMatchObject({ ok: false, code: 'employee_not_found', params: { query: 'nobody' } });
    expect(await call('unenrollBadge', { code: 'CARD-CODE-1' })).toMatchObject({ ok: true, code: 'badge_unenrolled', params: { badge: 'CARD-CODE-1' } });
    expect(await call('unenrollBadge', { code: 'CARD-CODE-1' })).toMatchObject({ ok: false, code: 'badge_not_enrolled', params: { badge: 'CARD-CODE-1' } });
    expect(await call('enrollNextScan', { employee: '1003', timeoutMs: 1_000 })).toMatchObject({ ok: false, code: 'enroll_timeout', params: { employee: name('1003') } });

    // Every answer is in the contract's shape, and no params value holds a PIN (the PINs typed above).
    for (const a of answers) {
      expect(a).toMatchObject({ code: expect.any(String) });
      expect(a).not.toHaveProperty('message');
      for (const v of Object.values((a as { params?: Record<string, string> }).params ?? {})) {
        for (const pin of ['4321', ADMIN_PIN]) expect(v).not.toContain(pin);
      }
    }
  });

  it('the admin session ends after adminIdleMs without an admin call, and by adminLogout', async () => {
    const { bridge, clock } = await setup({ adminIdleMs: 60_000 });
    await api(bridge, 'adminLogin', { pin: ADMIN_PIN });
    clock.t += 50_000;
    expect((await api(bridge, 'listRejected', {})).status).toBe(200); // use keeps it alive
    clock.t += 50_000;
    expect((await api(bridge, 'listRejected', {})).status).toBe(200);
    clock.t += 60_001;
    expect((await api(bridge, 'listRejected', {})).status).toBe(403);
    await api(bridge, 'adminLogin', { pin: ADMIN_PIN });
    expect((await api(bridge, 'listRejected', {})).status).toBe(200);
    await api(bridge, 'adminLogout', {});
    expect((await api(bridge, 'listRejected', {})).status).toBe(403);
  });

  it('five wrong PINs in a row lock admin login for a minute; without adminPin there is no admin', async () => {
    const { bridge, clock } = await setup();
    for (let i = 0; i < 5; i++) await api(bridge, 'adminLogin', { pin: `00000${i}` });
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: false, code: 'too_many' } });
    clock.t += 60_001;
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: true } });

    const { bridge: plain } = await setup({ adminPin: null });
    expect(json(await api(plain, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: false, code: 'disabled' } });
    expect((await api(plain, 'syncRoster', {})).status).toBe(403);
  });

  it('with no manager PIN ever set, the login says so (the keypad tells how to set one) instead of "wrong PIN", and counts no failure', async () => {
    let set = false;
    const { bridge } = await setup({ adminPin: { verify: async (pin) => set && pin === ADMIN_PIN, isSet: () => set } });
    for (let i = 0; i < 6; i++) expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: false, code: 'no_admin_pin' } });
    expect((await api(bridge, 'syncRoster', {})).status).toBe(403);
    // Once one is set (timeclock pin set-admin), it opens at once: the tries before were not wrong PINs.
    set = true;
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: true, code: 'opened' } });
  });
});

describe('wrong-shaped input', () => {
  it('gets a typed 400 (with where it was wrong), and the bridge keeps serving', async () => {
    const { bridge, agent } = await setup();
    const cases: Array<[string, string | unknown]> = [
      ['missing fields', { credential: { kind: 'id' } }],
      ['no credential', {}],
      ['huge string', { credential: { kind: 'id', value: 'x'.repeat(5_000) } }],
      ['wrong kind', { credential: { kind: 'pin', value: '1' } }],
      ['extra key', { credential: { kind: 'id', value: '1002' }, admin: true }],
      ['array', [{ credential: { kind: 'id', value: '1002' } }]],
      ['null', null],
      ['not JSON', '{"credential": '],
      ['prototype key', '{"__proto__": {"admin": true}, "credential": {"kind": "id", "value": "1002"}}'],
    ];
    for (const [what, body] of cases) {
      const r = await api(bridge, 'punch', body);
      expect(r.status, what).toBe(400);
      expect(errorOf(r).code, what).toBe('bad_request');
      expect((await api(bridge, 'status', {})).status, `still serving after ${what}`).toBe(200);
    }
    expect(errorOf(await api(bridge, 'punch', { credential: { kind: 'id' } })).issues).toEqual([{ path: ['credential', 'value'], message: expect.any(String) }]);
    expect((await api(bridge, 'punch', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await api(bridge, 'punch', JSON.stringify({ credential: { kind: 'id', value: 'y'.repeat(100_000) } }))).status).toBe(413);
    expect((await send(bridge.origin, { path: '/api/status', headers: { 'x-kiosk-token': bridge.token } })).status).toBe(405);
    expect((await api(bridge, 'status', {})).status).toBe(200);
    expect(agent.status().queue.pending + agent.status().queue.sent).toBe(0);
  });

  it('an agent answer outside the contract is a 500 internal error, logged by call name, its content not sent', async () => {
    const { bridge } = await setup({}, (a) => ({
      punch: a.punch.bind(a),
      scanned: a.scanned.bind(a),
      answerPin: a.answerPin.bind(a),
      status: () => ({ ...a.status(), queue: 'broken', apiToken: API_TOKEN }) as unknown as AgentStatus,
      syncRoster: a.syncRoster.bind(a),
      listUnresolved: a.listUnresolved.bind(a),
      confirmRosterShrink: a.confirmRosterShrink.bind(a),
      retryRejected: a.retryRejected.bind(a),
      retryAllRejected: a.retryAllRejected.bind(a),
      listHeld: a.listHeld.bind(a),
      decideHeld: a.decideHeld.bind(a),
      listRejected: a.listRejected.bind(a),
      enrollNextScan: a.enrollNextScan.bind(a),
      admin: a.admin,
      on: a.on.bind(a),
      setApiToken: a.setApiToken.bind(a),
      setSite: a.setSite.bind(a),
      setRateBudget: a.setRateBudget.bind(a),
      receipt: a.receipt.bind(a),
      auditCompare: a.auditCompare.bind(a),
      auditCompareState: a.auditCompareState.bind(a),
      afd: a.afd,
    }));
    const r = await api(bridge, 'status', {});
    expect(r.status).toBe(500);
    expect(errorOf(r)).toEqual({ code: 'internal', message: 'the call failed' });
    expect(logLines.some((l) => l.includes('outside the contract') && l.includes('"call":"status"'))).toBe(true);
  });
});

describe('events', () => {
  it('a subscriber gets the status at once and a punch event with the result; unsubscribed on close', async () => {
    const { bridge, agent } = await setup();
    expect((await send(bridge.origin, { path: '/api/events' })).status).toBe(401);
    expect((await send(bridge.origin, { path: '/api/events?t=bad' })).status).toBe(401);

    const u = new URL(bridge.origin);
    let buf = '';
    const req = http.get({ host: u.hostname, port: u.port, path: `/api/events?t=${bridge.token}`, headers: { origin: bridge.origin } });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    res.on('data', (c: Buffer) => (buf += c.toString('utf8')));
    await waitFor(() => buf.includes('event: status\n'), 'the first status event');

    const answer = await api(bridge, 'punch', { credential: { kind: 'id', value: '1004' } });
    expect(answer.status).toBe(200);
    await waitFor(() => buf.includes('event: punch\n'), 'the punch event');
    const data = /event: punch\ndata: (.*)\n\n/.exec(buf)?.[1] ?? '';
    expect(JSON.parse(data)).toEqual((json(answer) as { value: unknown }).value);
    seen.push(buf);

    req.destroy();
    await new Promise((r) => setTimeout(r, 50));
    buf = '';
    await agent.punch({ kind: 'id', value: '1005' });
    await new Promise((r) => setTimeout(r, 50));
    expect(buf).toBe('');
  });

  it('a punch call’s requestId comes back in the punch event of its result (src/bridge), and a punch no call asked for has none', async () => {
    const { bridge, agent } = await setup();
    const stream = listen(bridge);
    await waitFor(() => stream.text().includes('event: status\n'), 'the first status event');
    const punches = () => [...stream.text().matchAll(/event: punch\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1] ?? '') as Record<string, unknown>);

    const answer = await api(bridge, 'badgeScan', { code: 'NOBODY-2', source: 'wedge', requestId: 'screen-2' });
    await waitFor(() => punches().length === 1, 'the punch event');
    expect(punches()[0]).toEqual({ ...(json(answer) as { value: object }).value, requestId: 'screen-2' });
    await agent.punch({ kind: 'id', value: '1005' });
    await waitFor(() => punches().length === 2, 'the second punch event');
    expect(punches()[1]).not.toHaveProperty('requestId');
    seen.push(stream.text());
  });

  it('sends heartbeat comments', async () => {
    const { bridge } = await setup({ heartbeatMs: 30 });
    const stream = listen(bridge);
    await waitFor(() => stream.text().includes(': heartbeat\n\n'), 'a heartbeat');
  });
});

describe('the renderer files', () => {
  it('/ is index.html with the strict headers; files get their content type', async () => {
    const { bridge } = await setup();
    const r = await send(bridge.origin, { path: `/?t=${bridge.token}` });
    expect(r.status).toBe(200);
    expect(r.text).toBe(INDEX);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = r.headers['content-security-policy'] ?? '';
    for (const d of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'none'"]) {
      expect(csp).toContain(d);
    }
    expect(r.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    expect((await send(bridge.origin, { path: '/app.js' })).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await send(bridge.origin, { path: '/nope.css' })).status).toBe(404);
    expect((await send(bridge.origin, { method: 'POST', path: '/index.html', body: 'x' })).status).toBe(405);
  });

  it('no way out of the renderer directory', async () => {
    const { bridge, root } = await setup();
    fs.symlinkSync(path.join(root, '..', 'package.json'), path.join(root, 'linked.json'));
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/%2E%2E%2Fpackage.json', '/..%2fpackage.json', '/..%5cpackage.json', '/%00', '/%E0%A4%A', '/linked.json', '//etc/passwd', '/.']) {
      const r = await send(bridge.origin, { path: p });
      expect(r.status, p).toBe(404);
      expect(r.text, p).not.toContain('outside the renderer');
    }
  });
});

describe('listening', () => {
  it('refuses to start on a host that is not loopback', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = {} as unknown as Agent;
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'localhost', 'example.com', '']) {
      await expect(startWebBridge({ agent, host, port: 0, rendererDir: t.dir, adminPin: null }), host).rejects.toThrow(/loopback only/);
    }
  });
});
