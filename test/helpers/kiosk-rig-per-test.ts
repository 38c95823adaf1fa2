import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchChromium, startKioskRig, type KioskRig, type KioskRigOptions } from './kiosk-browser.js';

/**
 * For a test file of the kiosk screen: one Chromium for the whole file, and a fresh rig (mock,
 * agent, web bridge) per test, closed after it. Call at the top of the file.
 */
export function kioskRigPerTest(): {
  start(opts?: Omit<KioskRigOptions, 'browser'>): Promise<KioskRig>;
  browser(): Browser;
} {
  let browser: Browser | null = null;
  let rig: KioskRig | null = null;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await rig?.close();
    rig = null;
  });
  const current = (): Browser => {
    if (!browser) throw new Error('Chromium is not running (kioskRigPerTest must be called at the top of the file)');
    return browser;
  };
  return {
    browser: current,
    start: async (opts = {}) => {
      rig = await startKioskRig({ ...opts, browser: current() });
      return rig;
    },
  };
}
