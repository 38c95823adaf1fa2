import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { bridgeErrorSchema, type BridgeError, type CallName } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';
import type { WebContents, WebFrameMain } from '../../src/main/electron-api.js';
import { safeStorageTokenStore } from '../../src/main/safe-storage-token.js';
import { runShell, type RunningAgent, type Shell } from '../../src/main/shell.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { agentWithRenderer } from './bridge-setup.js';
import { fakeElectron, type FakeElectron, type FakeWindow } from './fake-electron.js';
import type { ScreenSettings } from '../../src/contract.js';

export const API_TOKEN = 'api-token-electron-4d9a61f2c7e83b05';
export const ADMIN_PIN = '582913';
export const PRELOAD = '/opt/timeclock/dist/src/main/preload.cjs';

export type Sender = { sender: WebContents; senderFrame: WebFrameMain | null };
export type Ctx = {
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

export type ShellRig = {
  /**
   * `backend`: the Linux secret-store backend the fake safeStorage reports (the agent's token store is
   * the shell's). `kiosk: false` is the windowed mode (installers, development).
   */
  setup(o?: { backend?: string; kiosk?: boolean; devTools?: boolean; screen?: ScreenSettings }): Promise<Ctx>;
  cleanups: Array<() => Promise<void> | void>;
  /** Every IPC result and log line of a test, checked for secrets after it. */
  seen: string[];
  logLines: string[];
};

/**
 * The Electron shell on a fake Electron (fake-electron.ts) in front of a real agent (real SQLite,
 * real mock API on loopback), for one test file: call once at the top level. After each test it
 * runs the cleanups, last first, and checks that no IPC result or log line held the API token or
 * the admin PIN.
 */
export function electronShellRig(): ShellRig {
  const cleanups: Array<() => Promise<void> | void> = [];
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

  async function setup(
    o: { backend?: string; kiosk?: boolean; devTools?: boolean; screen?: ScreenSettings } = {},
  ): Promise<Ctx> {
    const electron = fakeElectron();
    electron.safeStorage.backend = o.backend ?? 'gnome_libsecret';
    const { mock, agent, root, dataDir } = await agentWithRenderer(
      cleanups,
      API_TOKEN,
      { 'index.html': '<!doctype html><title>kiosk</title>' },
      (dir) => ({
        tokens: safeStorageTokenStore(electron.safeStorage, dir, { platform: 'linux' }),
      }),
    );
    let shutdowns = 0;
    const running: RunningAgent = {
      agent,
      adminPin: { verify: async (pin) => pin === ADMIN_PIN },
      ...(o.screen ? { screen: o.screen } : {}),
      shutdown: async () => {
        shutdowns++;
        await agent.stop();
      },
    };
    const shell = runShell(electron, {
      preloadPath: PRELOAD,
      rendererDir: root,
      kiosk: o.kiosk ?? true,
      ...(o.devTools !== undefined ? { devTools: o.devTools } : {}),
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
    return {
      electron,
      shell,
      win,
      agent,
      mock,
      root,
      url: pathToFileURL(path.join(root, 'index.html')).href,
      kiosk,
      shutdowns: () => shutdowns,
      dataDir,
      call,
    };
  }

  return { setup, cleanups, seen, logLines };
}

export function errorOf(r: unknown): BridgeError['error'] {
  return bridgeErrorSchema.parse(r).error;
}
