/**
 * The keypad and the PIN step in the three languages, landscape (800×480) and portrait
 * (800×1280, 1080×1920): a CPF typed is shown whole, with its mask, and punches by its digits; the PIN step
 * names the employee by first name and asks again on the same screen after a wrong PIN.
 * Chromium on the web bridge of a real agent. Screenshots: keypad-cpf-*, pin-error-*.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath, TEST_SCREEN } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { dismissResult, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';

const SIZES = [
  { width: 800, height: 480 },
  { width: 800, height: 1280 },
  { width: 1080, height: 1920 },
];
const WORDS = {
  'pt-BR': {
    title: 'Digite sua matrícula ou CPF',
    pin: (name: string) => `${name}, digite seu PIN`,
    wrong: 'PIN incorreto. Restam 4 tentativas.',
  },
  es: {
    title: 'Ingrese su matrícula o CPF',
    pin: (name: string) => `${name}, ingrese su PIN`,
    wrong: 'PIN incorrecto. Quedan 4 intentos.',
  },
  en: {
    title: 'Type your ID or CPF',
    pin: (name: string) => `${name}, type your PIN`,
    wrong: 'Wrong PIN. 4 tries left.',
  },
} as const;
const LANGS = ['pt-BR', 'es', 'en'] as const;
const EMPLOYEES = ['1001', '1002', '1003'];

const rigs = kioskRigPerTest();
const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();

/** Whether the field shows all of its text: the text's box within the field's content box. */
const fitsInField = (page: Page) =>
  page.evaluate(() => {
    type Box = { left: number; right: number };
    type El = { getBoundingClientRect(): Box; clientWidth: number; scrollWidth: number };
    const doc = (globalThis as unknown as PageGlobals).document as unknown as { querySelector(s: string): El | null };
    const field = doc.querySelector('[data-testid=keypad-value]');
    const textEl = doc.querySelector('[data-testid=keypad-value] .keypad-text');
    if (!field || !textEl) return false;
    const f = field.getBoundingClientRect();
    const t = textEl.getBoundingClientRect();
    return field.scrollWidth <= field.clientWidth && t.left >= f.left && t.right <= f.right;
  });

describe('the keypad and the PIN step, in every language', () => {
  for (const size of SIZES) {
    it(`${size.width}×${size.height}: a CPF shows whole with its mask and punches by its digits; a wrong PIN is asked again by name`, async () => {
      const r = await rigs.start({
        settings: { pin: { requiredFor: ['id'] } },
        screen: { ...TEST_SCREEN, pinRequiredFor: ['id'], idKinds: ['external_id', 'registration_number', 'cpf'] },
      });
      const { page } = await r.open(size);
      const sent: string[] = [];
      page.on('request', (q) => {
        if (q.url().endsWith('/api/punch'))
          sent.push(String((q.postDataJSON() as { credential?: { value?: string } }).credential?.value));
      });
      for (const [n, lang] of LANGS.entries()) {
        const ext = EMPLOYEES[n] ?? '';
        const employee = r.mock.employees().find((e) => e.external_id === ext);
        const cpf = (employee?.cpf ?? '').replace(/\D/g, '');
        expect(cpf).toMatch(/^\d{11}$/);
        expect((await r.agent.admin.setPin(ext, '4321')).ok).toBe(true);
        for (let i = 0; i < n; i += 1) await page.click('[data-testid=language]');
        await page.waitForSelector(`html[lang="${lang}"]`, { state: 'attached' });

        await page.click('[data-testid=open-keypad]');
        await waitScreen(page, 'keypad');
        expect(await text(page, '.keypad-title')).toBe(WORDS[lang].title);
        if (n === 0) {
          // The longest IDs: 14 characters (not a CPF: shown as typed), all of them in view.
          await pressKeys(page, '12345678901234');
          expect(await text(page, '[data-testid=keypad-value]')).toBe('12345678901234');
          expect(await fitsInField(page)).toBe(true);
          await page.click('[data-testid=key-clear]');
        }
        // Every length on the way is shown whole; more than 8 digits with the CPF's dots and dash.
        for (let i = 1; i <= cpf.length; i += 1) {
          await pressKeys(page, cpf[i - 1] ?? '');
          expect(await fitsInField(page), `${i} digits`).toBe(true);
        }
        expect(await text(page, '[data-testid=keypad-value]')).toBe(
          `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
        );
        await page.screenshot({ path: screenshotPath(`keypad-cpf-${size.width}x${size.height}-${lang}`) });
        await page.click('[data-testid=key-ok]');

        await waitScreen(page, 'pin');
        const first = (employee?.full_name ?? '').split(' ')[0] ?? '';
        expect(await text(page, '.keypad-title')).toBe(WORDS[lang].pin(first));
        await pressKeys(page, '9999');
        await page.click('[data-testid=key-ok]');
        await page.waitForSelector('[data-testid=pin-error]');
        expect(await text(page, '[data-testid=pin-error]')).toBe(WORDS[lang].wrong);
        expect(await text(page, '[data-testid=keypad-value]')).toBe('');
        expect(await page.getAttribute('body', 'data-screen')).toBe('pin');
        await pressKeys(page, '43');
        await page.screenshot({ path: screenshotPath(`pin-error-${size.width}x${size.height}-${lang}`) });
        await pressKeys(page, '21');
        await page.click('[data-testid=key-ok]');
        await waitScreen(page, 'result');
        expect(await page.getAttribute('[data-testid=result]', 'data-ok')).toBe('true');
        expect(await text(page, '[data-testid=result-name]')).toBe(employee?.full_name);
        await dismissResult(page);
        await waitFor(
          () => r.mock.records().some((x) => x.employee_external_id === ext),
          `the punch of ${ext} delivered`,
        );
      }
      // The mask is for the eyes only: the screen sent the digits typed, never the dots.
      expect(sent.length).toBeGreaterThanOrEqual(6);
      for (const v of sent) expect(v).toMatch(/^\d{11}$/);
    });
  }
});
