/**
 * The kiosk window's preload: exposes `window.kiosk` (the contract's `Bridge`) and nothing else —
 * one function per call, invoking `kiosk:<call>`, and `on(event, fn)` for `kiosk:event`. No
 * ipcRenderer, no generic invoke, no Node.
 *
 * A `.cts` file, so tsc emits CommonJS (preload.cjs): a sandboxed preload is a classic script that
 * may `require` only Electron's preload modules, never a local file. Hence no runtime imports here;
 * the call list is written out and the compiler checks it against the contract (type-only import).
 */
import type { Bridge, CallName, EventName } from '../contract.js';

type Listener = (...args: unknown[]) => void;
type PreloadElectron = {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: Listener): void;
    removeListener(channel: string, listener: Listener): void;
  };
};

const CALLS = [
  'punch',
  'badgeScan',
  'answerPin',
  'status',
  'screenSettings',
  'adminLogin',
  'adminLogout',
  'lock',
  'listRejected',
  'retryRejected',
  'retryAllRejected',
  'listHeld',
  'decideHeld',
  'syncRoster',
  'listUnresolved',
  'confirmRosterShrink',
  'enrollBadge',
  'unenrollBadge',
  'enrollNextScan',
  'setPin',
  'clearPin',
  'setApiToken',
  'setSite',
  'setRateBudget',
  'receipt',
  'afdTargets',
  'exportAfd',
  'auditCompare',
  'auditCompareState',
  'listWaiting',
  'findPunches',
  'exportPunchesCsv',
  'unmountDrive',
  'receiptPdf',
  'forgotPin',
  'listPinResets',
  'setShiftLeadPin',
  'punchPhoto',
  'cameraState',
  'punchPhotoView',
  'presenceBoard',
  'rollCall',
  'rollCallStart',
  'rollCallMark',
  'rollCallEnd',
] as const satisfies readonly CallName[];
const EVENTS: readonly string[] = ['punch', 'status'] satisfies readonly EventName[];

// A call added to the contract and not listed above fails to compile here.
type Unlisted = Exclude<CallName, (typeof CALLS)[number]>;
const everyCallListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyCallListed;

const { contextBridge, ipcRenderer } = require('electron') as PreloadElectron;

const api: Record<string, unknown> = {};
for (const name of CALLS) {
  // Calls without input may be made without an argument.
  api[name] = (input?: unknown) => ipcRenderer.invoke(`kiosk:${name}`, input === undefined ? {} : input);
}
api.on = (event: unknown, fn: unknown): (() => void) => {
  if (typeof event !== 'string' || !EVENTS.includes(event) || typeof fn !== 'function')
    throw new TypeError('kiosk.on(event, fn): unknown event or no function');
  const listener: Listener = (_ipcEvent, message) => {
    const m = message as { name?: unknown; payload?: unknown } | null;
    if (m && m.name === event) (fn as (payload: unknown) => void)(m.payload);
  };
  ipcRenderer.on('kiosk:event', listener);
  return () => ipcRenderer.removeListener('kiosk:event', listener);
};

contextBridge.exposeInMainWorld('kiosk', api as Bridge);
