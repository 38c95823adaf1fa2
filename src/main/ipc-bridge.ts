/**
 * The bridge contract over Electron IPC: one `ipcMain.handle` channel per call of src/contract.ts
 * (`kiosk:<call>`), agent events pushed on `kiosk:event`. Thin, like the web bridge: it checks who
 * is asking (the kiosk window's main frame showing the renderer's own page), validates the input
 * against the contract, gates admin calls by the admin session, calls the agent through
 * agentHandlers, and validates what goes back. Every refusal is a typed result, never a throw, so
 * the renderer's `invoke` never rejects. No input, PIN or token is ever logged.
 */
import type { z } from 'zod';
import { calls, callNames, events, type BridgeError, type CallName, type ErrorCode, type EventName, type ScreenSettings } from '../contract.js';
import type { Clock } from '../domain/clock.js';
import { silentLogger, type Logger } from '../log.js';
import { AdminSession, agentHandlers, type AdminPin, type BridgeAgent } from '../agent/bridge-handlers.js';
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from './electron-api.js';
import { isRendererUrl } from './kiosk-window.js';

export const CHANNEL_PREFIX = 'kiosk:';
export const EVENT_CHANNEL = 'kiosk:event';
export const channelOf = (name: CallName): string => `${CHANNEL_PREFIX}${name}`;

/** What `kiosk:event` carries. */
export type KioskEventMessage = { name: EventName; payload: unknown };

export type IpcBridgeOptions = {
  ipcMain: IpcMain;
  window: BrowserWindow;
  /** The renderer page's file URL (kiosk-window.ts `rendererUrl`). */
  rendererUrl: string;
  agent: BridgeAgent;
  /** null: admin login is refused (no admin calls on this terminal). */
  adminPin: AdminPin | null;
  /** What the screen is told by `screenSettings` (language, wedge timing, PIN rules). */
  screen?: ScreenSettings;
  adminIdleMs?: number;
  clock?: Clock;
  log?: Logger;
};

export type IpcBridge = { close(): void };

type Issue = { path: (string | number)[]; message: string };

function refusal(code: ErrorCode, message: string, issues?: Issue[]): BridgeError {
  return { ok: false, error: { code, message, ...(issues ? { issues } : {}) } };
}

function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
}

export function registerIpcBridge(opts: IpcBridgeOptions): IpcBridge {
  const log = opts.log ?? silentLogger;
  const clock = opts.clock ?? { now: () => Date.now() };
  // One admin session per window, as the web bridge keeps one per session token.
  const session = new AdminSession(opts.adminPin, opts.adminIdleMs ?? 120_000, clock);
  const handlers = agentHandlers(opts.agent, session, opts.screen);
  const { window } = opts;

  /** Only the kiosk window's top frame, showing our page: not an iframe, not a page it was tricked onto. */
  function fromKiosk(event: IpcMainInvokeEvent): boolean {
    if (window.isDestroyed() || event.sender !== window.webContents) return false;
    const frame = event.senderFrame;
    if (!frame) return false;
    const main = window.webContents.mainFrame;
    const isMain = frame === main || (frame.parent === null && frame.processId === main.processId && frame.routingId === main.routingId);
    return isMain && isRendererUrl(frame.url, opts.rendererUrl);
  }

  /** Handler and schema are looked up by the same name, so the input already has that call's type. */
  function invoke(name: CallName, input: unknown): Promise<unknown> | unknown {
    const fn = handlers[name] as (i: unknown) => Promise<unknown> | unknown;
    return fn(input);
  }

  async function answer(name: CallName, event: IpcMainInvokeEvent, args: unknown[]): Promise<unknown> {
    if (!fromKiosk(event)) {
      log.warn('IPC call from outside the kiosk page refused', { call: name });
      return refusal('forbidden', 'not the kiosk page');
    }
    const spec = calls[name];
    if (spec.admin && !session.touch()) return refusal('forbidden', 'admin session required');
    if (args.length > 1) return refusal('bad_request', `the ${name} call takes one argument`);
    const input = spec.input.safeParse(args[0]);
    if (!input.success) return refusal('bad_request', `input does not fit the ${name} call`, issuesOf(input.error));
    let output: unknown;
    try {
      output = await invoke(name, input.data);
    } catch (e) {
      log.error('IPC call failed', { call: name, error: (e as Error).message });
      return refusal('internal', 'the call failed');
    }
    const checked = spec.output.safeParse(output);
    if (!checked.success) {
      log.error('IPC call answered outside the contract', { call: name, issues: issuesOf(checked.error).map((i) => `${i.path.join('.')}: ${i.message}`) });
      return refusal('internal', 'the call failed');
    }
    return { ok: true, value: checked.data };
  }

  for (const name of callNames) {
    opts.ipcMain.handle(channelOf(name), (event, ...args) =>
      answer(name, event, args).catch((e: unknown) => {
        log.error('IPC call failed', { call: name, error: (e as Error).message });
        return refusal('internal', 'the call failed');
      }),
    );
  }

  const send = (name: EventName, payload: unknown): void => {
    const checked = (events[name] as z.ZodType).safeParse(payload);
    if (!checked.success) {
      log.error('agent event outside the contract, not sent', { event: name });
      return;
    }
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    const message: KioskEventMessage = { name, payload: checked.data };
    window.webContents.send(EVENT_CHANNEL, message);
  };
  const offs = [opts.agent.on('punch', (p) => send('punch', p)), opts.agent.on('status', (s) => send('status', s))];

  return {
    close() {
      for (const off of offs) off();
      for (const name of callNames) opts.ipcMain.removeHandler(channelOf(name));
      session.end();
    },
  };
}
