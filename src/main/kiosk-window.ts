/**
 * The kiosk window and everything that keeps the page inside it: sandboxed renderer with context
 * isolation and only our preload, a strict Content-Security-Policy on every response, no
 * navigation away from the renderer's own file, no new windows, no webviews, no permissions, no
 * DevTools (unless a developer asked for them) and no reload, close, quit or zoom by keyboard.
 */
import { KIOSK_CSP } from '../contract.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  BrowserWindow,
  BrowserWindowConstructor,
  KeyboardInput,
  NavigationEvent,
  PreventableEvent,
} from './electron-api.js';
import { kioskShortcutOf } from './kiosk-shortcuts.js';
import { installPermissions } from './media-permission.js';

/**
 * The same policy the web bridge sends (src/web/web-bridge.ts). Kept in step by a test: main and
 * web may not import each other.
 */
export { KIOSK_CSP };

export type KioskWindowOptions = {
  /** Absolute path of the compiled preload (preload.cjs). */
  preloadPath: string;
  /** Folder holding the renderer's index.html. */
  rendererDir: string;
  /** Full-screen kiosk mode (no window frame, no leaving it by keyboard); off for installers and development. */
  kiosk: boolean;
  /** DevTools allowed (a developer's flag, never the default): F12 / Ctrl+Shift+I then toggle them. */
  devTools?: boolean;
  /** Issue 31: photo.mode on-punch: the page may open the camera (video only). */
  camera?: boolean;
};

/** The file URL of the renderer's page: the only document the window may show and IPC may come from. */
export function rendererUrl(rendererDir: string): string {
  return pathToFileURL(path.join(path.resolve(rendererDir), 'index.html')).href;
}

/** True when `url` is the renderer's page itself (its hash and query may differ: in-page state). */
export function isRendererUrl(url: string, renderer: string): boolean {
  let u: URL;
  let r: URL;
  try {
    u = new URL(url);
    r = new URL(renderer);
  } catch {
    return false;
  }
  return u.protocol === 'file:' && u.protocol === r.protocol && u.host === r.host && u.pathname === r.pathname;
}

export function createKioskWindow(
  BrowserWindow: BrowserWindowConstructor,
  opts: KioskWindowOptions,
): { window: BrowserWindow; url: string } {
  const url = rendererUrl(opts.rendererDir);
  const window = new BrowserWindow({
    show: false,
    kiosk: opts.kiosk,
    fullscreen: opts.kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#000000',
    webPreferences: {
      preload: opts.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      // A middle-click would open a link in a new window (denied anyway by the open handler).
      disableBlinkFeatures: 'Auxclick',
      // The confirmation beep follows a badge scan, which nobody clicked for.
      autoplayPolicy: 'no-user-gesture-required',
      // A console on the kiosk would reach the bridge (and the admin calls) with a keyboard.
      devTools: opts.devTools === true,
    },
  });
  const contents = window.webContents;
  const ses = contents.session;

  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    // Ours replaces any policy the response brought, whatever the header's case.
    for (const [k, v] of Object.entries(details.responseHeaders ?? {}))
      if (k.toLowerCase() !== 'content-security-policy') headers[k] = v;
    headers['Content-Security-Policy'] = [KIOSK_CSP];
    callback({ responseHeaders: headers });
  });
  // No camera (unless photo.mode is on-punch: video only, this page only), microphone, notifications, HID or anything
  // else.
  installPermissions(ses, contents, (u) => isRendererUrl(u, url), opts.camera === true);

  const stayHome = (event: NavigationEvent): void => {
    if (!isRendererUrl(event.url, url)) event.preventDefault();
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event: PreventableEvent) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  // Swallowed in windowed mode too: a reload or Ctrl+W loses the screen's state as surely there.
  contents.on('before-input-event', (event: PreventableEvent, input: KeyboardInput) => {
    const shortcut = kioskShortcutOf(input);
    if (!shortcut) return;
    event.preventDefault();
    if (shortcut.what === 'devtools' && opts.devTools === true && input.type === 'keyDown') contents.toggleDevTools();
  });

  window.once('ready-to-show', () => window.show());
  return { window, url };
}
