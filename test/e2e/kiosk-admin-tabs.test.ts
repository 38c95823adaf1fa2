/**
 * Every admin tab in sight (issue 29 item 1): at 800×480, in portrait (480×800) and at 1920×1080,
 * in pt-BR, es and en, each tab's box lies whole inside the viewport, its label whole inside the
 * box, and nothing covers it (the point at its centre is the tab); so a Spanish-speaking manager
 * sees "AFD" and "Registros" without scrolling a bar that gives no sign it scrolls. Screenshots:
 * test-artifacts/screenshots/admin-tabs-<lang>-<size>.png.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ScreenSettings } from '../../src/contract.js';
import { ADMIN_PIN, screenshotPath, TEST_SCREEN } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { pressKeys, waitScreen } from '../helpers/screen-actions.js';

const SIZES = [
  { width: 800, height: 480 },
  { width: 480, height: 800 },
  { width: 1920, height: 1080 },
];
const LANGS: ScreenSettings['language'][] = ['pt-BR', 'es', 'en'];
const TABS = ['queue', 'roster', 'readers', 'connection', 'settings', 'receipt', 'afd', 'punches', 'presence'];

const rigs = kioskRigPerTest();

type Box = { left: number; top: number; right: number; bottom: number };
type TabEl = {
  getBoundingClientRect(): Box;
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  contains(o: unknown): boolean;
};
type G = {
  document: { querySelector(s: string): TabEl | null; elementFromPoint(x: number, y: number): unknown };
  innerWidth: number;
  innerHeight: number;
};

/** What is wrong with the tab's box on this page: '' when it is whole, uncovered and inside the viewport. */
function tabProblem(page: Page, tab: string): Promise<string> {
  return page.evaluate((id) => {
    const g = globalThis as unknown as G;
    const el = g.document.querySelector(`[data-testid=tab-${id}]`);
    if (!el) return 'missing';
    const b = el.getBoundingClientRect();
    const label = el.textContent ?? '';
    const where = `${label} at ${Math.round(b.left)},${Math.round(b.top)}–${Math.round(b.right)},${Math.round(b.bottom)} in ${g.innerWidth}×${g.innerHeight}`;
    if (b.right - b.left < 1 || b.bottom - b.top < 1) return `${where}: not drawn`;
    if (b.left < -0.5 || b.top < -0.5 || b.right > g.innerWidth + 0.5 || b.bottom > g.innerHeight + 0.5)
      return `${where}: outside the viewport`;
    if (el.scrollWidth > el.clientWidth + 1)
      return `${where}: label cut (${el.scrollWidth} px of text in ${el.clientWidth} px)`;
    const hit = g.document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
    if (hit !== el && !el.contains(hit)) return `${where}: covered`;
    return '';
  }, tab);
}

describe('every admin tab in sight, in every language and size', () => {
  for (const lang of LANGS) {
    it(
      `${lang}: each tab's box inside the viewport at 800×480, 480×800 and 1920×1080`,
      { timeout: 180_000 },
      async () => {
        const rig = await rigs.start({ screen: { ...TEST_SCREEN, language: lang } });
        for (const size of SIZES) {
          const { page, problems } = await rig.open(size);
          await page.click('[data-testid=open-admin]');
          await waitScreen(page, 'admin-login');
          await pressKeys(page, ADMIN_PIN);
          await page.click('[data-testid=key-ok]');
          await waitScreen(page, 'admin');
          const found: string[] = [];
          for (const tab of TABS) {
            const p = await tabProblem(page, tab);
            if (p) found.push(p);
          }
          // The last tab chosen: the bar stays as it was (nothing scrolled away the first ones).
          await page.click('[data-testid=tab-punches]');
          await page.waitForSelector('[data-testid=tab-punches][aria-selected="true"]');
          for (const tab of TABS) {
            const p = await tabProblem(page, tab);
            if (p) found.push(`after choosing the last tab: ${p}`);
          }
          await page.screenshot({ path: screenshotPath(`admin-tabs-${lang}-${size.width}x${size.height}`) });
          expect(found, `${lang} ${size.width}×${size.height}`).toEqual([]);
          expect(problems).toEqual([]);
          await page.context().close();
        }
      },
    );
  }
});
