/**
 * What the roster must never cost a worker (issue 10): a roster that shrinks by accident, a
 * terminal with no roster yet, and an employee whose contract forbids API records. Capture →
 * roster → upload against the mock each time.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { deliveredFor, punchAll, rosterRig } from '../helpers/roster-rig.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('a roster that cannot shrink by accident', () => {
  it('less than half arrives: held, the old roster stays and the screen says why; a manager confirms it', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 40, roster: { shrinkRecheckMs: 60_000 } });
    await agent.start({ awaitRosterIfEmpty: true });
    for (const e of mock.employees().slice(0, 25)) mock.setActive(e._id, false);
    const res = await agent.syncRoster();
    expect(res).toMatchObject({ ok: false, outcome: 'shrink_held', staged: 15, inUse: 40 });
    expect(agent.status().roster).toMatchObject({ size: 40, complete: true, heldShrink: { employees: 15, inUse: 40 } });
    // Somebody the smaller list lacks still punches by name meanwhile.
    expect(await agent.punch({ kind: 'id', value: '100001' })).toMatchObject({
      ok: true,
      employeeName: expect.any(String),
    });

    expect(agent.confirmRosterShrink()).toMatchObject({ ok: true, code: 'roster_shrink_applied' });
    expect(agent.status().roster).toMatchObject({ size: 15, heldShrink: null, lastSync: { ok: true } });
    expect(agent.confirmRosterShrink()).toMatchObject({ ok: false, code: 'roster_shrink_none' });
  });

  it('a second sync a few minutes later that agrees applies it by itself', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 40, roster: { shrinkRecheckMs: 300 } });
    await agent.start({ awaitRosterIfEmpty: true });
    for (const e of mock.employees().slice(0, 30)) mock.setActive(e._id, false);
    expect(await agent.syncRoster()).toMatchObject({ outcome: 'shrink_held' });
    // A sync right away does not count as the second opinion.
    expect(await agent.syncRoster()).toMatchObject({ outcome: 'shrink_held' });
    expect(agent.status().roster.size).toBe(40);
    await waitFor(() => agent.status().roster.size === 10, 'the re-check applied the smaller roster', 5_000);
    expect(agent.status().roster.heldShrink).toBeNull();
  });
});

describe('never turn a worker away for our own ignorance', () => {
  it('first boot offline: punches are kept, the worker is told they will be confirmed, and they are sent at their capture time', async () => {
    const port = await freePort();
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({
      dataDir: t.dir,
      mock: { url: `http://127.0.0.1:${port}/v2.1` },
      settings: { roster: { retryBaseMs: 100, retryMaxMs: 300 } },
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    expect(agent.status().roster).toMatchObject({ size: 0, complete: false });
    // The screen says offline (not "connecting…" for ever), and status says why.
    expect(agent.status()).toMatchObject({
      online: false,
      lastError: { message: expect.stringMatching(/roster sync failed: ECONNREFUSED/) },
    });

    const kept = await agent.punch({ kind: 'id', value: '1001' });
    expect(kept).toMatchObject({ ok: true, note: 'awaiting_roster', employeeName: null, punchId: null });
    const stranger = await agent.punch({ kind: 'badge', value: 'NOBODY-42' });
    expect(stranger).toMatchObject({ ok: true, note: 'awaiting_roster' });
    expect(agent.status().unresolved.count).toBe(2);

    const mock = await startMockServer({ port, rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    await deliveredFor(mock, ['1001'], 10_000);
    const rec = mock.records().find((r) => r.employee_external_id === '1001');
    expect(rec?.time).toBe(`${kept.ok ? kept.localDate : ''}T${kept.ok ? kept.localTime : ''}`);
    // The complete roster does not know the badge: it stays, listed for the manager.
    expect(agent.status().roster.complete).toBe(true);
    expect(agent.listUnresolved()).toEqual([
      expect.objectContaining({ code: 'NOBODY-42', last_checked_at: expect.any(Number) }),
    ]);
    // With a complete roster an unknown code is refused as before (the configured policy).
    expect(await agent.punch({ kind: 'id', value: '999999' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
  });
});

describe('allow_external_api_record', () => {
  it('false: the punch is kept and held, the worker sees a neutral notice; true again releases it with its original time', async () => {
    const seed = generatedSeed({ employees: 10, sites: 1 });
    seed.employees[2]!.contract_data = { ...seed.employees[2]!.contract_data, allow_external_api_record: false };
    seed.employees[3]!.contract_data = { ...seed.employees[3]!.contract_data, allow_external_api_record: true };
    const { mock, agent } = await rosterRig(cleanups, { seed });
    await agent.start({ awaitRosterIfEmpty: true });

    const held = await agent.punch({ kind: 'id', value: '100002' });
    expect(held).toMatchObject({ ok: true, note: 'held_not_allowed', employeeName: seed.employees[2]!.full_name });
    await punchAll(agent, ['100001', '100003']);
    await deliveredFor(mock, ['100001', '100003']);
    const st = agent.status();
    expect(st.queue).toMatchObject({ held: 1, pending: 0 });
    expect(st.roster.notAllowed).toEqual({
      count: 1,
      employees: [expect.objectContaining({ externalId: '100002', heldPunches: 1 })],
    });
    expect(mock.records().some((r) => r.employee_external_id === '100002')).toBe(false);

    mock.setAllowExternalApiRecord('100002', undefined); // not defined: allowed
    await agent.syncRoster();
    await deliveredFor(mock, ['100002']);
    const rec = mock.records().find((r) => r.employee_external_id === '100002');
    expect(rec?.time).toBe(held.ok ? `${held.localDate}T${held.localTime}` : '');
    expect(agent.status()).toMatchObject({ queue: { held: 0 }, roster: { notAllowed: { count: 0 } } });
  });

  it('a flag that turns false holds punches still waiting to be sent', async () => {
    const { mock, agent } = await rosterRig(cleanups, { employees: 5 });
    await agent.start({ awaitRosterIfEmpty: true });
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    await punchAll(agent, ['100004']);
    mock.setAllowExternalApiRecord('100004', false);
    // A sync that lands while the punch is out on a request finds it 'sending', not waiting: the next one holds it.
    for (let i = 0; i < 20 && agent.status().queue.held === 0; i++) await agent.syncRoster();
    expect(agent.status().queue).toMatchObject({ held: 1, pending: 0 });
    mock.setFaults(null);
    expect(mock.records()).toHaveLength(0);
    expect(agent.status().roster.notAllowed.employees[0]).toMatchObject({ externalId: '100004', heldPunches: 1 });
  });
});
