/**
 * A recording stand-in for the parts of Electron the shell uses (src/main/electron-api.ts): what
 * the shell configured can be read back, and the events Electron would fire can be fired. The page's
 * side (frames, session, web contents) is in fake-web-contents.ts.
 */
import type {
  App,
  BrowserWindow,
  BrowserWindowOptions,
  ElectronMain,
  IpcMain,
  IpcMainInvokeEvent,
  MenuApi,
  PowerSaveBlocker,
  PreventableEvent,
  SafeStorage,
  WebContents,
  WebFrameMain,
} from '../../src/main/electron-api.js';
import { FakeWebContents } from './fake-web-contents.js';

export class FakeWindow implements BrowserWindow {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  shown = 0;
  focused = 0;
  restored = 0;
  minimized = false;
  destroyed = false;
  private readonly handlers = new Map<string, Array<() => void>>();

  constructor(readonly options: BrowserWindowOptions) {}

  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.mainFrame.url = url;
    this.emit('ready-to-show');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.restored++;
    this.minimized = false;
  }
  show(): void {
    this.shown++;
  }
  focus(): void {
    this.focused++;
  }
  once(event: string, listener: () => void): void {
    const wrapped = (): void => {
      this.handlers.set(
        event,
        (this.handlers.get(event) ?? []).filter((h) => h !== wrapped),
      );
      listener();
    };
    this.on(event, wrapped);
  }
  on(event: string, listener: () => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
  }
  emit(event: string): void {
    for (const h of this.handlers.get(event) ?? []) h();
  }
}

export class FakeIpcMain implements IpcMain {
  readonly handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown>();
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown,
  ): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What `ipcRenderer.invoke(channel, ...args)` from `frame` of `sender` would get. */
  async invoke(
    channel: string,
    from: { sender: WebContents; senderFrame: WebFrameMain | null },
    ...args: unknown[]
  ): Promise<unknown> {
    const h = this.handlers.get(channel);
    if (!h) throw new Error(`No handler registered for '${channel}'`);
    // Electron structured-clones both ways: a result that cannot cross IPC fails here too.
    return structuredClone(await h(from, ...structuredClone(args)));
  }
}

export class FakeApp implements App {
  lockFree = true;
  /** Chromium switches appended, in order. */
  readonly switches: Array<[string, string | undefined]> = [];
  readonly commandLine = {
    appendSwitch: (name: string, value?: string): void => void this.switches.push([name, value]),
  };
  quits = 0;
  exitCode: number | null = null;
  private readonly handlers = new Map<string, Array<(e: PreventableEvent) => void>>();

  requestSingleInstanceLock(): boolean {
    return this.lockFree;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  /** Like Electron: `before-quit` first; the quit happens unless a listener prevented it. */
  quit(): void {
    if (!this.emit('before-quit')) this.quits++;
  }
  exit(code = 0): void {
    this.exitCode = code;
  }
  on(event: string, listener: (e: PreventableEvent) => void): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener]);
  }
  /** Fires `event`; true when some listener prevented it. */
  emit(event: string): boolean {
    let prevented = false;
    for (const h of this.handlers.get(event) ?? []) h({ preventDefault: () => (prevented = true) });
    return prevented;
  }
}

/**
 * safeStorage with a chosen Linux backend. "Encryption" is a byte-wise XOR with a key the fake
 * keeps (standing in for the secret store's), so the ciphertext holds none of the plain bytes.
 */
export class FakeSafeStorage implements SafeStorage {
  available = true;
  encrypted = 0;
  private readonly key = 0x5a;

  constructor(public backend = 'gnome_libsecret') {}

  isEncryptionAvailable(): boolean {
    return this.available;
  }
  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available.');
    this.encrypted++;
    const b = Buffer.from(plainText, 'utf8');
    return Buffer.concat([Buffer.from('FAKE1'), Buffer.from(b.map((x) => x ^ this.key))]);
  }
  decryptString(encrypted: Buffer): string {
    if (!encrypted.subarray(0, 5).equals(Buffer.from('FAKE1')))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(encrypted.subarray(5).map((x) => x ^ this.key)).toString('utf8');
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
}

/** Records each blocker started (with how many windows existed then) and each one stopped. */
export class FakePowerSaveBlocker implements PowerSaveBlocker {
  readonly started: Array<{ id: number; type: string; windows: number }> = [];
  readonly stopped: number[] = [];
  private nextId = 1;

  constructor(private readonly windows: readonly FakeWindow[]) {}

  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number {
    const id = this.nextId++;
    this.started.push({ id, type, windows: this.windows.length });
    return id;
  }
  stop(id: number): void {
    this.stopped.push(id);
  }
  /** Ids started and not stopped yet. */
  active(): number[] {
    return this.started.map((s) => s.id).filter((id) => !this.stopped.includes(id));
  }
}

/** Records each application menu set (the shell sets only `null`: no menu). */
export class FakeMenu implements MenuApi {
  readonly set: Array<null> = [];
  setApplicationMenu(menu: null): void {
    this.set.push(menu);
  }
}

export type FakeElectron = ElectronMain & {
  Menu: FakeMenu;
  app: FakeApp;
  ipcMain: FakeIpcMain;
  windows: FakeWindow[];
  safeStorage: FakeSafeStorage;
  powerSaveBlocker: FakePowerSaveBlocker;
};

export function fakeElectron(): FakeElectron {
  const windows: FakeWindow[] = [];
  class RecordingWindow extends FakeWindow {
    constructor(options: BrowserWindowOptions) {
      super(options);
      windows.push(this);
    }
  }
  return {
    app: new FakeApp(),
    ipcMain: new FakeIpcMain(),
    BrowserWindow: RecordingWindow,
    windows,
    safeStorage: new FakeSafeStorage(),
    powerSaveBlocker: new FakePowerSaveBlocker(windows),
    Menu: new FakeMenu(),
  };
}
