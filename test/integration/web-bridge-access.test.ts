/**
 * Who may call the web bridge, against a real agent (real SQLite, real mock API) on 127.0.0.1:
 * the bridge's token, Host and Origin (DNS rebinding), and the admin session (PIN, idle end,
 * lockout after wrong PINs, no PIN set). The calls themselves, wrong-shaped input, the event
 * stream and the renderer's files are in web-bridge.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { callResultSchema } from '../../src/contract.js';
import { waitFor } from '../helpers/temp.js';
import { ADMIN_PIN, errorOf, json, webBridgeRig } from '../helpers/web-bridge-rig.js';

const { send, setup, api } = webBridgeRig();

describe('who may call', () => {
  it('no token or a wrong token: 401; unknown call: 404 (401 without a token)', async () => {
    const { bridge } = await setup();
    const none = await send(bridge.origin, {
      method: 'POST',
      path: '/api/status',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
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
    const inQuery = await send(bridge.origin, {
      method: 'POST',
      path: `/api/status?t=${bridge.token}`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
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
    expect(
      (await send(bridge.origin, { path: `/api/events?t=${bridge.token}`, headers: { origin: 'http://evil.example' } }))
        .status,
    ).toBe(403);
    // Without an Origin header (a top-level navigation, curl), the call goes through.
    expect(
      (
        await send(bridge.origin, {
          method: 'POST',
          path: '/api/status',
          headers: { 'content-type': 'application/json', 'x-kiosk-token': bridge.token },
          body: '{}',
        })
      ).status,
    ).toBe(200);
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
    expect(json(await api(bridge, 'retryRejected', { punchId: 999_999 }))).toMatchObject({
      ok: true,
      value: { ok: false },
    });
    expect(json(await api(bridge, 'enrollBadge', { code: 'CARD-WEB-1', employee: '1003' }))).toMatchObject({
      ok: true,
      value: { ok: true },
    });
    expect(await agent.punch({ kind: 'badge', value: 'CARD-WEB-1' })).toMatchObject({
      ok: true,
      employeeExternalId: '1003',
    });
    expect(json(await api(bridge, 'syncRoster', {}))).toMatchObject({
      ok: true,
      value: { ok: true, employees: expect.any(Number) },
    });

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
    expect(await call('retryRejected', { punchId: 999_999 })).toMatchObject({
      ok: false,
      code: 'retry_not_rejected',
      params: { id: '999999' },
    });

    // PINs: set, malformed, for nobody, cleared, cleared again.
    expect(await call('setPin', { employee: '1008', pin: '4321' })).toMatchObject({
      ok: true,
      code: 'pin_set',
      params: { name: name('1008') },
    });
    expect(await call('setPin', { employee: '1008', pin: '12' })).toMatchObject({
      ok: false,
      code: 'pin_bad_format',
      params: { min: '4', max: '8' },
    });
    expect(await call('setPin', { employee: '9999', pin: '4321' })).toMatchObject({
      ok: false,
      code: 'employee_not_found',
      params: { query: '9999' },
    });
    expect(await call('clearPin', { employee: '1008' })).toMatchObject({
      ok: true,
      code: 'pin_cleared',
      params: { name: name('1008') },
    });
    expect(await call('clearPin', { employee: '1008' })).toMatchObject({
      ok: false,
      code: 'pin_not_set',
      params: { name: name('1008') },
    });

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
    expect(await call('enrollBadge', { code: 'bad code', employee: '1004' })).toMatchObject({
      ok: false,
      code: 'badge_invalid',
    });
    expect(await call('enrollBadge', { code: 'CARD-CODE-2', employee: 'nobody' })).toMatchObject({
      ok: false,
      code: 'employee_not_found',
      params: { query: 'nobody' },
    });
    expect(await call('unenrollBadge', { code: 'CARD-CODE-1' })).toMatchObject({
      ok: true,
      code: 'badge_unenrolled',
      params: { badge: 'CARD-CODE-1' },
    });
    expect(await call('unenrollBadge', { code: 'CARD-CODE-1' })).toMatchObject({
      ok: false,
      code: 'badge_not_enrolled',
      params: { badge: 'CARD-CODE-1' },
    });
    expect(await call('enrollNextScan', { employee: '1003', timeoutMs: 1_000 })).toMatchObject({
      ok: false,
      code: 'enroll_timeout',
      params: { employee: name('1003') },
    });

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
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({
      ok: true,
      value: { ok: false, code: 'too_many' },
    });
    clock.t += 60_001;
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({ ok: true, value: { ok: true } });

    const { bridge: plain } = await setup({ adminPin: null });
    expect(json(await api(plain, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({
      ok: true,
      value: { ok: false, code: 'disabled' },
    });
    expect((await api(plain, 'syncRoster', {})).status).toBe(403);
  });

  it('with no manager PIN ever set, the login says so (the keypad tells how to set one) instead of "wrong PIN", and counts no failure', async () => {
    let set = false;
    const { bridge } = await setup({ adminPin: { verify: async (pin) => set && pin === ADMIN_PIN, isSet: () => set } });
    for (let i = 0; i < 6; i++)
      expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({
        ok: true,
        value: { ok: false, code: 'no_admin_pin' },
      });
    expect((await api(bridge, 'syncRoster', {})).status).toBe(403);
    // Once one is set (timeclock pin set-admin), it opens at once: the tries before were not wrong PINs.
    set = true;
    expect(json(await api(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({
      ok: true,
      value: { ok: true, code: 'opened' },
    });
  });
});
