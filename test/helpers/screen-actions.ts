import type { Page } from 'playwright-core';
import { ADMIN_PIN } from './kiosk-browser.js';
import type { PageGlobals } from './page-globals.js';

/** What the e2e tests do on the kiosk screen, as a person would: one copy for every test file. */

export const lastSound = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.lastSound ?? null);

export async function waitScreen(page: Page, name: string, timeout = 10_000): Promise<void> {
  await page.waitForSelector(`body[data-screen="${name}"]`, { timeout });
}

/** Back to idle from a result (a tap dismisses it, as an employee in a hurry does). */
export async function dismissResult(page: Page): Promise<void> {
  await page.click('[data-testid=result]');
  await waitScreen(page, 'idle');
}

export async function pressKeys(page: Page, digits: string): Promise<void> {
  for (const d of digits) await page.click(`[data-testid=key-${d}]`);
}

/** The site manager opens the admin screen with the admin PIN and goes to a tab. */
export async function openAdmin(
  page: Page,
  tab: 'queue' | 'roster' | 'readers' | 'connection' | 'settings' | 'receipt',
): Promise<void> {
  await page.click('[data-testid=open-admin]');
  await waitScreen(page, 'admin-login');
  await pressKeys(page, ADMIN_PIN);
  await page.click('[data-testid=key-ok]');
  await waitScreen(page, 'admin');
  await page.click(`[data-testid=tab-${tab}]`);
}
