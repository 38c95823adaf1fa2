/**
 * Every state of the screen in both orientations and the three languages: idle, keypad, a
 * registered punch, a repeat, a refusal, the manager's login and each admin tab, at 800×480 and
 * 800×1280, in pt-BR, es and en. The employee's screens must fit whole (nothing outside the
 * viewport, nothing to scroll); the admin screen scrolls inside its panel, so there the tab bar,
 * the lock button and the panel must be on screen and the page itself must not scroll. Screenshots:
 * test-artifacts/screenshots/every-<state>-<lang>-<size>.png.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ScreenSettings } from '../../src/contract.js';
import { ADMIN_PIN, screenshotPath, TEST_SCREEN, wedgeBurst } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { pressKeys, waitScreen } from '../helpers/screen-actions.js';

type Size = { width: number; height: number };
const SIZES: Size[] = [
  { width: 800, height: 480 },
  { width: 800, height: 1280 },
];
const LANGS: ScreenSettings['language'][] = ['pt-BR', 'es', 'en'];
const TABS = ['queue', 'roster', 'readers', 'connection', 'settings', 'receipt', 'afd', 'punches', 'presence'];

const rigs = kioskRigPerTest();

type Box = { x: number; y: number; width: number; height: number };
type G = {
  document: {
    querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Box; tagName: string; className: unknown }>;
    documentElement: { scrollWidth: number; scrollHeight: number; lang: string };
  };
  innerWidth: number;
  innerHeight: number;
};

/** What lies outside the viewport among `selector`'s elements, and whether the page scrolls. */
async function outside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const g = globalThis as unknown as G;
    const bad: string[] = [];
    const all = g.document.querySelectorAll(sel);
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (!el) continue;
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > g.innerWidth + 0.5 || b.y + b.height > g.innerHeight + 0.5)
        bad.push(`${el.tagName}.${String(el.className)}`);
    }
    if (
      g.document.documentElement.scrollWidth > g.innerWidth ||
      g.document.documentElement.scrollHeight > g.innerHeight
    )
      bad.push('the page scrolls');
    return bad;
  }, selector);
}

const name = (size: Size) => `${size.width}x${size.height}`;

async function shot(page: Page, state: string, lang: string, size: Size, selector = '#app *'): Promise<void> {
  expect(await outside(page, selector), `${state} ${lang} ${name(size)}`).toEqual([]);
  await page.screenshot({ path: screenshotPath(`every-${state}-${lang}-${name(size)}`) });
}

describe('every screen fits, in both orientations and the three languages', () => {
  for (const lang of LANGS) {
    it(
      `${lang}: idle, keypad, registered, repeat, refused, manager login and every admin tab at 800×480 and 800×1280`,
      { timeout: 240_000 },
      async () => {
        const rig = await rigs.start({ screen: { ...TEST_SCREEN, language: lang, resultMs: 120_000 } });
        for (const size of SIZES) {
          const { page, problems } = await rig.open(size);
          expect(await page.evaluate(() => (globalThis as unknown as G).document.documentElement.lang)).toBe(lang);
          await shot(page, 'idle', lang, size);
          await page.click('[data-testid=open-keypad]');
          await waitScreen(page, 'keypad');
          await pressKeys(page, '1001');
          await shot(page, 'keypad', lang, size);
          await page.click('[data-testid=key-cancel]');
          await waitScreen(page, 'idle');
          // A registered punch, then the same minute again (a repeat), then a code nobody has.
          for (const [state, code] of [
            ['registered', '1002'],
            ['repeat', '1002'],
            ['refused', '99999999'],
          ] as const) {
            await wedgeBurst(page, code);
            await page.waitForSelector(`[data-testid=result][data-ok="${state === 'refused' ? 'false' : 'true'}"]`, {
              timeout: 15_000,
            });
            await shot(page, state, lang, size);
            await page.click('[data-testid=result]');
            await waitScreen(page, 'idle');
          }
          await page.click('[data-testid=open-admin]');
          await waitScreen(page, 'admin-login');
          await shot(page, 'admin-login', lang, size);
          await pressKeys(page, ADMIN_PIN);
          await page.click('[data-testid=key-ok]');
          await waitScreen(page, 'admin');
          for (const tab of TABS) {
            await page.click(`[data-testid=tab-${tab}]`);
            await page.waitForSelector(`[data-testid=tab-${tab}][aria-selected="true"]`);
            // The chosen tab, the lock and the panel's frame on screen; the panel's content scrolls inside it.
            await shot(
              page,
              `admin-${tab}`,
              lang,
              size,
              `[data-testid=tab-${tab}], [data-testid=lock], .admin-top, .admin-panel`,
            );
          }
          await page.click('[data-testid=lock]');
          await waitScreen(page, 'idle');
          expect(problems, `page errors ${lang} ${name(size)}`).toEqual([]);
        }
      },
    );
  }
});
