/**
 * The Electron shell's IPC bridge on a fake Electron (test/helpers/fake-electron.ts) in front of a
 * real agent (real SQLite, real mock API on loopback): who may call, typed refusals, the admin
 * gate, events to the window, and the API token set through it (kept in the secret store, or a
 * 0600 file without one), never in an answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callNames, callResultSchema, type CallName } from '../../src/contract.js';
import { EVENT_CHANNEL } from '../../src/main/ipc-bridge.js';
import { DEMO_SITE_ID } from '../../src/mock/seed.js';
import { answerText } from '../../src/messages/catalogue.js';
import { ADMIN_PIN, API_TOKEN, electronShellRig, errorOf, type Sender } from '../helpers/electron-shell-rig.js';
import { FakeFrame, FakeWebContents } from '../helpers/fake-web-contents.js';
import { waitFor } from '../helpers/temp.js';

const { setup, seen, logLines } = electronShellRig();

describe('IPC bridge', () => {
  it('registers exactly one kiosk:<call> channel per contract call', async () => {
    const { electron } = await setup();
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual(callNames.map((n) => `kiosk:${n}`).sort());
  });

  it('a punch from the kiosk page reaches the agent, answers in the contract shape, and the service gets it', async () => {
    const { call, mock } = await setup();
    const r = callResultSchema('punch').parse(
      await call('punch', undefined, { credential: { kind: 'id', value: '1002' } }),
    );
    expect(r).toMatchObject({ ok: true, value: { ok: true, employeeExternalId: '1002', repeat: false } });
    await waitFor(() => mock.records().some((x) => x.employee_external_id === '1002'), 'the record at the service');
    const status = callResultSchema('status').parse(await call('status', undefined, {}));
    expect(status).toMatchObject({ ok: true, value: { agentRunning: true } });
  });

  it('wrong-shaped input is a typed bad_request, never a throw, and never reaches the agent', async () => {
    const { call, agent } = await setup();
    const before = agent.status().unsent + agent.status().queue.sent;
    const bodies: Array<[string, unknown[]]> = [
      ['no argument', []],
      ['null', [null]],
      ['missing field', [{ credential: { kind: 'id' } }]],
      ['wrong kind', [{ credential: { kind: 'pin', value: '1002' } }]],
      ['huge string', [{ credential: { kind: 'id', value: 'x'.repeat(5_000) } }]],
      ['extra key', [{ credential: { kind: 'id', value: '1002' }, admin: true }]],
      ['array', [[{ credential: { kind: 'id', value: '1002' } }]]],
      ['two arguments', [{ credential: { kind: 'id', value: '1002' } }, { more: 1 }]],
    ];
    for (const [what, args] of bodies) {
      expect(errorOf(await call('punch', undefined, ...args)).code, what).toBe('bad_request');
    }
    expect(errorOf(await call('punch', undefined, { credential: { kind: 'id' } })).issues).toEqual([
      { path: ['credential', 'value'], message: expect.any(String) },
    ]);
    expect(errorOf(await call('status', undefined, { extra: true })).code).toBe('bad_request');
    expect(agent.status().unsent + agent.status().queue.sent).toBe(before);
  });

  it('refuses callers other than the kiosk window’s main frame on the renderer page', async () => {
    const { call, win, agent, url } = await setup();
    const wc = win.webContents;
    const main = wc.mainFrame;
    const before = agent.status().unsent + agent.status().queue.sent;
    const foreign: Array<[string, Sender]> = [
      [
        'other page in the main frame',
        { sender: wc, senderFrame: new FakeFrame('https://evil.example/', main.processId, main.routingId) },
      ],
      [
        'another file',
        { sender: wc, senderFrame: new FakeFrame(url.replace('index.html', 'x.html'), main.processId, main.routingId) },
      ],
      [
        'a sub-frame on our page',
        { sender: wc, senderFrame: new FakeFrame(url, main.processId, main.routingId + 100, main) },
      ],
      ['a frame gone since', { sender: wc, senderFrame: null }],
      ['another web contents', { sender: new FakeWebContents(), senderFrame: new FakeFrame(url, 99, 1) }],
    ];
    for (const [what, from] of foreign) {
      expect(errorOf(await call('punch', from, { credential: { kind: 'id', value: '1002' } })).code, what).toBe(
        'forbidden',
      );
    }
    expect(agent.status().unsent + agent.status().queue.sent).toBe(before);
    // The same frame object re-created by Electron (same ids) on our page is still the kiosk.
    const same = new FakeFrame(url, main.processId, main.routingId);
    expect(await call('status', { sender: wc, senderFrame: same }, {})).toMatchObject({ ok: true });
  });

  it('admin calls need an admin session, opened by the PIN, closed by lock', async () => {
    const { call } = await setup();
    for (const name of callNames.filter((n) => ['listRejected', 'syncRoster', 'retryRejected', 'setPin'].includes(n))) {
      expect(errorOf(await call(name, undefined, {})).code, name).toBe('forbidden');
    }
    expect(await call('adminLogin', undefined, { pin: '000000' })).toMatchObject({
      ok: true,
      value: { ok: false, code: 'wrong_pin' },
    });
    expect(errorOf(await call('listRejected', undefined, {})).code).toBe('forbidden');
    expect(await call('adminLogin', undefined, { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
    expect(callResultSchema('listRejected').parse(await call('listRejected', undefined, {}))).toEqual({
      ok: true,
      value: [],
    });
    expect(callResultSchema('syncRoster').parse(await call('syncRoster', undefined, {}))).toMatchObject({
      ok: true,
      value: { ok: true },
    });
    expect(await call('lock', undefined, {})).toEqual({ ok: true, value: { ok: true } });
    expect(errorOf(await call('listRejected', undefined, {})).code).toBe('forbidden');
  });

  it('the admin session is the renderer’s that typed the PIN: a renderer that replaced it (crash, reload into a new process) starts closed (issue 25)', async () => {
    const { call, win, url } = await setup();
    expect(await call('adminLogin', undefined, { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
    expect(await call('afdTargets', undefined, {})).toMatchObject({ ok: true });
    expect(await call('findPunches', undefined, { employee: '1003' })).toMatchObject({ ok: true });
    const old = win.webContents.mainFrame;
    // Electron gives the window a new main frame in a new renderer process: it is still our page.
    const fresh = new FakeFrame(url, old.processId + 1, old.routingId);
    (win.webContents as { mainFrame: FakeFrame }).mainFrame = fresh;
    const now: Sender = { sender: win.webContents, senderFrame: fresh };
    expect(await call('status', now, {})).toMatchObject({ ok: true });
    for (const name of ['afdTargets', 'findPunches', 'setApiToken', 'setSite', 'exportPunchesCsv'] as const) {
      const r = errorOf(await call(name, now, {}));
      expect(r, name).toEqual({ code: 'forbidden', message: 'admin session required' });
    }
    // Its own login opens its own session.
    expect(await call('adminLogin', now, { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
    expect(await call('afdTargets', now, {})).toMatchObject({ ok: true });
  });

  it('forwards agent events to the window on kiosk:event, in the contract shape', async () => {
    const { agent, win } = await setup();
    const r = await agent.punch({ kind: 'id', value: '1004' });
    const punches = win.webContents.sent.filter(
      (s) => s.channel === EVENT_CHANNEL && (s.args[0] as { name: string }).name === 'punch',
    );
    expect(punches).toEqual([
      { channel: EVENT_CHANNEL, args: [{ name: 'punch', payload: JSON.parse(JSON.stringify(r)) }] },
    ]);
    await waitFor(
      () => win.webContents.sent.some((s) => (s.args[0] as { name: string }).name === 'status'),
      'a status event',
    );
    for (const s of win.webContents.sent) seen.push(JSON.stringify(s));
  });

  it('a punch call’s requestId comes back in the punch event of its result (src/bridge), and a punch no call asked for has none', async () => {
    const { call, agent, win } = await setup();
    const punchEvents = () =>
      win.webContents.sent
        .filter((s) => s.channel === EVENT_CHANNEL && (s.args[0] as { name: string }).name === 'punch')
        .map((s) => (s.args[0] as { payload: unknown }).payload);
    const r = callResultSchema('punch').parse(
      await call('punch', undefined, { credential: { kind: 'id', value: '1002' }, requestId: 'screen-1' }),
    );
    expect(r.ok && r.value).not.toHaveProperty('requestId');
    expect(punchEvents()).toEqual([{ ...JSON.parse(JSON.stringify(r.ok && r.value)), requestId: 'screen-1' }]);
    await agent.punch({ kind: 'id', value: '1004' });
    expect(punchEvents()[1]).not.toHaveProperty('requestId');
  });

  it('a 10,000-character name from the service (issue 23): the IPC answer and its event say registered, with the NSR and the whole name', async () => {
    const { call, agent, mock, win } = await setup();
    mock.setVariants({ longStrings: 10_000 });
    expect((await agent.syncRoster()).ok).toBe(true);
    const r = callResultSchema('punch').parse(
      await call('punch', undefined, { credential: { kind: 'id', value: '1003' }, requestId: 'screen-long' }),
    );
    if (!r.ok || !r.value.ok) throw new Error(`not registered: ${JSON.stringify(r).slice(0, 300)}`);
    expect(r.value.nsr).toBeGreaterThan(0);
    expect(r.value.employeeName?.length).toBe(10_000);
    expect(r.value.employeeName?.startsWith('Maria Aparecida dos Santos Maria')).toBe(true);
    const event = win.webContents.sent
      .filter((s) => s.channel === EVENT_CHANNEL && (s.args[0] as { name: string }).name === 'punch')
      .map((s) => (s.args[0] as { payload: { ok: boolean; nsr?: number; requestId?: string } }).payload);
    expect(event.map((e) => [e.ok, e.nsr, e.requestId])).toEqual([[true, r.value.nsr, 'screen-long']]);
    expect(logLines.filter((l) => /outside the contract/.test(l))).toEqual([]);
  });

  it('no answer to any call carries the API token', async () => {
    const { call, agent, win } = await setup();
    await call('adminLogin', undefined, { pin: ADMIN_PIN });
    await agent.punch({ kind: 'badge', value: 'NO-SUCH-BADGE' });
    const inputs: Partial<Record<CallName, unknown>> = {
      punch: { credential: { kind: 'id', value: '1003' } },
      badgeScan: { code: 'NO-SUCH-BADGE-2', source: 'wedge' },
      answerPin: { challenge: 'no-such-challenge', pin: '1234' },
      adminLogin: { pin: ADMIN_PIN },
      retryRejected: { punchId: 1 },
      decideHeld: { punchId: 1, decision: 'resend' },
      enrollBadge: { code: 'CARD-E-1', employee: '1005' },
      unenrollBadge: { code: 'CARD-E-1' },
      enrollNextScan: { employee: '1005', timeoutMs: 1_000 },
      setPin: { employee: '1005', pin: '7391' },
      clearPin: { employee: '1005' },
      // The token set here must not come back either.
      setApiToken: { token: API_TOKEN },
      setSite: { siteId: DEMO_SITE_ID },
      setRateBudget: { limit: 60, windowMs: 60_000 },
      receipt: { nsr: 1 },
      receiptPdf: { nsr: 1 },
      auditCompare: { from: '2026-03-02', to: '2026-03-02' },
      exportAfd: { from: '2026-03-02', to: '2026-03-02', target: { kind: 'download' } },
      findPunches: { employee: '1003' },
      exportPunchesCsv: { from: '2026-03-02', to: '2026-03-02', target: { kind: 'download' } },
      unmountDrive: { path: '/media/timeclock/no-such-drive' },
      forgotPin: { credential: { kind: 'id', value: '1004' } },
      setShiftLeadPin: { pin: '7346' },
      // Issue 31's calls (photos off here: answered, nothing kept).
      punchPhoto: { nsr: 1, missing: 'missing' },
      cameraState: { ok: true },
      punchPhotoView: { nsr: 1 },
      // Issue 30's (no roll call under way: answered 'no_roll_call').
      rollCallMark: { employeeKey: 'emp-1003' },
    };
    const answers: string[] = [];
    for (const name of callNames.filter((n) => n !== 'lock' && n !== 'adminLogout')) {
      const r = await call(name, undefined, inputs[name] ?? {});
      expect(r, name).toMatchObject({ ok: true });
      answers.push(JSON.stringify(r));
      // The settings calls really ran (checked with the service, saved), not a placeholder refusal.
      if (name === 'setApiToken' || name === 'setSite' || name === 'setRateBudget')
        expect(r, name).toMatchObject({ ok: true, value: { ok: true } });
    }
    const status = answers[callNames.filter((n) => n !== 'lock' && n !== 'adminLogout').indexOf('status')];
    expect(status).toContain('"settings"');
    expect(answers.join('\n')).not.toContain(API_TOKEN);
    expect(answers.join('\n')).not.toContain('demo-token');
    // Nor any event sent to the window after the token was set.
    const afterStatus = await call('status', undefined, {});
    expect(afterStatus).toMatchObject({
      ok: true,
      value: { settings: { token: { source: 'keyring', warning: null } } },
    });
    for (const s of win.webContents.sent) expect(JSON.stringify(s)).not.toContain(API_TOKEN);
  });
});

describe('the API token in the Electron shell', () => {
  /** Every byte the agent keeps on disk (database, its WAL, token files): none may hold the token. */
  function plainTokenOnDisk(dir: string, token: string): string[] {
    return fs.readdirSync(dir).filter((f) => fs.readFileSync(path.join(dir, f)).includes(Buffer.from(token)));
  }
  const NEW = 'api-token-replacement-6b0e2f81d9c4a537';

  it('with a secret store: kept encrypted in api-token.enc, no plain token bytes anywhere on disk', async () => {
    const { call, agent, mock, dataDir } = await setup({ backend: 'kwallet5' });
    mock.setTokens([API_TOKEN, NEW]);
    await call('adminLogin', undefined, { pin: ADMIN_PIN });
    const r = await call('setApiToken', undefined, { token: NEW });
    expect(r).toMatchObject({ ok: true, value: { ok: true, code: 'token_saved', params: { store: 'keyring' } } });
    expect(answerText('en', (r as { value: { code: 'token_saved'; params: Record<string, string> } }).value)).toMatch(
      /system secret store/,
    );
    seen.push(JSON.stringify(agent.status()));
    expect(agent.status().settings.token).toEqual({ source: 'keyring', setAt: expect.any(Number), warning: null });
    expect(fs.existsSync(path.join(dataDir, 'api-token.enc'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'api-token'))).toBe(false);
    expect(fs.statSync(path.join(dataDir, 'api-token.enc')).mode & 0o777).toBe(0o600);
    expect(plainTokenOnDisk(dataDir, NEW)).toEqual([]);
    await agent.punch({ kind: 'id', value: '1006' });
    await waitFor(() => mock.records().length === 1, 'the punch with the new token');
    expect(mock.records()[0]?.token).toBe(NEW);
    for (const s of [...seen, ...logLines]) expect(s).not.toContain(NEW);
  });

  it('with the basic_text backend (no secret store): a 0600 file instead, and the admin screen is told so', async () => {
    const { call, dataDir } = await setup({ backend: 'basic_text' });
    const before = await call('status', undefined, {});
    expect(before).toMatchObject({ ok: true, value: { settings: { token: { source: 'config', warning: null } } } });
    await call('adminLogin', undefined, { pin: ADMIN_PIN });
    expect(await call('setApiToken', undefined, { token: API_TOKEN })).toMatchObject({
      ok: true,
      value: { ok: true, code: 'token_saved', params: { store: 'file' } },
    });
    const after = await call('status', undefined, {});
    expect(after).toMatchObject({
      ok: true,
      value: {
        settings: {
          token: {
            source: 'file',
            warning: expect.stringMatching(/no system secret store .*basic_text.*readable only by the kiosk user/),
          },
        },
      },
    });
    expect(fs.statSync(path.join(dataDir, 'api-token')).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(dataDir, 'api-token.enc'))).toBe(false);
  });
});
