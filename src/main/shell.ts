/**
 * The Electron shell's life cycle, on any object shaped like Electron (tests pass a fake): one
 * instance per machine, then agent → window → IPC, and a clean agent stop before the app quits.
 */
import type { AdminPin, BridgeAgent } from '../agent/bridge-handlers.js';
import type { ScreenSettings } from '../contract.js';
import type { Clock } from '../domain/time/clock.js';
import { silentLogger, type Logger } from '../log.js';
import type { BrowserWindow, ElectronMain } from './electron-api.js';
import { registerIpcBridge, type IpcBridge } from './ipc-bridge.js';
import { createKioskWindow } from './kiosk-window.js';

/** A started agent and how to stop it (and whatever was started with it, e.g. the demo mock). */
export type RunningAgent = {
  agent: BridgeAgent;
  adminPin: AdminPin | null;
  screen?: ScreenSettings;
  shutdown(): Promise<void>;
};

export type ShellOptions = {
  preloadPath: string;
  rendererDir: string;
  kiosk: boolean;
  /** DevTools allowed in the window (`--dev-tools`, TIMECLOCK_DEV_TOOLS=1): for developers only. */
  devTools?: boolean;
  /** Called only by the instance that holds the single-instance lock, after `app.whenReady()`. */
  startAgent(): Promise<RunningAgent>;
  log?: Logger;
  clock?: Clock;
  adminIdleMs?: number;
};

export type Shell = {
  /** False: another instance runs; this one is quitting and started nothing. */
  primary: boolean;
  /** Settles when the agent is running and the window is loading (or when start-up failed, which quits). */
  ready: Promise<void>;
  window(): BrowserWindow | null;
};

export function runShell(electron: ElectronMain, opts: ShellOptions): Shell {
  const { app } = electron;
  const log = opts.log ?? silentLogger;
  if (!app.requestSingleInstanceLock()) {
    log.info('another kiosk instance is running: quitting');
    app.quit();
    return { primary: false, ready: Promise.resolve(), window: () => null };
  }

  let win: BrowserWindow | null = null;
  let bridge: IpcBridge | null = null;
  let running: RunningAgent | null = null;
  let stopping: Promise<void> | null = null;
  let stopped = false;
  /** The display-sleep blocker's id while the kiosk window is up. */
  let awake: number | null = null;

  /** Once, whoever asks first: display blocker and IPC off, then the agent (which commits nothing half-way). */
  const stopAll = (): Promise<void> =>
    (stopping ??= (async () => {
      if (awake !== null) electron.powerSaveBlocker.stop(awake);
      awake = null;
      bridge?.close();
      bridge = null;
      try {
        await running?.shutdown();
      } catch (e) {
        log.error('agent stop failed', { error: (e as Error).message });
      }
      stopped = true;
    })());

  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (stopped) return;
    // Hold the quit until the agent has stopped, then quit again (this handler lets it through).
    event.preventDefault();
    void stopAll().then(() => app.quit());
  });

  const ready = (async () => {
    await app.whenReady();
    const started = await opts.startAgent();
    if (stopping) {
      // Quit was asked for while the agent started: stopAll did not know it yet.
      await started.shutdown();
      return;
    }
    running = started;
    // No menu bar and none of the default menu's accelerators (reload, close, quit, zoom, DevTools).
    electron.Menu.setApplicationMenu(null);
    const created = createKioskWindow(electron.BrowserWindow, {
      preloadPath: opts.preloadPath,
      rendererDir: opts.rendererDir,
      kiosk: opts.kiosk,
      devTools: opts.devTools === true,
      camera: started.screen?.photo !== undefined,
    });
    win = created.window;
    // A time clock is looked at, not used: without this the screen blanks between punches (the
    // session turns X's blanking off too; under Wayland this is what keeps the display on).
    if (opts.kiosk) awake = electron.powerSaveBlocker.start('prevent-display-sleep');
    bridge = registerIpcBridge({
      ipcMain: electron.ipcMain,
      window: created.window,
      rendererUrl: created.url,
      agent: started.agent,
      adminPin: started.adminPin,
      ...(started.screen ? { screen: started.screen } : {}),
      ...(opts.adminIdleMs !== undefined ? { adminIdleMs: opts.adminIdleMs } : {}),
      ...(opts.clock ? { clock: opts.clock } : {}),
      log,
    });
    win.on('closed', () => {
      win = null;
    });
    await created.window.loadURL(created.url);
  })().catch(async (e: unknown) => {
    log.error('kiosk start failed', { error: (e as Error).message });
    await stopAll();
    app.exit(1);
  });

  return { primary: true, ready, window: () => win };
}
