/**
 * The Electron shell on a fake Electron (test/helpers/fake-electron.ts) in front of a real agent
 * (real SQLite, real mock API on loopback): how the window is locked down, the single-instance
 * rule, the IPC bridge (who may call, typed refusals, admin gate, events), a clean stop on quit,
 * and the compiled preload (dist/src/main/preload.cjs, built by the global setup) run the way a
 * sandboxed renderer runs it.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/agent.js';
import { bridgeErrorSchema, callNames, callResultSchema, type BridgeError, type CallName } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';
import type { WebContents, WebFrameMain } from '../../src/main/electron-api.js';
import { EVENT_CHANNEL } from '../../src/main/ipc-bridge.js';
import { safeStorageTokenStore } from '../../src/main/safe-storage-token.js';
import { createKioskWindow, KIOSK_CSP } from '../../src/main/kiosk-window.js';
import { runShell, type RunningAgent, type Shell } from '../../src/main/shell.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID, demoSeed } from '../../src/mock/seed.js';
import { startWebBridge } from '../../src/web/web-bridge.js';
import { agentWithRenderer } from '../helpers/bridge-setup.js';
import { testAgent } from '../helpers/agent.js';
import { fakeElectron, FakeFrame, FakeWebContents, FakeWindow, type FakeElectron } from '../helpers/fake-electron.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { answerText } from '../../src/messages/catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const API_TOKEN = 'api-token-electron-4d9a61f2c7e83b05';
const ADMIN_PIN = '582913';
const PRELOAD = '/opt/timeclock/dist/src/main/preload.cjs';

const cleanups: Array<() => Promise<void> | void> = [];
/** Every IPC result and log line of a test, checked for secrets after it. */
const seen: string[] = [];
const logLines: string[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
  for (const s of [...seen, ...logLines]) {
    expect(s).not.toContain(API_TOKEN);
    expect(s).not.toContain(ADMIN_PIN);
  }
  seen.length = 0;
  logLines.length = 0;
});

type Sender = { sender: WebContents; senderFrame: WebFrameMain | null };
type Ctx = {
  electron: FakeElectron;
  shell: Shell;
  win: FakeWindow;
  agent: Agent;
  mock: MockServer;
  root: string;
  url: string;
  kiosk: Sender;
  shutdowns: () => number;
  dataDir: string;
  call(name: CallName | string, from?: Sender, ...args: unknown[]): Promise<unknown>;
};

/**
 * `backend`: the Linux secret-store backend the fake safeStorage reports (the agent's token store is
 * the shell's). `kiosk: false` is the windowed mode (installers, development).
 */
async function setup(o: { backend?: string; kiosk?: boolean } = {}): Promise<Ctx> {
  const electron = fakeElectron();
  electron.safeStorage.backend = o.backend ?? 'gnome_libsecret';
  const { mock, agent, root, dataDir } = await agentWithRenderer(cleanups, API_TOKEN, { 'index.html': '<!doctype html><title>kiosk</title>' }, (dir) => ({
    tokens: safeStorageTokenStore(electron.safeStorage, dir, { platform: 'linux' }),
  }));
  let shutdowns = 0;
  const running: RunningAgent = {
    agent,
    adminPin: { verify: async (pin) => pin === ADMIN_PIN },
    shutdown: async () => {
      shutdowns++;
      await agent.stop();
    },
  };
  const shell = runShell(electron, {
    preloadPath: PRELOAD,
    rendererDir: root,
    kiosk: o.kiosk ?? true,
    startAgent: async () => running,
    log: createLogger({ level: 'debug', write: (l) => logLines.push(l) }),
  });
  await shell.ready;
  const win = electron.windows[0];
  if (!win) throw new Error('no window');
  const kiosk: Sender = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
  const call = async (name: string, from: Sender = kiosk, ...args: unknown[]): Promise<unknown> => {
    const r = await electron.ipcMain.invoke(`kiosk:${name}`, from, ...args);
    seen.push(JSON.stringify(r));
    return r;
  };
  return { electron, shell, win, agent, mock, root, url: pathToFileURL(path.join(root, 'index.html')).href, kiosk, shutdowns: () => shutdowns, dataDir, call };
}

function errorOf(r: unknown): BridgeError['error'] {
  return bridgeErrorSchema.parse(r).error;
}

describe('the kiosk window', () => {
  it('is a sandboxed, context-isolated, full-screen kiosk with only our preload, showing the renderer file', async () => {
    const { win, url, shell } = await setup();
    expect(shell.primary).toBe(true);
    expect(shell.window()).toBe(win);
    expect(win.options).toMatchObject({ kiosk: true, fullscreen: true, show: false });
    expect(win.options.webPreferences).toEqual({
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
      autoplayPolicy: 'no-user-gesture-required',
    });
    expect(win.options.webPreferences).not.toHaveProperty('enableRemoteModule');
    expect(win.loaded).toEqual([url]);
    expect(url).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
    expect(win.shown).toBe(1);
  });

  it('kiosk mode can be turned off (installers, development)', () => {
    const made: FakeWindow[] = [];
    const Ctor = class extends FakeWindow {
      constructor(o: ConstructorParameters<typeof FakeWindow>[0]) {
        super(o);
        made.push(this);
      }
    };
    createKioskWindow(Ctor, { preloadPath: PRELOAD, rendererDir: '/srv/renderer', kiosk: false });
    expect(made[0]?.options).toMatchObject({ kiosk: false, fullscreen: false, webPreferences: { sandbox: true, contextIsolation: true } });
  });

  it('puts the web bridge’s Content-Security-Policy on every response, replacing any other', async () => {
    const { win, url, agent, root } = await setup();
    const out = win.webContents.session.respond({
      url,
      responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ["default-src *; script-src 'unsafe-inline'"] },
    });
    expect(out).toEqual({ responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [KIOSK_CSP] } });
    expect(win.webContents.session.respond({ url: 'file:///x/app.js' })?.responseHeaders).toEqual({ 'Content-Security-Policy': [KIOSK_CSP] });

    // The same policy as the web bridge serves (main and web may not import each other).
    const web = await startWebBridge({ agent, host: '127.0.0.1', port: 0, rendererDir: root, adminPin: null });
    cleanups.push(() => web.close());
    const header = await new Promise<string | string[] | undefined>((resolve, reject) => {
      http.get(`${web.origin}/index.html`, (res) => {
        res.resume();
        resolve(res.headers['content-security-policy']);
      }).on('error', reject);
    });
    expect(header).toBe(KIOSK_CSP);
  });

  it('stays on the renderer page: other navigation and redirects are prevented, in-page moves allowed', async () => {
    const { win, url } = await setup();
    const wc = win.webContents;
    expect(wc.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(wc.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(wc.fire('will-navigate', url.replace('index.html', 'other.html'))).toBe(true);
    expect(wc.fire('will-navigate', 'not a url')).toBe(true);
    expect(wc.fire('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(wc.fire('will-navigate', url)).toBe(false);
    expect(wc.fire('will-navigate', `${url}#admin`)).toBe(false);
    expect(wc.fire('will-attach-webview')).toBe(true);
  });

  it('opens no windows and grants no permission', async () => {
    const { win } = await setup();
    const wc = win.webContents;
    expect(wc.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(wc.openHandler?.({ url: win.loaded[0] ?? '' })).toEqual({ action: 'deny' });
    for (const permission of ['media', 'geolocation', 'notifications', 'hid', 'clipboard-read', 'fullscreen']) {
      const answers: boolean[] = [];
      wc.session.permissionRequest?.(wc, permission, (granted) => answers.push(granted));
      expect(answers, permission).toEqual([false]);
      expect(wc.session.permissionCheck?.(wc, permission), permission).toBe(false);
    }
  });
});

describe('one kiosk per machine', () => {
  it('a second instance quits at once and starts nothing; the first one comes to the front', async () => {
    const { electron, win } = await setup();
    win.minimized = true;
    electron.app.emit('second-instance');
    expect({ restored: win.restored, shown: win.shown, focused: win.focused }).toEqual({ restored: 1, shown: 2, focused: 1 });

    const second = fakeElectron();
    second.app.lockFree = false;
    let started = 0;
    const shell = runShell(second, {
      preloadPath: PRELOAD,
      rendererDir: '/srv/renderer',
      kiosk: true,
      startAgent: async () => {
        started++;
        throw new Error('must not start');
      },
    });
    await shell.ready;
    expect(shell.primary).toBe(false);
    expect(second.app.quits).toBe(1);
    expect(started).toBe(0);
    expect(second.windows).toEqual([]);
    expect(second.ipcMain.handlers.size).toBe(0);
  });
});

describe('IPC bridge', () => {
  it('registers exactly one kiosk:<call> channel per contract call', async () => {
    const { electron } = await setup();
    expect([...electron.ipcMain.handlers.keys()].sort()).toEqual(callNames.map((n) => `kiosk:${n}`).sort());
  });

  it('a punch from the kiosk page reaches the agent, answers in the contract shape, and the service gets it', async () => {
    const { call, mock } = await setup();
    const r = callResultSchema('punch').parse(await call('punch', undefined, { credential: { kind: 'id', value: '1002' } }));
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
    expect(errorOf(await call('punch', undefined, { credential: { kind: 'id' } })).issues).toEqual([{ path: ['credential', 'value'], message: expect.any(String) }]);
    expect(errorOf(await call('status', undefined, { extra: true })).code).toBe('bad_request');
    expect(agent.status().unsent + agent.status().queue.sent).toBe(before);
  });

  it('refuses callers other than the kiosk window’s main frame on the renderer page', async () => {
    const { call, win, agent, url } = await setup();
    const wc = win.webContents;
    const main = wc.mainFrame;
    const before = agent.status().unsent + agent.status().queue.sent;
    const foreign: Array<[string, Sender]> = [
      ['other page in the main frame', { sender: wc, senderFrame: new FakeFrame('https://evil.example/', main.processId, main.routingId) }],
      ['another file', { sender: wc, senderFrame: new FakeFrame(url.replace('index.html', 'x.html'), main.processId, main.routingId) }],
      ['a sub-frame on our page', { sender: wc, senderFrame: new FakeFrame(url, main.processId, main.routingId + 100, main) }],
      ['a frame gone since', { sender: wc, senderFrame: null }],
      ['another web contents', { sender: new FakeWebContents(), senderFrame: new FakeFrame(url, 99, 1) }],
    ];
    for (const [what, from] of foreign) {
      expect(errorOf(await call('punch', from, { credential: { kind: 'id', value: '1002' } })).code, what).toBe('forbidden');
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
    expect(await call('adminLogin', undefined, { pin: '000000' })).toMatchObject({ ok: true, value: { ok: false, code: 'wrong_pin' } });
    expect(errorOf(await call('listRejected', undefined, {})).code).toBe('forbidden');
    expect(await call('adminLogin', undefined, { pin: ADMIN_PIN })).toMatchObject({ ok: true, value: { ok: true } });
    expect(callResultSchema('listRejected').parse(await call('listRejected', undefined, {}))).toEqual({ ok: true, value: [] });
    expect(callResultSchema('syncRoster').parse(await call('syncRoster', undefined, {}))).toMatchObject({ ok: true, value: { ok: true } });
    expect(await call('lock', undefined, {})).toEqual({ ok: true, value: { ok: true } });
    expect(errorOf(await call('listRejected', undefined, {})).code).toBe('forbidden');
  });

  it('forwards agent events to the window on kiosk:event, in the contract shape', async () => {
    const { agent, win } = await setup();
    const r = await agent.punch({ kind: 'id', value: '1004' });
    const punches = win.webContents.sent.filter((s) => s.channel === EVENT_CHANNEL && (s.args[0] as { name: string }).name === 'punch');
    expect(punches).toEqual([{ channel: EVENT_CHANNEL, args: [{ name: 'punch', payload: JSON.parse(JSON.stringify(r)) }] }]);
    await waitFor(() => win.webContents.sent.some((s) => (s.args[0] as { name: string }).name === 'status'), 'a status event');
    for (const s of win.webContents.sent) seen.push(JSON.stringify(s));
  });

  it('a punch call’s requestId comes back in the punch event of its result (src/bridge), and a punch no call asked for has none', async () => {
    const { call, agent, win } = await setup();
    const punchEvents = () => win.webContents.sent.filter((s) => s.channel === EVENT_CHANNEL && (s.args[0] as { name: string }).name === 'punch').map((s) => (s.args[0] as { payload: unknown }).payload);
    const r = callResultSchema('punch').parse(await call('punch', undefined, { credential: { kind: 'id', value: '1002' }, requestId: 'screen-1' }));
    expect(r.ok && r.value).not.toHaveProperty('requestId');
    expect(punchEvents()).toEqual([{ ...JSON.parse(JSON.stringify(r.ok && r.value)), requestId: 'screen-1' }]);
    await agent.punch({ kind: 'id', value: '1004' });
    expect(punchEvents()[1]).not.toHaveProperty('requestId');
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
      auditCompare: { from: '2026-03-02', to: '2026-03-02' },
      exportAfd: { from: '2026-03-02', to: '2026-03-02', target: { kind: 'download' } },
      findPunches: { employee: '1003' },
      exportPunchesCsv: { from: '2026-03-02', to: '2026-03-02', target: { kind: 'download' } },
    };
    const answers: string[] = [];
    for (const name of callNames.filter((n) => n !== 'lock' && n !== 'adminLogout')) {
      const r = await call(name, undefined, inputs[name] ?? {});
      expect(r, name).toMatchObject({ ok: true });
      answers.push(JSON.stringify(r));
      // The settings calls really ran (checked with the service, saved), not a placeholder refusal.
      if (name === 'setApiToken' || name === 'setSite' || name === 'setRateBudget') expect(r, name).toMatchObject({ ok: true, value: { ok: true } });
    }
    const status = answers[callNames.filter((n) => n !== 'lock' && n !== 'adminLogout').indexOf('status')];
    expect(status).toContain('"settings"');
    expect(answers.join('\n')).not.toContain(API_TOKEN);
    expect(answers.join('\n')).not.toContain('demo-token');
    // Nor any event sent to the window after the token was set.
    const afterStatus = await call('status', undefined, {});
    expect(afterStatus).toMatchObject({ ok: true, value: { settings: { token: { source: 'keyring', warning: null } } } });
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
    expect(answerText('en', (r as { value: { code: 'token_saved'; params: Record<string, string> } }).value)).toMatch(/system secret store/);
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
    expect(await call('setApiToken', undefined, { token: API_TOKEN })).toMatchObject({ ok: true, value: { ok: true, code: 'token_saved', params: { store: 'file' } } });
    const after = await call('status', undefined, {});
    expect(after).toMatchObject({
      ok: true,
      value: { settings: { token: { source: 'file', warning: expect.stringMatching(/no system secret store .*basic_text.*readable only by the kiosk user/) } } },
    });
    expect(fs.statSync(path.join(dataDir, 'api-token')).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(dataDir, 'api-token.enc'))).toBe(false);
  });
});

describe('shutting down', () => {
  it('before-quit waits for the agent to stop, once, then lets the quit through with IPC removed', async () => {
    const { electron, shutdowns } = await setup();
    electron.app.emit('window-all-closed');
    await waitFor(() => electron.app.quits === 1, 'the quit after the agent stopped');
    expect(shutdowns()).toBe(1);
    expect(electron.ipcMain.handlers.size).toBe(0);
    electron.app.quit();
    expect(shutdowns()).toBe(1);
  });

  it('a start that fails stops what started and exits with 1, without a window', async () => {
    const electron = fakeElectron();
    const shell = runShell(electron, {
      preloadPath: PRELOAD,
      rendererDir: '/srv/renderer',
      kiosk: true,
      startAgent: async () => {
        throw new Error('data directory is locked');
      },
      log: createLogger({ level: 'debug', write: (l) => logLines.push(l) }),
    });
    await shell.ready;
    expect(electron.app.exitCode).toBe(1);
    expect(electron.windows).toEqual([]);
    expect(electron.powerSaveBlocker.started).toEqual([]);
    expect(logLines.join('\n')).toContain('data directory is locked');
  });
});

describe('the display stays on', () => {
  it('in kiosk mode a display-sleep blocker runs from the window’s creation until the app quits', async () => {
    const { electron } = await setup();
    const blocker = electron.powerSaveBlocker;
    expect(blocker.started).toEqual([{ id: 1, type: 'prevent-display-sleep', windows: 1 }]);
    expect(blocker.active()).toEqual([1]);
    electron.app.emit('window-all-closed');
    await waitFor(() => electron.app.quits === 1, 'the quit after the agent stopped');
    expect(blocker.stopped).toEqual([1]);
    expect(blocker.active()).toEqual([]);
    electron.app.quit();
    expect(blocker.stopped).toEqual([1]);
  });

  it('the windowed mode (installers, development) lets the display sleep', async () => {
    const { electron, win } = await setup({ kiosk: false });
    expect(win.options).toMatchObject({ kiosk: false, fullscreen: false });
    electron.app.emit('window-all-closed');
    await waitFor(() => electron.app.quits === 1, 'the quit after the agent stopped');
    expect(electron.powerSaveBlocker.started).toEqual([]);
    expect(electron.powerSaveBlocker.stopped).toEqual([]);
  });
});

describe('the compiled preload (dist/src/main/preload.cjs)', () => {
  type Listener = (...args: unknown[]) => void;

  /** Runs the preload as Electron's sandboxed renderer does: a function of its few globals. */
  function loadPreload(invoke: (channel: string, ...args: unknown[]) => Promise<unknown>) {
    const file = path.join(ROOT, 'dist/src/main/preload.cjs');
    const exposed = new Map<string, unknown>();
    const listeners = new Map<string, Listener[]>();
    const required: string[] = [];
    const electronForPreload = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
      ipcRenderer: {
        invoke,
        on: (channel: string, l: Listener) => listeners.set(channel, [...(listeners.get(channel) ?? []), l]),
        removeListener: (channel: string, l: Listener) => listeners.set(channel, (listeners.get(channel) ?? []).filter((x) => x !== l)),
      },
    };
    const fakeRequire = (id: string): unknown => {
      required.push(id);
      if (id !== 'electron') throw new Error(`module not found: ${id}`);
      return electronForPreload;
    };
    const wrapped = `(function (require, process, Buffer, global, setImmediate, clearImmediate, exports, module) {\n${fs.readFileSync(file, 'utf8')}\n})`;
    const fn = vm.runInNewContext(wrapped, {}, { filename: file }) as (...args: unknown[]) => void;
    const exports = {};
    fn(fakeRequire, {}, undefined, {}, undefined, undefined, exports, { exports });
    return { exposed, listeners, required };
  }

  it('exposes exactly window.kiosk: one function per contract call and `on`', () => {
    const { exposed, required } = loadPreload(async () => null);
    expect([...exposed.keys()]).toEqual(['kiosk']);
    const kiosk = exposed.get('kiosk') as Record<string, unknown>;
    expect(Object.keys(kiosk).sort()).toEqual([...callNames, 'on'].sort());
    for (const v of Object.values(kiosk)) expect(typeof v).toBe('function');
    expect(required).toEqual(['electron']);
  });

  it('each call invokes its own kiosk:<call> channel; through the shell it reaches the real agent', async () => {
    const { electron, kiosk: from, mock } = await setup();
    const invoked: string[] = [];
    const { exposed } = loadPreload(async (channel, ...args) => {
      invoked.push(channel);
      return electron.ipcMain.invoke(channel, from, ...args);
    });
    const kiosk = exposed.get('kiosk') as Record<string, (input?: unknown) => Promise<unknown>>;
    const punched = await kiosk.punch?.({ credential: { kind: 'id', value: '1006' } });
    seen.push(JSON.stringify(punched));
    expect(punched).toMatchObject({ ok: true, value: { ok: true, employeeExternalId: '1006' } });
    expect(await kiosk.status?.()).toMatchObject({ ok: true });
    expect(invoked).toEqual(['kiosk:punch', 'kiosk:status']);
    await waitFor(() => mock.records().some((x) => x.employee_external_id === '1006'), 'the record at the service');
  });

  it('`on` delivers only its own event from kiosk:event and can be undone; unknown events are refused', () => {
    const { exposed, listeners } = loadPreload(async () => null);
    const kiosk = exposed.get('kiosk') as { on: (e: unknown, fn: unknown) => () => void };
    const got: unknown[] = [];
    const off = kiosk.on('punch', (p: unknown) => got.push(p));
    const fire = (message: unknown): void => {
      for (const l of listeners.get('kiosk:event') ?? []) l({ sender: 'ipc' }, message);
    };
    fire({ name: 'status', payload: { s: 1 } });
    fire({ name: 'punch', payload: { p: 1 } });
    fire(null);
    expect(got).toEqual([{ p: 1 }]);
    off();
    fire({ name: 'punch', payload: { p: 2 } });
    expect(got).toEqual([{ p: 1 }]);
    expect([...listeners.keys()]).toEqual(['kiosk:event']);
    expect(() => kiosk.on('ipc', () => {})).toThrow(/unknown event or no function/);
    expect(() => kiosk.on('punch', 'not a function')).toThrow(/unknown event or no function/);
  });

  it('the preload source names only kiosk: channels and requires only electron', () => {
    const src = fs.readFileSync(path.join(ROOT, 'src/main/preload.cts'), 'utf8');
    const channels = [...src.matchAll(/(?:invoke|on|removeListener)\(\s*[`'"]([^`'"]*)/g)].map((m) => m[1]);
    expect(channels.length).toBeGreaterThan(0);
    for (const c of channels) expect(c).toMatch(/^kiosk:/);
    expect([...src.matchAll(/require\(\s*['"]([^'"]+)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(src).not.toMatch(/exposeInMainWorld\(\s*['"](?!kiosk['"])/);
  });
});
