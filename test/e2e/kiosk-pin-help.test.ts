/**
 * Issue 29 on the kiosk screen (Debian's Chromium on the web bridge of a real agent, real SQLite,
 * the mock API on loopback): the PIN step ends after PIN_PROMPT_MS without a key, and a known ID
 * typed on it starts that person's punch (the page clock is stepped, never waited on); "Esqueci meu
 * PIN" takes the punch, held for the manager, and leaves a reset request; the shift lead's login
 * opens only the held punches to confirm and the PIN resets. Screenshots land in test-artifacts/screenshots/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PIN_PROMPT_MS } from '../../src/contract/pin-prompt.js';
import { screenshotPath, TEST_SCREEN } from '../helpers/kiosk-browser.js';
import { SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';

const rigs = kioskRigPerTest();
const ANA_PIN = '4826';
const JOAO_PIN = '5937';
const LEAD_PIN = '7346';

const PIN_SETTINGS = {
  settings: { pin: { requiredFor: ['id'] } },
  screen: { ...TEST_SCREEN, pinRequiredFor: ['id' as const] },
};

async function typeId(page: Page, id: string): Promise<void> {
  await page.click('[data-testid=open-keypad]');
  await waitScreen(page, 'keypad');
  await pressKeys(page, id);
  await page.click('[data-testid=key-ok]');
  await waitScreen(page, 'pin');
}

describe('the PIN step ends (issue 29 item 5)', () => {
  it('1001 types the ID and walks away; 10 s later 1002 types 1002 and the PIN: 1002 is registered, 1001 gets no wrong-PIN strike; an untouched PIN step closes after 12 s', async () => {
    const r = await rigs.start(PIN_SETTINGS);
    expect(await r.agent.admin.setPin('1001', ANA_PIN)).toMatchObject({ ok: true });
    expect(await r.agent.admin.setPin('1002', JOAO_PIN)).toMatchObject({ ok: true });
    const { page, problems } = await r.open(SMALL);
    await page.clock.install();
    const title = () => text(page, '.keypad-title');

    await typeId(page, '1001');
    expect(await title()).toBe('Ana, digite seu PIN');
    await page.clock.runFor(10_000);
    expect(await page.getAttribute('body', 'data-screen')).toBe('pin');
    // João does not read the title: he types his ID where Ana's PIN was asked for.
    await pressKeys(page, '1002');
    await page.click('[data-testid=key-ok]');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document.querySelector('.keypad-title')?.textContent ===
        'João, digite seu PIN',
    );
    expect(await page.locator('[data-testid=pin-error]').count()).toBe(0);
    await pressKeys(page, JOAO_PIN);
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'result');
    expect(await page.locator('[data-testid=result]').getAttribute('data-ok')).toBe('true');
    expect(await text(page, '[data-testid=result-name]')).toMatch(/^João/);
    await dismissResult(page);
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1002'), '1002 delivered');

    // Ana comes back: her allowance is whole (a wrong PIN leaves 4 of 5).
    await typeId(page, '1001');
    await pressKeys(page, '9999');
    await page.click('[data-testid=key-ok]');
    await page.waitForSelector('[data-testid=pin-error]');
    expect(await text(page, '[data-testid=pin-error]')).toBe('PIN incorreto. Restam 4 tentativas.');

    // Untouched, the PIN step closes after PIN_PROMPT_MS; a key typed gives it that long again.
    await page.clock.runFor(PIN_PROMPT_MS - 2_000);
    await pressKeys(page, '4');
    await page.clock.runFor(PIN_PROMPT_MS - 2_000);
    expect(await page.getAttribute('body', 'data-screen')).toBe('pin');
    await page.clock.runFor(2_500);
    await waitScreen(page, 'idle');
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });
});

describe('forgot the PIN, and the shift lead (issue 29 item 6)', () => {
  it('"Esqueci meu PIN" takes the punch, held for the manager, with a reset request; the manager sets the shift lead\'s PIN; the shift lead confirms the punch and sets the new PIN, and sees nothing else', async () => {
    const r = await rigs.start({
      ...PIN_SETTINGS,
      adminPin: (agent) => ({
        verify: (pin) => agent.admin.checkLoginPin(pin),
        isSet: () => agent.admin.hasAdminPin(),
      }),
    });
    expect(await r.agent.admin.setPin('1001', ANA_PIN)).toMatchObject({ ok: true });
    const { page, problems } = await r.open(SMALL);

    await typeId(page, '1001');
    const forgot = page.locator('[data-testid=forgot-pin]');
    expect(await forgot.textContent()).toBe('Esqueci meu PIN');
    expect(await forgot.isVisible()).toBe(true);
    await page.screenshot({ path: screenshotPath('pin-forgot-800x480') });
    await forgot.click();
    await waitScreen(page, 'result');
    const result = page.locator('[data-testid=result]');
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.getAttribute('data-note')).toBe('held_pin_unverified');
    // The time once, large; the line under it says what is new (issue 29 item 4), not the time again.
    expect(await text(page, '[data-testid=result-time]')).toMatch(/^\d{2}:\d{2}/);
    expect(await text(page, '[data-testid=result-message]')).toBe(
      'PIN não verificado: o gestor vai confirmar este registro.',
    );
    await dismissResult(page);
    expect(r.agent.status().queue).toMatchObject({ held: 1, sent: 0 });

    // The manager: the request on the queue tab; the shift lead's PIN on the settings tab.
    await openAdmin(page, 'queue');
    const request = page.locator('[data-testid=pin-reset-row][data-employee="1001"]');
    await request.waitFor({ timeout: 10_000 });
    expect(await request.locator('.pin-reset-who').textContent()).toMatch(
      /^Ana Paula Ferreira da Silva \(1001\), pediu /,
    );
    await page.click('[data-testid=tab-settings]');
    await page.fill('[data-testid=lead-pin-input]', LEAD_PIN);
    await page.click('[data-testid=lead-pin-save]');
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe(
      'PIN do líder de turno definido: ele abre só os registros retidos a confirmar e a troca de PIN dos trabalhadores.',
    );
    await page.click('[data-testid=lock]');
    await waitScreen(page, 'idle');

    // The shift lead logs in with that PIN: only the punches to confirm and the PIN requests.
    await page.click('[data-testid=open-admin]');
    await waitScreen(page, 'admin-login');
    await pressKeys(page, LEAD_PIN);
    await page.click('[data-testid=key-ok]');
    await page.waitForSelector('[data-testid=lead-screen]');
    expect(await page.locator('[data-testid^=tab-]').count()).toBe(0);
    const row = page.locator('[data-testid=lead-held-row]');
    await row.waitFor({ timeout: 10_000 });
    await page.locator('[data-testid=pin-reset-row]').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: screenshotPath('shift-lead-800x480') });
    await row.locator('[data-testid=lead-confirm]').click();
    await page.waitForSelector('[data-testid=lead-held-none]', { timeout: 10_000 });
    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1001'),
      'the confirmed punch delivered',
    );
    await page.fill('[data-testid=pin-reset-input]', '3158');
    await page.click('[data-testid=pin-reset-save]');
    await page.waitForSelector('[data-testid=pin-resets-none]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toMatch(/PIN/);
    await page.click('[data-testid=lock]');
    await waitScreen(page, 'idle');

    // Ana's new PIN works.
    expect(await r.agent.punch({ kind: 'id', value: '1001' }, { pin: '3158' })).toMatchObject({ ok: true });
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });
});
