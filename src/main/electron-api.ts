/**
 * The few parts of Electron's main-process API the shell uses, written out here so that nothing
 * under src/ needs the `electron` package (an optional dependency: a plain `npm ci` offline drops
 * it) to type-check or build. The real module is structurally a superset of these; tests pass a
 * fake that implements exactly them. Only src/main/main.ts loads the real one, at runtime.
 */

/** An Electron event whose default action a listener may cancel. */
export type PreventableEvent = { preventDefault(): void };

/** `will-navigate` / `will-redirect` (Electron ≥ 25 puts the target URL on the event). */
export type NavigationEvent = PreventableEvent & { url: string };

export type WebFrameMain = {
  readonly url: string;
  readonly processId: number;
  readonly routingId: number;
  readonly parent: WebFrameMain | null;
};

export type IpcMainInvokeEvent = {
  readonly sender: WebContents;
  /** Null when the frame has navigated away or been destroyed since it sent the message. */
  readonly senderFrame: WebFrameMain | null;
};

export type IpcMain = {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown> | unknown,
  ): void;
  removeHandler(channel: string): void;
};

export type HeadersReceivedDetails = { url: string; responseHeaders?: Record<string, string[]> };
export type HeadersReceivedResponse = { cancel?: boolean; responseHeaders?: Record<string, string[] | string> };

/**
 * Issue 31: what Electron tells a permission request handler about a `media` request (MediaAccessPermissionRequest).
 */
export type MediaRequestDetails = { requestingUrl?: string; isMainFrame?: boolean; mediaTypes?: string[] };
/** Issue 31: what Electron tells a permission check handler (PermissionCheckHandlerHandlerDetails). */
export type MediaCheckDetails = {
  requestingUrl?: string;
  isMainFrame?: boolean;
  mediaType?: string;
  securityOrigin?: string;
};

export type Session = {
  webRequest: {
    onHeadersReceived(
      listener: (details: HeadersReceivedDetails, callback: (response: HeadersReceivedResponse) => void) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: (
      webContents: WebContents,
      permission: string,
      callback: (granted: boolean) => void,
      details?: MediaRequestDetails,
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      webContents: WebContents | null,
      permission: string,
      requestingOrigin?: string,
      details?: MediaCheckDetails,
    ) => boolean,
  ): void;
};

/** `before-input-event`'s input: a key going down or up, with the modifiers held. */
export type KeyboardInput = {
  type: string;
  key: string;
  code: string;
  control: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
};

export type WindowOpenResponse = { action: 'deny' } | { action: 'allow' };

export type WebContents = {
  readonly session: Session;
  readonly mainFrame: WebFrameMain;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenResponse): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent) => void): void;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): void;
  /** Before the page sees a key, and before the menu's accelerators do: preventDefault swallows it. */
  on(event: 'before-input-event', listener: (event: PreventableEvent, input: KeyboardInput) => void): void;
  toggleDevTools(): void;
};

export type WebPreferences = {
  preload: string;
  contextIsolation: boolean;
  sandbox: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInSubFrames: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
  webviewTag: boolean;
  spellcheck: boolean;
  /** Comma-separated Blink features to turn off (e.g. Auxclick). */
  disableBlinkFeatures?: string;
  autoplayPolicy?: 'no-user-gesture-required' | 'user-gesture-required' | 'document-user-activation-required';
  /** False: DevTools cannot be opened in this window at all (not by shortcut, not by code). */
  devTools: boolean;
};

export type BrowserWindowOptions = {
  show: boolean;
  kiosk: boolean;
  fullscreen: boolean;
  autoHideMenuBar: boolean;
  backgroundColor: string;
  webPreferences: WebPreferences;
};

export type BrowserWindow = {
  readonly webContents: WebContents;
  loadURL(url: string): Promise<void>;
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
  once(event: 'ready-to-show', listener: () => void): void;
  on(event: 'closed', listener: () => void): void;
};

export type BrowserWindowConstructor = new (options: BrowserWindowOptions) => BrowserWindow;

export type App = {
  /** Chromium switches; those read at start (`lang`) only before `ready`. */
  commandLine: { appendSwitch(name: string, value?: string): void };
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  quit(): void;
  exit(code?: number): void;
  on(event: 'second-instance', listener: () => void): void;
  on(event: 'window-all-closed', listener: () => void): void;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): void;
};

/**
 * `safeStorage`: strings encrypted with a key the OS secret store keeps (Keychain, DPAPI, or on
 * Linux libsecret / kwallet). Usable only after the app's `ready` event.
 */
export type SafeStorage = {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /**
   * Linux only: 'basic_text' (no secret store: a hard-coded key, i.e. plain text in effect),
   * 'gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6', or 'unknown' (asked before `ready`).
   */
  getSelectedStorageBackend?(): string;
};

/**
 * `powerSaveBlocker`: 'prevent-display-sleep' keeps the screen on (no blanking, no DPMS power-down)
 * while started; `start` returns the id that `stop` takes.
 */
export type PowerSaveBlocker = {
  start(type: 'prevent-app-suspension' | 'prevent-display-sleep'): number;
  stop(id: number): void;
};

/** `Menu`: the shell only ever removes the application menu (and with it its accelerators). */
export type MenuApi = { setApplicationMenu(menu: null): void };

/** What the shell takes from `require('electron')` in the main process. */
export type ElectronMain = {
  app: App;
  BrowserWindow: BrowserWindowConstructor;
  ipcMain: IpcMain;
  safeStorage: SafeStorage;
  powerSaveBlocker: PowerSaveBlocker;
  Menu: MenuApi;
};
