/**
 * The web bridge against a real agent (real SQLite, real mock API) on 127.0.0.1: the contract's
 * calls over HTTP, typed refusals of wrong-shaped input, the event stream, the renderer's static
 * files, and loopback only. Who may call (token, Host, Origin, admin session) is in
 * web-bridge-access.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { AgentStatus } from '../../src/agent/status/status.js';
import { callResultSchema } from '../../src/contract.js';
import { startWebBridge } from '../../src/web/web-bridge.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { API_TOKEN, errorOf, INDEX, json, webBridgeRig } from '../helpers/web-bridge-rig.js';

const { cleanups, seen, logLines, send, setup, api, listen } = webBridgeRig();

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
    expect(errorOf(await api(bridge, 'punch', { credential: { kind: 'id' } })).issues).toEqual([
      { path: ['credential', 'value'], message: expect.any(String) },
    ]);
    expect((await api(bridge, 'punch', '{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await api(bridge, 'punch', JSON.stringify({ credential: { kind: 'id', value: 'y'.repeat(100_000) } }))).status,
    ).toBe(413);
    expect(
      (await send(bridge.origin, { path: '/api/status', headers: { 'x-kiosk-token': bridge.token } })).status,
    ).toBe(405);
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
      receiptPdf: a.receiptPdf.bind(a),
      auditCompare: a.auditCompare.bind(a),
      auditCompareState: a.auditCompareState.bind(a),
      afd: a.afd,
      forgotPin: a.forgotPin.bind(a),
      listPinResets: a.listPinResets.bind(a),
      presence: a.presence,
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
    const req = http.get({
      host: u.hostname,
      port: u.port,
      path: `/api/events?t=${bridge.token}`,
      headers: { origin: bridge.origin },
    });
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
    const punches = () =>
      [...stream.text().matchAll(/event: punch\ndata: (.*)\n\n/g)].map(
        (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
      );

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
    for (const d of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ]) {
      expect(csp).toContain(d);
    }
    expect(r.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    expect((await send(bridge.origin, { path: '/app.js' })).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await send(bridge.origin, { path: '/nope.css' })).status).toBe(404);
    expect((await send(bridge.origin, { method: 'POST', path: '/index.html', body: 'x' })).status).toBe(405);
  });

  it('no way out of the renderer directory', async () => {
    const { bridge, root } = await setup();
    fs.symlinkSync(path.join(root, '..', 'package.json'), path.join(root, 'linked.json'));
    for (const p of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/%2E%2E%2Fpackage.json',
      '/..%2fpackage.json',
      '/..%5cpackage.json',
      '/%00',
      '/%E0%A4%A',
      '/linked.json',
      '//etc/passwd',
      '/.',
    ]) {
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
      await expect(startWebBridge({ agent, host, port: 0, rendererDir: t.dir, adminPin: null }), host).rejects.toThrow(
        /loopback only/,
      );
    }
  });
});
