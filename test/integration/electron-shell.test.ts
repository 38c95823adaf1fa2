/**
 * The Electron shell on a fake Electron (test/helpers/fake-electron.ts) in front of a real agent
 * (real SQLite, real mock API on loopback): how the window is locked down, the single-instance
 * rule, a clean stop on quit, and the display kept on in kiosk mode. The IPC bridge is in
 * electron-shell-ipc.test.ts, the compiled preload in electron-shell-preload.test.ts.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createKioskWindow, KIOSK_CSP } from '../../src/main/kiosk-window.js';
import { runShell } from '../../src/main/shell.js';
import { startWebBridge } from '../../src/web/web-bridge.js';
import { electronShellRig, PRELOAD } from '../helpers/electron-shell-rig.js';
import { fakeElectron, FakeWindow } from '../helpers/fake-electron.js';
import { waitFor } from '../helpers/temp.js';

const { setup, cleanups, logLines } = electronShellRig();

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
      devTools: false,
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
    expect(made[0]?.options).toMatchObject({
      kiosk: false,
      fullscreen: false,
      webPreferences: { sandbox: true, contextIsolation: true },
    });
  });

  it('puts the web bridge’s Content-Security-Policy on every response, replacing any other', async () => {
    const { win, url, agent, root } = await setup();
    const out = win.webContents.session.respond({
      url,
      responseHeaders: {
        'content-type': ['text/html'],
        'content-security-policy': ["default-src *; script-src 'unsafe-inline'"],
      },
    });
    expect(out).toEqual({ responseHeaders: { 'content-type': ['text/html'], 'Content-Security-Policy': [KIOSK_CSP] } });
    expect(win.webContents.session.respond({ url: 'file:///x/app.js' })?.responseHeaders).toEqual({
      'Content-Security-Policy': [KIOSK_CSP],
    });

    // The same policy as the web bridge serves (main and web may not import each other).
    const web = await startWebBridge({ agent, host: '127.0.0.1', port: 0, rendererDir: root, adminPin: null });
    cleanups.push(() => web.close());
    const header = await new Promise<string | string[] | undefined>((resolve, reject) => {
      http
        .get(`${web.origin}/index.html`, (res) => {
          res.resume();
          resolve(res.headers['content-security-policy']);
        })
        .on('error', reject);
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
    expect({ restored: win.restored, shown: win.shown, focused: win.focused }).toEqual({
      restored: 1,
      shown: 2,
      focused: 1,
    });

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
