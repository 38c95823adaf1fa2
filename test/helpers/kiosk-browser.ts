/**
 * The kiosk screen as a terminal runs it in a browser: the mock API, a real agent on a real SQLite
 * file, the web bridge serving the built renderer (dist/renderer, made by scripts/build.mjs), and
 * Debian's Chromium driven by playwright-core. Shared by the end-to-end tests and the screen bench.
 */
import type { DriveRoots } from '../../src/agent/host/removable-drives.js';
import { kioskBrowserEnv } from '../../src/cli/terminal/browser.js';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import type { Agent } from '../../src/agent/facade/agent.js';
import { API_VERSION_SEGMENT } from '../../src/api/shapes.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { DEMO_SITE_ID, demoSeed, type MockSeed } from '../../src/mock/seed.js';
import { startWebBridge, type WebBridge } from '../../src/web/web-bridge.js';
import { DEFAULT_SCREEN_SETTINGS, type AdminPin } from '../../src/agent/bridge-handlers.js';
import type { ScreenSettings } from '../../src/contract.js';
import { testAgent } from './agent.js';
import { tempDir } from './temp.js';

/** Debian's package puts it here; TIMECLOCK_CHROMIUM points elsewhere. */
export const CHROMIUM_PATH = process.env.TIMECLOCK_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The flags a closed-network machine needs (no first-run, no background fetches that fail at every
 * start), plus sound without a click first: the kiosk beeps for a badge scan nobody clicked for.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export const RENDERER_DIR = path.resolve('dist/renderer');
export const ARTIFACTS_DIR = path.resolve('test-artifacts');

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium; .ci/run does) or set TIMECLOCK_CHROMIUM`,
    );
  }
  if (!fs.existsSync(path.join(RENDERER_DIR, 'app.js')))
    throw new Error(`no built renderer in ${RENDERER_DIR}: run npm run build`);
  // The environment `timeclock start --browser` gives it, at a site speaking pt-BR (the default): the
  // admin screen's date fields are drawn in that locale.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    env: kioskBrowserEnv(process.env, 'pt-BR'),
  });
}

export type KioskRig = {
  mock: MockServer;
  agent: Agent;
  bridge: WebBridge;
  browser: Browser;
  /** The API goes away (connection refused), as when the site's internet drops. */
  stopMock(): Promise<void>;
  /** The API comes back on the same address, with the same employees. */
  startMock(): Promise<void>;
  /**
   * A page on the kiosk screen at this size, loaded and showing the idle screen; `problems` collects its script errors
   * and console errors (CSP violations among them).
   */
  open(size: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
};

export const API_TOKEN = 'kiosk-e2e-token';
export const ADMIN_PIN = '2580';

export type KioskRigOptions = {
  /** Share one browser between rigs (each page gets its own context). */
  browser?: Browser;
  /** Config settings over the test defaults (identity, pin, screen...). */
  settings?: Record<string, unknown>;
  /** The API's employees and sites; default the demo's. */
  seed?: MockSeed;
  siteId?: string;
  /** Answers the spec allows besides the mock's own choices (src/mock/variants.ts); default none. */
  variants?: ServerVariants;
  /**
   * The API is not up at start (a first boot with the service unreachable): the agent points at a
   * free loopback port where nothing listens; `startMock()` brings the mock up on that port.
   */
  apiDown?: boolean;
  /** The agent's TCP liveness check of the API (config api.livenessEveryMs); default the config's 5 000 ms. */
  livenessEveryMs?: number;
  /** What the screen is told (language, wedge timing...); default TEST_SCREEN. */
  screen?: ScreenSettings;
  /** Where the data directory goes (a small tmpfs, to fill it); default a temporary directory. */
  dataDir?: string;
  /** Where the agent looks for removable drives (a fake /proc/mounts and /sys); default the machine's. */
  afdDrives?: DriveRoots;
  /**
   * The agent's and the mock's clocks this far from the machine's (whole days keep the time of day): a screen test
   * pins the date its punches show (the longest weekday and month) instead of taking the day it runs on.
   */
  clockShiftMs?: number;
  /** The admin login's PIN check (default: the manager's PIN alone, the bridge counting wrong ones). */
  adminPin?: (agent: Agent) => AdminPin;
};

/**
 * The screen's settings in tests: the wedge detector's gap limit is raised from 30 ms to 100 ms, a
 * margin for a CI machine busy with other test files while Chromium takes a burst; the timing
 * rules themselves are tested in the detector's unit tests, and the bench uses the real 30 ms.
 * A person's typing in the tests (typeSlowly) is slower than `holdMs`.
 */
export const TEST_SCREEN: ScreenSettings = {
  ...DEFAULT_SCREEN_SETTINGS,
  wedge: { ...DEFAULT_SCREEN_SETTINGS.wedge, maxInterKeyMs: 100, holdMs: 150 },
};

export async function startKioskRig(opts: KioskRigOptions = {}): Promise<KioskRig> {
  const cleanups: Array<() => Promise<void> | void> = [];
  const close = async (): Promise<void> => {
    for (const c of cleanups.reverse()) await c();
  };
  const shift = opts.clockShiftMs ?? 0;
  const shifted = shift === 0 ? null : { now: () => Date.now() + shift };
  try {
    const mockOptions = {
      tokens: [API_TOKEN],
      seed: opts.seed ?? demoSeed(),
      rateLimit: { limit: 60, windowMs: 60_000 },
      ...(opts.variants ? { variants: opts.variants } : {}),
      ...(shifted ? { clock: shifted } : {}),
    };
    let mock: MockServer | null = opts.apiDown ? null : await startMockServer(mockOptions);
    const port = mock?.port ?? (await freeLoopbackPort());
    cleanups.push(() => mock?.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const apiUrl = mock?.url ?? `http://127.0.0.1:${port}${API_VERSION_SEGMENT}`;
    // testAgent's settings replace its `api` whole: the liveness interval goes in with the rest of it.
    const api =
      opts.livenessEveryMs === undefined
        ? {}
        : { api: { baseUrl: apiUrl, token: API_TOKEN, timeoutMs: 1_000, livenessEveryMs: opts.livenessEveryMs } };
    const agent = testAgent({
      dataDir: opts.dataDir ?? path.join(t.dir, 'data'),
      mock: { url: apiUrl },
      token: API_TOKEN,
      rateLimit: { limit: 60, windowMs: 60_000 },
      retry: { baseMs: 100, maxMs: 500 },
      ...(opts.settings || opts.livenessEveryMs !== undefined ? { settings: { ...opts.settings, ...api } } : {}),
      siteId: opts.siteId ?? DEMO_SITE_ID,
      ...(opts.afdDrives ? { afdDrives: opts.afdDrives } : {}),
      ...(shifted ? { clock: shifted } : {}),
    });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    const pinSet = await agent.admin.setAdminPin(ADMIN_PIN);
    if (!pinSet.ok) throw new Error(`admin PIN not set: ${JSON.stringify(pinSet)}`);
    const bridge = await startWebBridge({
      agent,
      host: '127.0.0.1',
      port: 0,
      rendererDir: RENDERER_DIR,
      adminPin: opts.adminPin ? opts.adminPin(agent) : { verify: (pin) => agent.admin.verifyAdminPin(pin) },
      screen: opts.screen ?? TEST_SCREEN,
    });
    cleanups.push(() => bridge.close());
    const browser = opts.browser ?? (await launchChromium());
    if (!opts.browser) cleanups.push(() => browser.close());

    const rig: KioskRig = {
      get mock(): MockServer {
        if (!mock) throw new Error('the mock is stopped');
        return mock;
      },
      agent,
      bridge,
      browser,
      stopMock: async () => {
        await mock?.close();
        mock = null;
      },
      startMock: async () => {
        mock = await startMockServer({ ...mockOptions, port });
      },
      open: async (size) => {
        const context = await browser.newContext({ viewport: size, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
        cleanups.push(() => context.close());
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        await page.goto(bridge.url);
        await page.waitForSelector('body[data-screen="idle"]', { timeout: 15_000 }).catch((e: unknown) => {
          throw new Error(
            `the idle screen did not come up: ${(e as Error).message}; page errors: ${problems.join(' | ') || 'none'}`,
          );
        });
        return { context, page, problems };
      },
      close,
    };
    return rig;
  } catch (e) {
    await close();
    throw e;
  }
}

/** A loopback port nothing listens on (taken from the OS, then let go). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('no free loopback port'))));
    });
  });
}

/**
 * Types `code` and Enter the way a keyboard-wedge reader does, through Chromium's real input
 * pipeline (trusted key events, DevTools `Input.dispatchKeyEvent`).
 *
 * gapMs 0: every key is sent at once, without waiting for the page to take the one before, as a
 * reader's USB reports queue up in the OS; a busy page then sees them late but still a few ms
 * apart (their timestamps are the browser's). gapMs > 0: key after key, each awaited, `gapMs`
 * apart plus the round trip (the bench's reader-like pacing on an idle machine).
 */
export async function wedgeBurst(page: Page, code: string, gapMs = 0): Promise<void> {
  if (gapMs > 0) {
    await page.keyboard.type(code, { delay: gapMs });
    await page.keyboard.press('Enter', { delay: 0 });
    return;
  }
  const cdp = await devTools(page);
  const sent: Array<Promise<unknown>> = [];
  for (const key of [...code, 'Enter']) {
    const k = keyDescription(key);
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...k }));
    sent.push(
      cdp.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: k.key,
        code: k.code,
        windowsVirtualKeyCode: k.windowsVirtualKeyCode,
      }),
    );
  }
  await Promise.all(sent);
}

const sessions = new WeakMap<Page, CDPSession>();
async function devTools(page: Page): Promise<CDPSession> {
  let s = sessions.get(page);
  if (!s) {
    s = await page.context().newCDPSession(page);
    sessions.set(page, s);
  }
  return s;
}

/** What a US keyboard sends for a character of a badge code (digits, letters) or Enter. */
function keyDescription(key: string): { key: string; code: string; windowsVirtualKeyCode: number; text?: string } {
  if (key === 'Enter') return { key, code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' };
  if (/^[0-9]$/.test(key)) return { key, code: `Digit${key}`, windowsVirtualKeyCode: key.charCodeAt(0), text: key };
  if (/^[a-zA-Z]$/.test(key))
    return { key, code: `Key${key.toUpperCase()}`, windowsVirtualKeyCode: key.toUpperCase().charCodeAt(0), text: key };
  throw new Error(`wedgeBurst: no key for ${JSON.stringify(key)}`);
}

/** A person at the keypad: slower than any reader. */
export async function typeSlowly(page: Page, text: string): Promise<void> {
  for (const ch of text) {
    await page.keyboard.press(ch);
    await page.waitForTimeout(TEST_SCREEN.wedge.holdMs + 150);
  }
}

export function screenshotPath(name: string): string {
  const dir = path.join(ARTIFACTS_DIR, 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}
