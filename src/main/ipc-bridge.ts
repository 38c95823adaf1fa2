/**
 * The bridge contract over Electron IPC: one `ipcMain.handle` channel per call of src/contract.ts
 * (`kiosk:<call>`), agent events pushed on `kiosk:event`. Thin, like the web bridge: it checks who
 * is asking (the kiosk window's main frame showing the renderer's own page) and frames the call (one
 * argument); validation, the admin gate, the call and the check of what goes back are the one
 * dispatcher's (src/bridge/dispatcher.ts). Every refusal is a typed result, never a throw, so the
 * renderer's `invoke` never rejects. No input, PIN or token is ever logged.
 */
import { callNames, type BridgeError, type CallName, type EventName } from '../contract.js';
import { createDispatcher, refusal, type Caller, type DispatcherOptions } from '../bridge/dispatcher.js';
import { silentLogger } from '../log.js';
import type { AdminSession } from '../agent/identity/admin-session.js';
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent, WebContents } from './electron-api.js';
import { isRendererUrl } from './kiosk-window.js';

export const CHANNEL_PREFIX = 'kiosk:';
export const EVENT_CHANNEL = 'kiosk:event';
export const channelOf = (name: CallName): string => `${CHANNEL_PREFIX}${name}`;

/** What `kiosk:event` carries. */
export type KioskEventMessage = { name: EventName; payload: unknown };

export type IpcBridgeOptions = DispatcherOptions & {
  ipcMain: IpcMain;
  window: BrowserWindow;
  /** The renderer page's file URL (kiosk-window.ts `rendererUrl`). */
  rendererUrl: string;
};

export type IpcBridge = { close(): void };

export function registerIpcBridge(opts: IpcBridgeOptions): IpcBridge {
  const dispatcher = createDispatcher(opts);
  const log = opts.log ?? silentLogger;
  const { window } = opts;
  // One admin session per renderer: bound to the sender and to the document in its main frame
  // (process and routing ids), so a renderer that replaced a crashed or reloaded one, or any other
  // sender, starts closed, as a second browser does on the web bridge (its own cookie).
  const sessions = new Map<WebContents, { frame: string; session: AdminSession }>();
  function callerOf(event: IpcMainInvokeEvent): Caller {
    const frame = event.senderFrame ? `${event.senderFrame.processId}:${event.senderFrame.routingId}` : '';
    const held = sessions.get(event.sender);
    if (held && held.frame === frame) return { session: held.session, via: 'IPC' };
    held?.session.end();
    const session = dispatcher.newSession();
    sessions.set(event.sender, { frame, session });
    return { session, via: 'IPC' };
  }

  /** Only the kiosk window's top frame, showing our page: not an iframe, not a page it was tricked onto. */
  function fromKiosk(event: IpcMainInvokeEvent): boolean {
    if (window.isDestroyed() || event.sender !== window.webContents) return false;
    const frame = event.senderFrame;
    if (!frame) return false;
    const main = window.webContents.mainFrame;
    const isMain =
      frame === main ||
      (frame.parent === null && frame.processId === main.processId && frame.routingId === main.routingId);
    return isMain && isRendererUrl(frame.url, opts.rendererUrl);
  }

  async function answer(name: CallName, event: IpcMainInvokeEvent, args: unknown[]): Promise<unknown> {
    if (!fromKiosk(event)) {
      log.warn('IPC call from outside the kiosk page refused', { call: name });
      return refusal('forbidden', 'not the kiosk page');
    }
    const a = await dispatcher.dispatch<BridgeError>(
      name,
      () =>
        args.length > 1
          ? { refused: refusal('bad_request', `the ${name} call takes one argument`) }
          : { input: args[0] },
      callerOf(event),
    );
    return 'refused' in a ? a.refused : a;
  }

  for (const name of callNames) {
    opts.ipcMain.handle(channelOf(name), (event, ...args) =>
      answer(name, event, args).catch((e: unknown) => {
        log.error('IPC call failed', { call: name, error: (e as Error).message });
        return refusal('internal', 'the call failed');
      }),
    );
  }

  const off = dispatcher.subscribe((name, payload) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    const message: KioskEventMessage = { name, payload };
    window.webContents.send(EVENT_CHANNEL, message);
  });

  return {
    close() {
      off();
      for (const name of callNames) opts.ipcMain.removeHandler(channelOf(name));
      for (const held of sessions.values()) held.session.end();
      sessions.clear();
    },
  };
}
