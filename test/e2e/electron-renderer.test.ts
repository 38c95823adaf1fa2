/**
 * The kiosk screen as the Electron window shows it, without the Electron runtime (which cannot be
 * downloaded here): the built renderer loaded from file:// in Debian's Chromium (so its CSP meta
 * tag, its classic script and its sounds are what Electron would load), the real compiled preload
 * (dist/src/main/preload.cjs) run in the page with a stand-in `require('electron')`, and behind it
 * the real shell and IPC bridge (src/main) on the fake `electron` module, with a real agent.
 *
 * What the stand-in replaces is only the transport: `ipcRenderer.invoke` reaches the shell's
 * `ipcMain` handlers as a call from the kiosk window's main frame, and `webContents.send` reaches
 * the page's `ipcRenderer.on` listeners.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runShell } from '../../src/main/shell.js';
import { fakeElectron } from '../helpers/fake-electron.js';
import {
  ADMIN_PIN,
  RENDERER_DIR,
  screenshotPath,
  TEST_SCREEN,
  wedgeBurst,
  type KioskRig,
} from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';

const PRELOAD = path.resolve('dist/src/main/preload.cjs');

const rigs = kioskRigPerTest();
let rig: KioskRig | null = null;

/** The preload, as a sandboxed renderer runs it: a script given `require`, `exports` and nothing else. */
function preloadInitScript(): string {
  const source = fs.readFileSync(PRELOAD, 'utf8');
  return `(() => {
    const listeners = [];
    window.__ipcEmit = (channel, args) => { for (const l of listeners) if (l.channel === channel) l.fn({ sender: null }, ...args); };
    const electron = {
      contextBridge: { exposeInMainWorld: (key, api) => { Object.defineProperty(window, key, { value: Object.freeze(api) }); } },
      ipcRenderer: {
        invoke: (channel, ...args) => window.__ipcInvoke(channel, args),
        on: (channel, fn) => { listeners.push({ channel, fn }); },
        removeListener: (channel, fn) => { const i = listeners.findIndex((l) => l.channel === channel && l.fn === fn); if (i >= 0) listeners.splice(i, 1); },
      },
    };
    const require = (name) => { if (name !== 'electron') throw new Error('a sandboxed preload may not require ' + name); return electron; };
    const exports = {};
    ${source}
  })();`;
}

async function electronKiosk(): Promise<{ page: Page; problems: string[]; calls: string[] }> {
  rig = await rigs.start();
  const r = rig;
  const electron = fakeElectron();
  const shell = runShell(electron, {
    preloadPath: PRELOAD,
    rendererDir: RENDERER_DIR,
    kiosk: true,
    startAgent: async () => ({
      agent: r.agent,
      adminPin: { verify: (pin) => r.agent.admin.verifyAdminPin(pin) },
      screen: TEST_SCREEN,
      shutdown: async () => {},
    }),
  });
  await shell.ready;
  const win = electron.windows[0];
  if (!win) throw new Error('the shell opened no window');
  const url = win.loaded[0];
  if (!url?.startsWith('file://')) throw new Error(`the window loaded ${url ?? 'nothing'}`);

  const context = await rigs
    .browser()
    .newContext({ viewport: { width: 800, height: 480 }, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const calls: string[] = [];
  const kiosk = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
  await page.exposeBinding('__ipcInvoke', async (_source, channel: string, args: unknown[]) => {
    calls.push(channel);
    return electron.ipcMain.invoke(channel, kiosk, ...args);
  });
  const send = win.webContents.send.bind(win.webContents);
  win.webContents.send = (channel: string, ...args: unknown[]): void => {
    send(channel, ...args);
    page
      .evaluate(([c, a]) => (globalThis as unknown as { __ipcEmit(c: unknown, a: unknown): void }).__ipcEmit(c, a), [
        channel,
        args,
      ] as const)
      .catch(() => {});
  };
  await page.addInitScript({ content: preloadInitScript() });
  await page.goto(url);
  await page.waitForSelector('body[data-screen="idle"]', { timeout: 15_000 });
  return { page, problems, calls };
}

const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();

describe('the kiosk screen in the Electron window (file://, real preload, IPC bridge on a fake electron)', () => {
  it('loads from file:// under its CSP, talks only through window.kiosk, and a wedge burst punches', async () => {
    const { page, problems, calls } = await electronKiosk();
    expect(await text(page, 'site-name')).toBe('Obra Centro — São Paulo');
    expect(await page.evaluate(() => typeof (globalThis as unknown as { kiosk?: unknown }).kiosk)).toBe('object');
    await wedgeBurst(page, '1007');
    await page.waitForSelector('body[data-screen="result"]');
    const name = rig?.mock.employees().find((e) => e.external_id === '1007')?.full_name;
    expect(await text(page, 'result-name')).toBe(name);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.lastSound)).toBe(
      'success',
    );
    await page.screenshot({ path: screenshotPath('electron-result-800x480') });
    await waitFor(
      () => rig?.mock.records().some((x) => x.employee_external_id === '1007') === true,
      'the punch delivered',
    );
    // The screen used IPC for everything; events came back over it too (the status after the punch).
    expect(calls).toEqual(expect.arrayContaining(['kiosk:screenSettings', 'kiosk:status', 'kiosk:badgeScan']));
    await page.click('[data-testid=result]');
    await page.waitForSelector('[data-testid=connection][data-state="online"][data-waiting="0"]');
    expect(problems.filter((p) => /Content Security Policy|Uncaught|Error/i.test(p))).toEqual([]);
  });

  it('admin login over IPC: a wrong PIN is refused, the right one opens the admin screen', async () => {
    const { page } = await electronKiosk();
    await page.click('[data-testid=open-admin]');
    await page.waitForSelector('body[data-screen="admin-login"]');
    for (const d of '0000') await page.click(`[data-testid=key-${d}]`);
    await page.click('[data-testid=key-ok]');
    await page.waitForSelector('[data-testid=admin-login-error]:not(:empty)');
    for (const d of ADMIN_PIN) await page.click(`[data-testid=key-${d}]`);
    await page.click('[data-testid=key-ok]');
    await page.waitForSelector('body[data-screen="admin"]');
    await page.click('[data-testid=tab-settings]');
    // The token is never shown: the field is empty, only where it is kept is said.
    expect(await page.inputValue('[data-testid=token-input]')).toBe('');
    expect(await text(page, 'token-source')).not.toBe('');
    expect(await page.content()).not.toContain('kiosk-e2e-token');
  });
});
