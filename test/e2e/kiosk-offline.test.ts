/**
 * The idle screen knows the service is gone with nobody punching: the agent's TCP liveness check
 * (src/sync/delivery/liveness.ts, every api.livenessEveryMs; two failures → offline, one success → online)
 * reaches the screen's connection line. Chromium on the web bridge of a real agent; the mock API
 * stopped and restarted on the same port. Screenshots of the offline idle screen in the three
 * languages, landscape and portrait.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';

const SIZES = [
  { width: 800, height: 480 },
  { width: 800, height: 1280 },
];
const LANGS = ['pt-BR', 'es', 'en'] as const;
/** What the line says offline with nothing waiting, in the order the language button cycles. */
const OFFLINE_TEXT = {
  'pt-BR': 'Sem conexão — os registros ficam salvos aqui',
  es: 'Sin conexión — los registros se guardan aquí',
  en: 'No connection — punches are saved here',
} as const;

const rigs = kioskRigPerTest();
const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();
const LINE = '[data-testid=connection]';

describe('the idle screen with nobody punching', () => {
  it('turns offline within 15 s of the service going away, and online within 15 s of its return', async () => {
    const r = await rigs.start({ livenessEveryMs: 1_000 });
    const pages = await Promise.all(SIZES.map((size) => r.open(size)));
    for (const { page } of pages) await page.waitForSelector(`${LINE}[data-state="online"]`, { timeout: 15_000 });

    await r.stopMock();
    const goneAt = Date.now();
    // Bounded by the DOM turning, not by a fixed sleep.
    for (const { page } of pages) await page.waitForSelector(`${LINE}[data-state="offline"]`, { timeout: 15_000 });
    expect(Date.now() - goneAt).toBeLessThan(15_000);
    // Nobody punched: it is the check that noticed, and nothing waits to be sent.
    expect(r.agent.status().unsent).toBe(0);
    for (const [i, { page }] of pages.entries()) {
      expect(await page.getAttribute(LINE, 'data-waiting')).toBe('0');
      const size = SIZES[i] ?? { width: 0, height: 0 };
      for (const [n, lang] of LANGS.entries()) {
        if (n > 0) await page.click('[data-testid=language]');
        await page.waitForSelector(`html[lang="${lang}"]`, { state: 'attached' });
        expect(await text(page, 'connection')).toBe(OFFLINE_TEXT[lang]);
        await page.screenshot({ path: screenshotPath(`idle-offline-${size.width}x${size.height}-${lang}`) });
      }
    }

    await r.startMock();
    const backAt = Date.now();
    for (const { page } of pages) await page.waitForSelector(`${LINE}[data-state="online"]`, { timeout: 15_000 });
    expect(Date.now() - backAt).toBeLessThan(15_000);
    expect(await pages[0]?.page.getAttribute(LINE, 'data-waiting')).toBe('0');
  });
});
