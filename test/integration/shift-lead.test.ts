/**
 * The shift lead's PIN (issue 29) through the web bridge of a real agent (real SQLite, the mock API
 * on loopback): set by the manager, stored as the admin PIN is, and a session that may only confirm
 * punches held for an unverified PIN and set a worker's PIN. Every admin call of the contract is
 * tried with the shift lead's session; all but those answer `forbidden`.
 */
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SHIFT_LEAD_CALLS, SHIFT_LEAD_PIN_ID } from '../../src/agent/identity/shift-lead.js';
import { runCli } from '../helpers/cli.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { callNames, calls } from '../../src/contract.js';
import { startWebBridge } from '../../src/web/web-bridge.js';
import { agentWithRenderer } from '../helpers/bridge-setup.js';
import { API_TOKEN, errorOf, INDEX, json, webBridgeRig } from '../helpers/web-bridge-rig.js';

const rig = webBridgeRig();
/** A call's answer (the bridge's envelope opened). */
const val = (r: Parameters<typeof json>[0]): unknown => (json(r) as { value?: unknown }).value;
const MANAGER_PIN = '582913';
const LEAD_PIN = '7346';

async function setup(): Promise<{
  agent: Agent;
  bridge: Awaited<ReturnType<typeof startWebBridge>>;
  env: Record<string, string>;
  dataDir: string;
}> {
  const { agent, root, mock, dataDir } = await agentWithRenderer(
    rig.cleanups,
    API_TOKEN,
    { 'index.html': INDEX, 'app.js': '' },
    () => ({ settings: { pin: { requiredFor: ['id'] } } }),
  );
  expect(await agent.admin.setAdminPin(MANAGER_PIN)).toMatchObject({ ok: true });
  const bridge = await startWebBridge({
    agent,
    host: '127.0.0.1',
    port: 0,
    rendererDir: root,
    adminPin: { verify: (pin) => agent.admin.checkLoginPin(pin), isSet: () => agent.admin.hasAdminPin() },
  });
  rig.cleanups.push(() => bridge.close());
  const env = {
    TIMECLOCK_API_URL: mock.url,
    TIMECLOCK_API_TOKEN: API_TOKEN,
    TIMECLOCK_DATA_DIR: dataDir,
    TIMECLOCK_LOG_LEVEL: 'error',
  };
  return { agent, bridge, env, dataDir };
}

describe("the shift lead's PIN (issue 29)", () => {
  it('set by the manager; its session reaches only held punches to confirm and PIN resets: every other admin call is forbidden', async () => {
    const { agent, bridge } = await setup();
    const manager = rig.client();
    const lead = rig.client();
    // Before the manager sets it, the shift lead's PIN opens nothing.
    expect(val(await lead(bridge, 'adminLogin', { pin: LEAD_PIN }))).toMatchObject({ ok: false, code: 'wrong_pin' });
    expect(val(await manager(bridge, 'adminLogin', { pin: MANAGER_PIN }))).toMatchObject({ ok: true, role: 'manager' });
    expect(val(await manager(bridge, 'setShiftLeadPin', { pin: LEAD_PIN }))).toMatchObject({
      ok: true,
      code: 'lead_pin_set',
    });

    // A worker forgot the PIN: the punch is taken and held, and a reset request is left.
    const forgot = val(await rig.api(bridge, 'forgotPin', { credential: { kind: 'id', value: '1001' } }));
    expect(forgot).toMatchObject({ ok: true, note: 'held_pin_unverified', employeeExternalId: '1001' });
    const punchId = (forgot as { punchId: number }).punchId;
    // The worker's receipt (its QR text, and the PDF made from it) says the punch awaits the manager.
    expect((forgot as { receipt?: unknown }).receipt).toMatchObject({
      awaitingConfirmation: true,
      text: expect.stringContaining('Aguardando confirmação do gestor: PIN não verificado'),
    });

    // The shift lead's login many times over costs the manager's PIN no strike.
    for (let i = 0; i < 6; i++)
      expect(val(await lead(bridge, 'adminLogin', { pin: LEAD_PIN }))).toMatchObject({ ok: true, role: 'lead' });
    const tried: string[] = [];
    for (const name of callNames) {
      if (!calls[name].admin || SHIFT_LEAD_CALLS.has(name)) continue;
      const r = await lead(bridge, name, {});
      expect(r.status, name).toBe(403);
      expect(errorOf(r).code, name).toBe('forbidden');
      tried.push(name);
    }
    expect(tried).toContain('setShiftLeadPin');
    expect(tried).toContain('exportAfd');
    expect(tried.length).toBe(callNames.filter((n) => calls[n].admin).length - SHIFT_LEAD_CALLS.size);
    // The manager's session is its own: still open, every call answered.
    expect((await manager(bridge, 'listWaiting', {})).status).toBe(200);

    // What the shift lead may do: list, and confirm only; no dispute, no "delivered".
    const held = val(await lead(bridge, 'listHeld', {})) as Array<{ id: number; held_reason: string }>;
    expect(held).toEqual([expect.objectContaining({ id: punchId, held_reason: 'pin_unverified' })]);
    expect(val(await lead(bridge, 'listPinResets', {}))).toEqual([
      expect.objectContaining({ employee: '1001', name: 'Ana Paula Ferreira da Silva' }),
    ]);
    expect(errorOf(await lead(bridge, 'decideHeld', { punchId, decision: 'dispute', reason: 'no' })).code).toBe(
      'forbidden',
    );
    expect(errorOf(await lead(bridge, 'decideHeld', { punchId, decision: 'delivered' })).code).toBe('forbidden');
    expect(agent.status().queue.held).toBe(1);
    expect(val(await lead(bridge, 'decideHeld', { punchId, decision: 'resend' }))).toMatchObject({
      ok: true,
      code: 'held_resend_queued',
    });
    expect(val(await lead(bridge, 'setPin', { employee: '1001', pin: '4826' }))).toMatchObject({
      ok: true,
      code: 'pin_set',
    });
    expect(val(await lead(bridge, 'listPinResets', {}))).toEqual([]);
    // The worker's new PIN works.
    expect(await agent.punch({ kind: 'id', value: '1001' }, { pin: '4826' })).toMatchObject({ ok: true });
    // A wrong PIN at the login counts against both PINs: the shift lead's is locked by guessing too.
    for (let i = 0; i < 5; i++) await rig.client()(bridge, 'adminLogin', { pin: '0000' });
    expect(val(await lead(bridge, 'adminLogin', { pin: LEAD_PIN }))).toMatchObject({ ok: false, code: 'too_many' });
  });

  it("the shift lead's PIN is stored hashed, as the manager's, and set from the command line too", async () => {
    const { agent, env, dataDir } = await setup();
    expect(await agent.admin.setShiftLeadPin('12')).toMatchObject({ ok: false, code: 'pin_bad_format' });
    const cli = await runCli(['pin', 'set-lead'], env, `${LEAD_PIN}\n`);
    expect(cli.code, cli.stderr).toBe(0);
    const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
    try {
      const row = db.prepare('SELECT hash, params FROM employee_pins WHERE employee_id = ?').get(SHIFT_LEAD_PIN_ID) as {
        hash: Buffer;
        params: string;
      };
      expect(JSON.parse(row.params)).toMatchObject({ alg: 'scrypt' });
      expect(row.hash.length).toBe(32);
      expect(row.hash.toString('latin1')).not.toContain(LEAD_PIN);
    } finally {
      db.close();
    }
    expect(await agent.admin.checkLoginPin(LEAD_PIN)).toEqual({ ok: true, role: 'lead' });
    expect(await agent.admin.checkLoginPin(MANAGER_PIN)).toEqual({ ok: true });
  });
});
