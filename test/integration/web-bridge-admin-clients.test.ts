/**
 * Admin sessions belong to a client (issue 25): the manager's PIN login on the web bridge gives that
 * browser an HttpOnly, SameSite=Strict cookie, and every admin call is gated by it. A second client
 * holding only the page token (another process on the box, a copied URL) gets 403 on every admin
 * call, cannot end the manager's session, and shares the count of wrong PINs. Real agent, real
 * SQLite, real mock API, the real bridge on 127.0.0.1, two HTTP clients.
 */
import { describe, expect, it } from 'vitest';
import { calls, callNames } from '../../src/contract.js';
import { ADMIN_PIN, errorOf, json, webBridgeRig, type Reply } from '../helpers/web-bridge-rig.js';

const rig = webBridgeRig();
const { setup, api: manager, client } = rig;

const ADMIN_CALLS = callNames.filter((n) => calls[n].admin);
const cookieLine = (r: Reply): string => {
  const lines = r.headers['set-cookie'] ?? [];
  expect(lines).toHaveLength(1);
  return lines[0] ?? '';
};

describe('admin sessions per client on the web bridge', () => {
  it('the PIN login sets an HttpOnly, SameSite=Strict cookie on the bridge’s origin; a second client with the page token alone gets 403 on every admin call', async () => {
    const { bridge } = await setup();
    const intruder = client();
    expect(ADMIN_CALLS).toEqual(
      expect.arrayContaining(['findPunches', 'afdTargets', 'setApiToken', 'setSite', 'exportAfd', 'exportPunchesCsv']),
    );

    const login = await manager(bridge, 'adminLogin', { pin: ADMIN_PIN });
    expect(json(login)).toMatchObject({ ok: true, value: { ok: true, code: 'opened' } });
    const line = cookieLine(login);
    const secret = /^kiosk-admin=([0-9a-f]{64}); /.exec(line)?.[1] ?? '';
    expect(secret).toHaveLength(64);
    const attrs = line
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attrs.sort()).toEqual(['httponly', 'path=/', 'samesite=strict']); // no Domain, no Expires: this browser's, this origin's
    expect(login.text).not.toContain(secret); // the page's script never sees it

    // The manager's browser: the admin calls answer.
    expect((await manager(bridge, 'findPunches', { employee: '1003' })).status).toBe(200);
    expect((await manager(bridge, 'afdTargets', {})).status).toBe(200);

    // The second client: the same page token, every admin call refused before it runs.
    for (const name of ADMIN_CALLS) {
      const r = await intruder(bridge, name, {});
      expect(r.status, name).toBe(403);
      expect(errorOf(r).code, name).toBe('forbidden');
    }
    // Guessed or malformed cookies are no better.
    for (const cookie of [
      `kiosk-admin=${'0'.repeat(64)}`,
      `kiosk-admin=${secret.slice(0, 63)}`,
      `kiosk-admin=${secret.toUpperCase()}`,
      `other=${secret}`,
    ]) {
      expect((await intruder(bridge, 'setSite', { siteId: 'x' }, { cookie })).status, cookie).toBe(403);
    }
    // Its logout, lock and wrong PIN do not end the manager's session.
    await intruder(bridge, 'adminLogout', {});
    await intruder(bridge, 'lock', {});
    expect(json(await intruder(bridge, 'adminLogin', { pin: '000000' }))).toMatchObject({
      ok: true,
      value: { ok: false, code: 'wrong_pin' },
    });
    expect((await manager(bridge, 'findPunches', { employee: '1003' })).status).toBe(200);

    // The manager locks: the cookie is cleared, and the old secret replayed is refused.
    const lock = await manager(bridge, 'lock', {});
    expect(cookieLine(lock)).toMatch(/^kiosk-admin=; .*Max-Age=0/);
    expect((await manager(bridge, 'afdTargets', {})).status).toBe(403);
    expect((await intruder(bridge, 'afdTargets', {}, { cookie: `kiosk-admin=${secret}` })).status).toBe(403);
    for (const s of [...rig.seen, ...rig.logLines]) expect(s).not.toContain(secret);
  });

  it('two managers’ browsers each have their own session; each ends by its own logout or idleness, as before', async () => {
    const { bridge, clock } = await setup({ adminIdleMs: 60_000 });
    const other = client();
    await manager(bridge, 'adminLogin', { pin: ADMIN_PIN });
    await other(bridge, 'adminLogin', { pin: ADMIN_PIN });
    expect((await manager(bridge, 'listRejected', {})).status).toBe(200);
    expect((await other(bridge, 'listRejected', {})).status).toBe(200);
    await other(bridge, 'adminLogout', {});
    expect((await other(bridge, 'listRejected', {})).status).toBe(403);
    expect((await manager(bridge, 'listRejected', {})).status).toBe(200);
    clock.t += 59_000;
    expect((await manager(bridge, 'listRejected', {})).status).toBe(200); // use keeps it alive
    clock.t += 60_001;
    expect((await manager(bridge, 'listRejected', {})).status).toBe(403);
    // An expired session's cookie opens nothing again; a new login gives a new one.
    const again = await manager(bridge, 'adminLogin', { pin: ADMIN_PIN });
    expect(cookieLine(again)).toMatch(/^kiosk-admin=[0-9a-f]{64}; /);
    expect((await manager(bridge, 'listRejected', {})).status).toBe(200);
  });

  it('wrong PINs count for the bridge, not per client: five clients with one wrong PIN each lock the login for every client', async () => {
    const { bridge, clock } = await setup();
    for (let i = 0; i < 5; i++) await client()(bridge, 'adminLogin', { pin: `00000${i}` });
    const r = json(await manager(bridge, 'adminLogin', { pin: ADMIN_PIN }));
    expect(r).toMatchObject({ ok: true, value: { ok: false, code: 'too_many', lockedForMs: 60_000 } });
    expect((await manager(bridge, 'listRejected', {})).status).toBe(403);
    clock.t += 60_001;
    expect(json(await manager(bridge, 'adminLogin', { pin: ADMIN_PIN }))).toMatchObject({
      ok: true,
      value: { ok: true },
    });
  });
});
