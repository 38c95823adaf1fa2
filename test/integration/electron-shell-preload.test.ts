/**
 * The compiled preload (dist/src/main/preload.cjs, built by the global setup) run the way a
 * sandboxed renderer runs it: what it exposes, the channels it invokes (through the shell on a fake
 * Electron, test/helpers/fake-electron.ts, to a real agent), its event subscription, and its source.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { callNames } from '../../src/contract.js';
import { electronShellRig } from '../helpers/electron-shell-rig.js';
import { waitFor } from '../helpers/temp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const { setup, seen } = electronShellRig();

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
        removeListener: (channel: string, l: Listener) =>
          listeners.set(
            channel,
            (listeners.get(channel) ?? []).filter((x) => x !== l),
          ),
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
