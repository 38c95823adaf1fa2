/**
 * The page's side of the Electron stand-in (test/helpers/fake-electron.ts): frames, the session with its
 * header and permission handlers, and the web contents whose keys and navigation events a test fires. Apart
 * from the app, IPC and window fakes because tests of the page's rules (IPC senders, camera permission)
 * use these alone.
 */
import type {
  HeadersReceivedDetails,
  HeadersReceivedResponse,
  KeyboardInput,
  MediaCheckDetails,
  MediaRequestDetails,
  NavigationEvent,
  PreventableEvent,
  Session,
  WebContents,
  WebFrameMain,
  WindowOpenResponse,
} from '../../src/main/electron-api.js';

export class FakeFrame implements WebFrameMain {
  constructor(
    public url: string,
    readonly processId: number,
    readonly routingId: number,
    readonly parent: WebFrameMain | null = null,
  ) {}
}

type HeadersListener = (details: HeadersReceivedDetails, callback: (r: HeadersReceivedResponse) => void) => void;
type PermissionRequest = (
  wc: WebContents,
  permission: string,
  callback: (granted: boolean) => void,
  details?: MediaRequestDetails,
) => void;
type PermissionCheck = (
  wc: WebContents | null,
  permission: string,
  requestingOrigin?: string,
  details?: MediaCheckDetails,
) => boolean;

export class FakeSession implements Session {
  headersListener: HeadersListener | null = null;
  permissionRequest: PermissionRequest | null = null;
  permissionCheck: PermissionCheck | null = null;
  readonly webRequest = {
    onHeadersReceived: (listener: HeadersListener): void => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: PermissionRequest): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheck): void {
    this.permissionCheck = handler;
  }
  /** Runs a response through the installed listener, as Electron would. */
  respond(details: HeadersReceivedDetails): HeadersReceivedResponse | null {
    let out: HeadersReceivedResponse | null = null;
    this.headersListener?.(details, (r) => (out = r));
    return out;
  }
}

let nextFrameId = 1;

export class FakeWebContents implements WebContents {
  readonly session = new FakeSession();
  readonly mainFrame = new FakeFrame('about:blank', 7, nextFrameId++);
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  destroyed = false;
  openHandler: ((details: { url: string }) => WindowOpenResponse) | null = null;
  devToolsToggled = 0;
  private readonly listeners = new Map<string, Array<(e: NavigationEvent, input?: KeyboardInput) => void>>();

  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenResponse): void {
    this.openHandler = handler;
  }
  on(event: string, listener: (e: NavigationEvent, input: KeyboardInput) => void): void {
    this.listeners.set(event, [
      ...(this.listeners.get(event) ?? []),
      listener as (e: NavigationEvent, input?: KeyboardInput) => void,
    ]);
  }
  toggleDevTools(): void {
    this.devToolsToggled++;
  }
  /**
   * A key as Electron reports it to `before-input-event` (a keyDown unless `type` says otherwise);
   * true when a listener swallowed it, i.e. neither the page nor an accelerator would see it.
   */
  press(input: Partial<KeyboardInput> & Pick<KeyboardInput, 'key' | 'code'>): boolean {
    let prevented = false;
    const e: NavigationEvent = { url: '', preventDefault: () => (prevented = true) };
    const full: KeyboardInput = { type: 'keyDown', control: false, shift: false, alt: false, meta: false, ...input };
    for (const l of this.listeners.get('before-input-event') ?? []) l(e, full);
    return prevented;
  }
  /** Fires a cancelable event; true when some listener prevented it. */
  fire(event: string, url = ''): boolean {
    let prevented = false;
    const e: NavigationEvent & PreventableEvent = { url, preventDefault: () => (prevented = true) };
    for (const l of this.listeners.get(event) ?? []) l(e);
    return prevented;
  }
  hasListener(event: string): boolean {
    return (this.listeners.get(event) ?? []).length > 0;
  }
}
