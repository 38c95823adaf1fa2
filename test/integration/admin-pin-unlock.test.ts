/**
 * A lockout that cannot lock the manager out (issue 25): after wrong manager PINs the admin login
 * says "locked for N min" (never "wrong PIN", even to the right one), and `timeclock pin unlock`,
 * run on the box in another process, lifts the lock for the running bridge at once, audited.
 * Punches are never touched. The real PIN store (SQLite, scrypt) behind the real web bridge, a
 * stepped clock for the bridge side, and the built CLI.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIdentityAdmin, realRuntime } from '../../src/agent/build-agent.js';
import { ADMIN_PIN_ID } from '../../src/agent/identity/identity-admin.js';
import { loadConfig } from '../../src/config.js';
import { t } from '../../src/messages/catalogue.js';
import { silentLogger } from '../../src/log.js';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { openDatabase } from '../../src/store/database.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';
import { ADMIN_PIN, json, webBridgeRig } from '../helpers/web-bridge-rig.js';

const rig = webBridgeRig();
const FIFTEEN_MIN = 15 * 60_000;

/** The PIN store of a data directory, as `timeclock pin` opens it, on a clock the test steps. */
function pinsOn(dataDir: string) {
  const clock = { t: Date.now(), now: () => clock.t };
  const { config } = loadConfig({ env: { TIMECLOCK_DATA_DIR: dataDir } });
  const store = buildIdentityAdmin(config, { ...realRuntime(silentLogger), clock });
  rig.cleanups.push(() => store.close());
  return { clock, admin: store.admin };
}

const loginCode = async (bridge: Parameters<typeof rig.api>[0], pin: string) =>
  (json(await rig.api(bridge, 'adminLogin', { pin })) as { value: { ok: boolean; code: string; lockedForMs?: number } })
    .value;

describe('the manager PIN’s lockout', () => {
  it('says "locked for N min" to every PIN during the lock, punches go on, and `timeclock pin unlock` on the box lets the manager in at once (audited)', async () => {
    const t0 = tempDir();
    rig.cleanups.push(t0.cleanup);
    const dataDir = path.join(t0.dir, 'pins');
    const pins = pinsOn(dataDir);
    expect((await pins.admin.setAdminPin(ADMIN_PIN)).ok).toBe(true);
    const { agent, bridge } = await rig.setup({
      adminPin: { verify: (pin) => pins.admin.checkAdminPin(pin), isSet: () => pins.admin.hasAdminPin() },
    });

    // A passer-by types wrong PINs (each a little later: the store slows repeated tries).
    for (let i = 1; i <= 4; i++) {
      expect(await loginCode(bridge, `99990${i}`)).toMatchObject({ ok: false, code: 'wrong_pin' });
      pins.clock.t += 40_000;
    }
    const fifth = await loginCode(bridge, '999905');
    expect(fifth).toEqual({ ok: false, code: 'too_many', lockedForMs: FIFTEEN_MIN });

    // The manager's right PIN during the lock: locked, with the minutes left, never "wrong".
    pins.clock.t += 60_000;
    const right = await loginCode(bridge, ADMIN_PIN);
    expect(right).toEqual({ ok: false, code: 'too_many', lockedForMs: FIFTEEN_MIN - 60_000 });
    expect((await rig.api(bridge, 'listRejected', {})).status).toBe(403);
    // What the screen shows for it, in its three languages.
    const n = Math.ceil((right.lockedForMs ?? 0) / 60_000);
    expect(t('pt-BR', 'admin.lockedFor', { n })).toMatch(/^Bloqueado por 14 min\b.*timeclock pin unlock/);
    expect(t('es', 'admin.lockedFor', { n })).toMatch(/^Bloqueado por 14 min\b/);
    expect(t('en', 'admin.lockedFor', { n })).toMatch(/^Locked for 14 min\b/);

    // Punches are not touched by the manager's lock.
    expect(await agent.punch({ kind: 'id', value: '1003' })).toMatchObject({ ok: true, employeeExternalId: '1003' });

    // On the box: `timeclock pin unlock`, another process on the same database.
    const env = { TIMECLOCK_DATA_DIR: dataDir, LANG: 'C' };
    const unlocked = await runCli(['pin', 'unlock'], env);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toMatch(/^Manager PIN unlocked/);
    expect(await loginCode(bridge, ADMIN_PIN)).toMatchObject({ ok: true, code: 'opened' });
    expect((await rig.api(bridge, 'listRejected', {})).status).toBe(200);

    // Again, with no lock in force: said so, exit 0.
    const again = await runCli(['pin', 'unlock'], { ...env, LANG: 'pt_BR.UTF-8' });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/não estava bloqueado/);
    expect((await runCli(['pin', 'unlock', 'extra'], env)).code).toBe(2);

    // The audit log says who lifted the lock and what was cleared; the PIN never appears.
    const db = openDatabase(dataDir);
    const entries = new AuditLog(db).recent(50).filter((e) => e.event === 'pin_unlocked');
    db.close();
    expect(entries.map((e) => [e.employeeId, e.detail])).toEqual([
      [
        ADMIN_PIN_ID,
        expect.stringMatching(/^not locked \(0 wrong PINs in a row cleared\) by timeclock pin unlock \(uid \d+\)$/),
      ],
      [
        ADMIN_PIN_ID,
        expect.stringMatching(/^lock lifted \(5 wrong PINs in a row cleared\) by timeclock pin unlock \(uid \d+\)$/),
      ],
    ]);
    for (const e of entries) expect(e.detail).not.toContain(ADMIN_PIN);
  });
});
