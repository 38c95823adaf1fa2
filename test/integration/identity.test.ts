import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { cpfFromBase } from '../../src/domain/people/cpf.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed, type MockEmployee } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { punchText } from '../../src/messages/punch-text.js';
import { answerText } from '../../src/messages/catalogue.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function setup(
  settings: Record<string, unknown> = {},
  clock?: { now(): number },
): Promise<{ mock: MockServer; agent: Agent; dir: string; byExt: (ext: string) => MockEmployee }> {
  // One clock for the terminal and the service: the service's Date headers anchor the terminal's time.
  const mock = await startMockServer({
    rateLimit: { limit: 60, windowMs: 1_000 },
    seed: demoSeed(),
    ...(clock ? { clock } : {}),
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({ dataDir: t.dir, mock, settings, clock });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  const byExt = (ext: string) => {
    const e = mock.employees().find((x) => x.external_id === ext);
    if (!e) throw new Error(`no demo employee ${ext}`);
    return e;
  };
  return { mock, agent, dir: t.dir, byExt };
}

const mask = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

describe('credentials resolve to the right employee', () => {
  it('enrolled badge, external id, registration number, and CPF with or without mask', async () => {
    const { agent, byExt } = await setup();
    expect(agent.admin.enrollBadge('CARD-0001', '1001', 'cli')).toMatchObject({ ok: true });
    const ana = byExt('1001').full_name;
    expect(await agent.punch({ kind: 'badge', value: 'CARD-0001' })).toMatchObject({ ok: true, employeeName: ana });

    const e2 = byExt('1002');
    expect(await agent.punch({ kind: 'id', value: '1002' })).toMatchObject({ ok: true, employeeName: e2.full_name });
    const e3 = byExt('1003');
    expect(await agent.punch({ kind: 'id', value: e3.contract_data?.registration_number ?? '?' })).toMatchObject({
      ok: true,
      employeeName: e3.full_name,
    });
    const e4 = byExt('1004');
    expect(await agent.punch({ kind: 'id', value: e4.cpf ?? '?' })).toMatchObject({
      ok: true,
      employeeName: e4.full_name,
    });
    const e5 = byExt('1005');
    expect(await agent.punch({ kind: 'id', value: mask(e5.cpf ?? '') })).toMatchObject({
      ok: true,
      employeeName: e5.full_name,
    });
  });

  it('a CPF with a wrong check digit is refused as such, with or without mask', async () => {
    const { agent, byExt } = await setup();
    const good = byExt('1006').cpf ?? '';
    const bad = good.slice(0, 10) + String((Number(good[10]) + 1) % 10);
    for (const typed of [bad, mask(bad)]) {
      const r = await agent.punch({ kind: 'id', value: typed });
      expect(r).toMatchObject({ ok: false, reason: 'invalid_cpf' });
      expect(punchText('en', r)).toMatch(/CPF inválido/);
    }
    expect(agent.status().queue.pending + agent.status().queue.sent).toBe(0);
  });

  it('each input kind uses only the keys it is allowed: a badge reader cannot punch by CPF', async () => {
    const { agent, byExt } = await setup();
    expect(await agent.punch({ kind: 'badge', value: byExt('1007').cpf ?? '?' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
    expect(await agent.punch({ kind: 'id', value: byExt('1007').cpf ?? '?' })).toMatchObject({ ok: true });
  });

  it('the admin screen\'s "scan to enroll": the next badge scan enrolls instead of punching', async () => {
    const { agent, byExt } = await setup();
    const pending = agent.enrollNextScan('1017', 5_000);
    const scan = await agent.punch({ kind: 'badge', value: '0004177215' });
    expect(scan).toMatchObject({
      ok: false,
      reason: 'enrollment',
      // What the screen words the result from, in its own language.
      enrollment: { ok: true, code: 'badge_enrolled', params: { name: byExt('1017').full_name } },
    });
    expect(await pending).toMatchObject({
      ok: true,
      code: 'badge_enrolled',
      params: { name: byExt('1017').full_name },
    });
    expect(agent.status().queue.pending + agent.status().queue.sent).toBe(0); // the enrolling scan was no punch
    expect(await agent.punch({ kind: 'badge', value: '0004177215' })).toMatchObject({
      ok: true,
      employeeName: byExt('1017').full_name,
    });
    expect(await agent.enrollNextScan('1017', 50)).toMatchObject({
      ok: false,
      code: 'enroll_timeout',
      params: { employee: byExt('1017').full_name },
    });
    expect(await agent.enrollNextScan('no-such-person', 50)).toMatchObject({
      ok: false,
      code: 'employee_not_found',
      params: { query: 'no-such-person' },
    });
    // A second request replaces the first; the scan then moves the badge to the second employee.
    const first = agent.enrollNextScan('1017', 5_000);
    const second = agent.enrollNextScan('1018', 5_000);
    expect(await first).toMatchObject({ ok: false, code: 'enroll_replaced' });
    await agent.punch({ kind: 'badge', value: '0004177215' });
    expect(await second).toMatchObject({
      ok: true,
      code: 'badge_moved',
      params: { name: byExt('1018').full_name, previousName: byExt('1017').full_name },
    });
  });

  it('an unenrolled badge stops resolving; a badge moved to someone else resolves to the new owner', async () => {
    const { agent, byExt } = await setup();
    agent.admin.enrollBadge('CARD-9', '1008', 'cli');
    const moved = agent.admin.enrollBadge('CARD-9', '1009', 'cli');
    expect(moved).toMatchObject({ ok: true, code: 'badge_moved' });
    expect(answerText('en', moved)).toMatch(/belonged to/);
    expect(await agent.punch({ kind: 'badge', value: 'CARD-9' })).toMatchObject({
      ok: true,
      employeeName: byExt('1009').full_name,
    });
    expect(agent.admin.unenrollBadge('CARD-9')).toMatchObject({ ok: true });
    expect(await agent.punch({ kind: 'badge', value: 'CARD-9' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
  });

  it('an employee the service dropped stops resolving (ID and badge) after the next sync, but a punch taken before still goes out', async () => {
    const { mock, agent } = await setup();
    agent.admin.enrollBadge('CARD-11', '1011', 'cli');
    expect(await agent.punch({ kind: 'badge', value: 'CARD-11' })).toMatchObject({ ok: true });
    await waitFor(() => agent.status().queue.sent === 1, 'first punch sent');
    const before = await agent.punch({ kind: 'id', value: '1012' });
    expect(before.ok).toBe(true);
    mock.setActive('1011', false);
    expect((await agent.syncRoster()).ok).toBe(true);
    expect(await agent.punch({ kind: 'badge', value: 'CARD-11' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
    expect(await agent.punch({ kind: 'id', value: '1011' })).toMatchObject({ ok: false, reason: 'unknown_credential' });
    // The enrollment itself survives the sync: it resolves again if the employee comes back.
    mock.setActive('1011', true);
    await agent.syncRoster();
    expect(await agent.punch({ kind: 'badge', value: 'CARD-11' })).toMatchObject({ ok: true, repeat: true });
    await waitFor(() => mock.records().some((r) => r.employee_external_id === '1012'), 'the earlier punch delivered');
  });

  it('an employee without external_id is sent with employee_id', async () => {
    const { mock, agent } = await setup();
    const noExt = mock.employees().find((e) => !e.external_id);
    expect(noExt).toBeDefined();
    expect(agent.admin.enrollBadge('CARD-36', noExt?._id ?? '?', 'cli')).toMatchObject({ ok: true });
    expect(await agent.punch({ kind: 'badge', value: 'CARD-36' })).toMatchObject({
      ok: true,
      employeeExternalId: null,
    });
    await waitFor(() => mock.records().length === 1, 'record delivered');
    expect(mock.records()[0]).toMatchObject({ employee_id: noExt?._id });
    expect(mock.records()[0]?.employee_external_id).toBeUndefined();
  });
});

describe('refusal policies', () => {
  it('accept-and-resolve keeps an unknown badge, never sends it as a guess, and sends it at its capture time once the roster knows it', async () => {
    const { mock, agent } = await setup({ identity: { unknown: 'accept-and-resolve' } });
    const r = await agent.punch({ kind: 'id', value: 'NEW-77' });
    expect(r).toMatchObject({ ok: true, employeeName: null, punchId: null });
    if (!r.ok) return;
    expect(agent.status().unresolved.count).toBe(1);
    await agent.syncRoster(); // still unknown: stays, listed
    expect(agent.status().unresolved).toMatchObject({ count: 1, lastCheckedAt: expect.any(Number) });
    expect(mock.records()).toHaveLength(0);

    const template = mock.employees()[0] as MockEmployee;
    mock.addEmployees([
      {
        ...template,
        _id: 'aaaaaaaaaaaaaaaaaaaaaa77',
        external_id: 'NEW-77',
        full_name: 'Nova Pessoa',
        cpf: cpfFromBase('111444777'),
      },
    ]);
    await agent.syncRoster();
    expect(agent.status().unresolved.count).toBe(0);
    await waitFor(() => mock.records().length === 1, 'the matched punch delivered');
    expect(mock.records()[0]).toMatchObject({ employee_external_id: 'NEW-77', time: `${r.localDate}T${r.localTime}` });
  });

  it('the default policy refuses unknown credentials and keeps nothing', async () => {
    const { agent } = await setup();
    expect(await agent.punch({ kind: 'badge', value: 'NEW-78' })).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
    });
    expect(agent.status().unresolved.count).toBe(0);
  });

  it('a configured repeat window answers "already registered" for a second punch inside it, and not after', async () => {
    let t = Date.parse('2026-11-21T11:00:10Z');
    const { agent } = await setup({ identity: { repeatWindowMs: 10 * 60_000 } }, { now: () => t });
    const first = await agent.punch({ kind: 'id', value: '1013' });
    t += 5 * 60_000;
    const again = await agent.punch({ kind: 'id', value: '1013' });
    expect(again).toMatchObject({ ok: true, repeat: true, localTime: first.ok ? first.localTime : '?' });
    // One second before the window ends (9 min 59 s after the first, in a later minute): still a repeat.
    t += 4 * 60_000 + 59_000;
    expect(await agent.punch({ kind: 'id', value: '1013' })).toMatchObject({ ok: true, repeat: true });
    t += 61_000;
    expect(await agent.punch({ kind: 'id', value: '1013' })).toMatchObject({ ok: true, repeat: false });
  });
});

describe('PIN as second factor', () => {
  it('asks for the PIN after the ID, refuses a wrong one, locks after 5 (onLockout: refuse), and registers with the right one', async () => {
    let t = Date.parse('2026-03-02T11:00:00Z');
    const { agent } = await setup(
      { pin: { requiredFor: ['id'], maxFailures: 5, lockoutMs: 3_600_000, onLockout: 'refuse' } },
      { now: () => t },
    );
    expect(await agent.admin.setPin('1014', '739146')).toMatchObject({ ok: true });
    expect(await agent.punch({ kind: 'id', value: '1014' })).toMatchObject({ ok: false, reason: 'pin_required' });
    const wrong = await agent.punch({ kind: 'id', value: '1014' }, { pin: '000000' });
    expect(wrong).toMatchObject({ ok: false, reason: 'pin_wrong' });
    expect(punchText('en', wrong)).toMatch(/4 tries left/);
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '739146' })).toMatchObject({
      ok: true,
      repeat: false,
    });
    for (let i = 0; i < 4; i++) {
      t += 60_000; // past the growing delay between attempts
      await agent.punch({ kind: 'id', value: '1014' }, { pin: '111111' });
    }
    t += 60_000;
    const locked = await agent.punch({ kind: 'id', value: '1014' }, { pin: '222222' });
    expect(locked).toMatchObject({ ok: false, reason: 'pin_locked' });
    expect(punchText('en', locked)).toMatch(/locked until \d\d:\d\d/);
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '739146' })).toMatchObject({
      ok: false,
      reason: 'pin_locked',
    });
    // Badges are not asked for a PIN unless configured.
    agent.admin.enrollBadge('CARD-15', '1015', 'cli');
    expect(await agent.punch({ kind: 'badge', value: 'CARD-15' })).toMatchObject({ ok: true });
  });
});

describe('PIN for a reader’s badge (the screen never sees the code)', () => {
  it('the scan answers pin_required with a one-time challenge; the PIN answers it once, within a minute', async () => {
    let t = Date.parse('2026-03-02T11:00:00Z');
    const { agent } = await setup(
      { pin: { requiredFor: ['badge'], maxFailures: 5, lockoutMs: 60_000 } },
      { now: () => t },
    );
    expect(agent.admin.enrollBadge('CARD-17', '1017', 'cli')).toMatchObject({ ok: true });
    expect(await agent.admin.setPin('1017', '482915')).toMatchObject({ ok: true });
    const events: unknown[] = [];
    agent.on('punch', (r) => events.push(r));

    const asked = await agent.scanned('CARD-17', 'hid:entrance');
    expect(asked).toMatchObject({
      ok: false,
      reason: 'pin_required',
      pinChallenge: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // The screen learns of it from the event, which carries the challenge and not the badge code.
    expect(events.at(-1)).toEqual(asked);
    expect(JSON.stringify(events)).not.toContain('CARD-17');
    const challenge = asked && !asked.ok ? (asked.pinChallenge ?? '') : '';

    expect(await agent.answerPin('0'.repeat(32), '482915')).toMatchObject({ ok: false, reason: 'pin_expired' });
    expect(await agent.answerPin(challenge, '000000')).toMatchObject({ ok: false, reason: 'pin_wrong' });
    // Single use: a wrong PIN spent it; the person scans again.
    expect(await agent.answerPin(challenge, '482915')).toMatchObject({ ok: false, reason: 'pin_expired' });

    const again = await agent.scanned('CARD-17', 'hid:entrance');
    const second = again && !again.ok ? (again.pinChallenge ?? '') : '';
    expect(second).not.toBe(challenge);
    t += 61_000;
    expect(await agent.answerPin(second, '482915')).toMatchObject({ ok: false, reason: 'pin_expired' });

    const third = await agent.scanned('CARD-17', 'hid:entrance');
    t += 20_000;
    const done = await agent.answerPin(third && !third.ok ? (third.pinChallenge ?? '') : '', '482915');
    expect(done).toMatchObject({ ok: true, employeeExternalId: '1017', repeat: false });
    expect(agent.status().unsent + agent.status().queue.sent).toBe(1);
  });
});

describe('command line administration beside a running terminal', () => {
  it('enrolls and unenrolls a badge, sets a PIN read from standard input, and the file holds no PIN', async () => {
    const { agent, dir } = await setup();
    const env = { TIMECLOCK_DATA_DIR: dir, TIMECLOCK_LOG_LEVEL: 'error' };
    const enrolled = await runCli(['enroll', 'badge', 'CARD-CLI', '1016'], env);
    expect(enrolled).toMatchObject({ code: 0, stdout: expect.stringMatching(/Badge enrolled for/) });
    expect(await agent.punch({ kind: 'badge', value: 'CARD-CLI' })).toMatchObject({ ok: true });
    expect((await runCli(['enroll', 'badge', 'CARD-X', 'nobody'], env)).code).toBe(1);
    expect((await runCli(['enroll', 'badge'], env)).code).toBe(2);
    expect((await runCli(['unenroll', 'badge', 'CARD-CLI'], env)).code).toBe(0);
    expect(await agent.punch({ kind: 'badge', value: 'CARD-CLI' })).toMatchObject({ ok: false });

    expect(await runCli(['pin', 'set-admin'], env, '246810\n')).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/Manager PIN set/),
    });
    expect(await agent.admin.verifyAdminPin('246810')).toBe(true);
    expect(await agent.admin.verifyAdminPin('111111')).toBe(false);

    const pin = await runCli(['pin', 'set', '1016'], env, '583920\n');
    expect(pin).toMatchObject({ code: 0, stdout: expect.stringMatching(/PIN set for/) });
    expect((await runCli(['pin', 'set', '1016'], env, '12\n')).code).toBe(1);
    // Every file the terminal keeps, those in folders too (the PDF receipts in receipts/).
    const files = fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(dir, f))
      .filter((f) => fs.statSync(f).isFile());
    expect(files.length).toBeGreaterThan(0);
    const bytes = files.map((f) => fs.readFileSync(f));
    for (const b of bytes) {
      expect(b.includes(Buffer.from('583920', 'ascii'))).toBe(false);
      expect(b.includes(Buffer.from('583920', 'utf16le'))).toBe(false);
    }
  });
});

describe('a PIN lockout never costs a punch (pin.onLockout: hold, the default)', () => {
  it('attempts slow down; after the limit punches are kept, flagged, held; the manager confirms one and disputes another', async () => {
    let t = Date.parse('2026-03-02T11:00:00Z');
    const { agent, mock } = await setup(
      { pin: { requiredFor: ['id'], maxFailures: 3, lockoutMs: 3_600_000 } },
      { now: () => t },
    );
    expect(await agent.admin.setPin('1014', '739146')).toMatchObject({ ok: true });
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '000001' })).toMatchObject({
      ok: false,
      reason: 'pin_wrong',
    });
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '000002' })).toMatchObject({
      ok: false,
      reason: 'pin_wrong',
    });
    // A third try at once is slowed down (guessing), but in hold mode the punch is kept, not lost.
    const slowed = await agent.punch({ kind: 'id', value: '1014' }, { pin: '739146' });
    expect(slowed).toMatchObject({ ok: true, note: 'held_pin_unverified', employeeName: expect.any(String) });
    t += 120_000;
    // The third wrong PIN locks; the right PIN during the lock is kept too, unverified.
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '000003' })).toMatchObject({
      ok: true,
      note: 'held_pin_unverified',
    });
    t += 120_000;
    expect(await agent.punch({ kind: 'id', value: '1014' }, { pin: '739146' })).toMatchObject({
      ok: true,
      note: 'held_pin_unverified',
    });

    const held = agent.listHeld();
    expect(held.map((p) => p.held_reason)).toEqual(['pin_unverified', 'pin_unverified', 'pin_unverified']);
    expect(agent.decideHeld(held[0]?.id ?? 0, 'resend', 'the manager')).toBe(true);
    expect(agent.decideHeld(held[1]?.id ?? 0, 'dispute', 'the manager')).toBe(false); // a dispute needs a reason
    expect(agent.decideHeld(held[1]?.id ?? 0, 'dispute', 'the manager', 'colleague guessing Ana’s PIN')).toBe(true);
    // The service's record comes a moment before the terminal writes the answer down: wait for both.
    await waitFor(
      () =>
        mock.records().filter((r) => r.employee_external_id === '1014').length === 1 && agent.status().queue.sent === 1,
      'the confirmed one delivered',
    );
    expect(agent.listHeld().map((p) => [p.held_reason, p.last_error])).toEqual([
      ['disputed', 'colleague guessing Ana’s PIN'],
      ['pin_unverified', null],
    ]);
    expect(agent.status().queue).toMatchObject({ held: 2, sent: 1 });
  });
});
