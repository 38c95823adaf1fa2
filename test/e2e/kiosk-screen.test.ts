/**
 * The kiosk screen end to end, as an employee and a site manager use it: Debian's Chromium, driven
 * by playwright-core, on the web bridge of a real agent (real SQLite) talking to the mock API on
 * loopback. Key presses go through Chromium's input pipeline as trusted events, so the page's
 * wedge detector sees real timestamps. Screenshots land in test-artifacts/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_PIN,
  screenshotPath,
  TEST_SCREEN,
  typeSlowly,
  wedgeBurst,
  type KioskRig,
} from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, lastSound, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };

const rigs = kioskRigPerTest();
const kiosk = (): Promise<KioskRig> => rigs.start();

const screen = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.screen ?? null);
const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();
const attr = (page: Page, testid: string, name: string) => page.getAttribute(`[data-testid=${testid}]`, name);

/** Script errors and CSP violations; a missing favicon and the like are not the page's fault. */
function scriptProblems(problems: string[]): string[] {
  return problems.filter((p) => /Content Security Policy|Uncaught|TypeError|ReferenceError|SyntaxError/i.test(p));
}

describe('an employee at the kiosk screen (Chromium, web bridge)', () => {
  it('a keyboard-wedge burst punches and shows the name, with the success sound; the keys go nowhere else', async () => {
    const r = await kiosk();
    const { page, problems } = await r.open(SMALL);
    expect(await text(page, 'site-name')).toBe('Obra Centro — São Paulo');
    // Hours, minutes and seconds (Portaria 671, Annex IX), ticking.
    const shown = await text(page, 'clock');
    expect(shown).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    await page.waitForFunction(
      (before) =>
        (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=clock]')?.textContent?.trim() !==
        before,
      shown,
      { timeout: 3_000 },
    );
    // The roster came from the service at start: it is known to be reachable.
    await page.waitForSelector('[data-testid=connection][data-state="online"][data-waiting="0"]');
    await page.screenshot({ path: screenshotPath('idle-800x480') });

    await wedgeBurst(page, '1001');
    await waitScreen(page, 'result');
    expect(await text(page, 'result-name')).toBe('Ana Paula Ferreira da Silva');
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    expect(await text(page, 'result-time')).toMatch(/\d{2}:\d{2}/);
    expect(await lastSound(page)).toBe('success');
    await page.screenshot({ path: screenshotPath('result-800x480') });

    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1001'),
      'the punch delivered to the API',
    );
    // One punch, and the burst did not leave digits on a keypad.
    expect(r.agent.status().queue.sent).toBe(1);
    await dismissResult(page);
    expect(await screen(page)).toBe('idle');

    // The same badge again in the same minute: "already registered", not a second punch.
    await wedgeBurst(page, '1001');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-reason')).toBe('repeat');
    expect(await text(page, 'result-name')).toBe('Ana Paula Ferreira da Silva');
    await dismissResult(page);
    expect(r.agent.status().queue.sent + r.agent.status().unsent).toBe(1);
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('an unknown badge gets a clear refusal and the error sound; nothing is queued', async () => {
    const r = await kiosk();
    const { page } = await r.open(SMALL);
    await wedgeBurst(page, '99999999');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-ok')).toBe('false');
    expect(await attr(page, 'result', 'data-reason')).toBe('unknown_credential');
    expect(await text(page, 'result-message')).not.toBe('');
    expect(await lastSound(page)).toBe('error');
    expect(r.agent.status().unsent + r.agent.status().queue.sent).toBe(0);
  });

  it('the touch keypad punches by ID, and so does typing on a keyboard at a person’s pace', async () => {
    const r = await kiosk();
    const { page, problems } = await r.open(LARGE);
    await page.screenshot({ path: screenshotPath('idle-1920x1080') });
    await page.click('[data-testid=open-keypad]');
    await waitScreen(page, 'keypad');
    await pressKeys(page, '10029');
    await page.click('[data-testid=key-back]');
    expect(await text(page, 'keypad-value')).toBe('1002');
    await page.screenshot({ path: screenshotPath('keypad-1920x1080') });
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'result');
    expect(await text(page, 'result-name')).toBe('João Carlos de Oliveira');
    await page.screenshot({ path: screenshotPath('result-1920x1080') });
    await dismissResult(page);

    // A physical keyboard on the idle screen: the first digit opens the keypad, Enter submits.
    await typeSlowly(page, '1003');
    await waitScreen(page, 'keypad');
    expect(await text(page, 'keypad-value')).toBe('1003');
    await page.keyboard.press('Enter');
    await waitScreen(page, 'result');
    expect(await text(page, 'result-name')).toBe('Maria Aparecida dos Santos');

    await waitFor(() => r.mock.records().length === 2, 'both punches delivered');
    expect(
      r.mock
        .records()
        .map((x) => x.employee_external_id)
        .sort(),
    ).toEqual(['1002', '1003']);
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('with the API unreachable a punch is saved and counted as waiting; the count returns to zero when it is back', async () => {
    const r = await kiosk();
    const { page } = await r.open(SMALL);
    expect(await attr(page, 'connection', 'data-waiting')).toBe('0');
    await r.stopMock();

    // The first punch after the drop finds out the connection is gone.
    await wedgeBurst(page, '1004');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    await dismissResult(page);
    await page.waitForSelector('[data-testid=connection][data-state="offline"][data-waiting="1"]', { timeout: 15_000 });

    // Known offline: the result says the punch is saved and will be sent later.
    await wedgeBurst(page, '1006');
    await waitScreen(page, 'result');
    expect(await text(page, 'result-name')).toBe('Antônio Marcos Alves');
    expect(await attr(page, 'result', 'data-queued')).toBe('true');
    expect(await text(page, 'result-message')).toMatch(/conexão/i);
    await page.screenshot({ path: screenshotPath('result-offline-800x480') });
    await dismissResult(page);
    await page.waitForSelector('[data-testid=connection][data-state="offline"][data-waiting="2"]', { timeout: 10_000 });
    await page.screenshot({ path: screenshotPath('idle-offline-800x480') });

    await r.startMock();
    await page.waitForSelector('[data-testid=connection][data-state="online"][data-waiting="0"]', { timeout: 30_000 });
    expect(
      r.mock
        .records()
        .map((x) => x.employee_external_id)
        .sort(),
    ).toEqual(['1004', '1006']);
  });
});

describe('PINs and language', () => {
  it('with PINs on for typed IDs: ID, then PIN by name; a wrong PIN is asked again on the same screen, the right one punches', async () => {
    const r = await rigs.start({
      settings: { pin: { requiredFor: ['id'] } },
      screen: { ...TEST_SCREEN, pinRequiredFor: ['id'] },
    });
    const set = await r.agent.admin.setPin('1008', '4321');
    expect(set.ok).toBe(true);
    const name = r.mock.employees().find((e) => e.external_id === '1008')?.full_name ?? '';
    const { page } = await r.open(SMALL);
    await page.click('[data-testid=open-keypad]');
    await pressKeys(page, '1008');
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'pin');
    // Whose PIN: the first name (pin.showName defaults to on).
    expect(((await page.textContent('.keypad-title')) ?? '').trim()).toBe(`${name.split(' ')[0]}, digite seu PIN`);
    await pressKeys(page, '9999');
    // A PIN is never shown, only as many dots.
    expect(await text(page, 'keypad-value')).not.toContain('9');
    await page.click('[data-testid=key-ok]');
    // Wrong: still the PIN step for the same ID, the field cleared, the error under it; nothing registered.
    await page.waitForSelector('[data-testid=pin-error]');
    expect(await screen(page)).toBe('pin');
    expect(await text(page, 'pin-error')).toBe('PIN incorreto. Restam 4 tentativas.');
    expect(await text(page, 'keypad-value')).toBe('');
    expect(await lastSound(page)).toBe('error');
    expect(r.agent.status().unsent + r.agent.status().queue.sent).toBe(0);

    await pressKeys(page, '4321');
    await page.screenshot({ path: screenshotPath('pin-800x480') });
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    expect(await text(page, 'result-name')).toBe(name);
    await waitFor(() => r.mock.records().length === 1, 'one punch delivered');
    expect(r.mock.records()[0]?.employee_external_id).toBe('1008');
  });

  it('a badge from an HID reader that needs a PIN: the screen asks for it without knowing the code, and the punch registers', async () => {
    const r = await rigs.start({
      settings: { pin: { requiredFor: ['badge'] } },
      screen: { ...TEST_SCREEN, pinRequiredFor: ['badge'] },
    });
    expect(r.agent.admin.enrollBadge('CARD-HID-9', '1009', 'cli')).toMatchObject({ ok: true });
    expect(await r.agent.admin.setPin('1009', '6071')).toMatchObject({ ok: true });
    const { page } = await r.open(SMALL);
    // What src/input/hid-reader.ts does with a decoded scan.
    await r.agent.scanned('CARD-HID-9', 'hid:entrance');
    await waitScreen(page, 'pin');
    await pressKeys(page, '6071');
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    const name = r.mock.employees().find((e) => e.external_id === '1009')?.full_name;
    expect(await text(page, 'result-name')).toBe(name);
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1009'), 'the punch delivered');
  });

  it('speaks Brazilian Portuguese by default, Spanish then English after the toggle until the punch is done', async () => {
    const r = await kiosk();
    const { page } = await r.open(SMALL);
    const htmlLang = () => page.getAttribute('html', 'lang');
    expect(await page.textContent('body')).toContain('Aproxime seu crachá');
    // The button names the next language in its own words.
    expect(await text(page, 'language')).toBe('Español');
    expect(await attr(page, 'language', 'lang')).toBe('es');
    await page.click('[data-testid=language]');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=open-keypad]')
          ?.textContent?.includes('Ingresar') === true,
    );
    expect(await htmlLang()).toBe('es');
    expect(await page.textContent('body')).toContain('Acerque su credencial');
    expect(await text(page, 'language')).toBe('English');
    expect(await attr(page, 'language', 'lang')).toBe('en');
    await page.click('[data-testid=language]');
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=open-keypad]')
          ?.textContent?.includes('ID') === true,
    );
    expect(await page.textContent('body')).toMatch(/Scan your badge/i);
    expect(await text(page, 'language')).toBe('Português');
    expect(await attr(page, 'language', 'lang')).toBe('pt-BR');
    await wedgeBurst(page, '99999999');
    await waitScreen(page, 'result');
    expect(await text(page, 'result-message')).toMatch(/not recogni[sz]ed/i);
    // The next person finds the terminal's language again.
    await dismissResult(page);
    expect(await page.textContent('body')).toContain('Aproxime seu crachá');
    expect(await htmlLang()).toBe('pt-BR');
  });

  it('a chosen language reverts to the site’s after the idle timeout when nobody punches', async () => {
    // Results of 1 s: the language timeout is 7.5 × that (30 s at the default 4 s).
    const r = await rigs.start({ screen: { ...TEST_SCREEN, resultMs: 1_000 } });
    const { page } = await r.open(SMALL);
    await page.click('[data-testid=language]');
    await page.waitForSelector('html[lang="es"]', { state: 'attached' });
    const chosenAt = Date.now();
    expect(await page.textContent('body')).toContain('Acerque su credencial');
    await page.waitForSelector('html[lang="pt-BR"]', { state: 'attached', timeout: 20_000 });
    // Not at once: after the timeout (less a margin for the round trip of the click).
    expect(Date.now() - chosenAt).toBeGreaterThanOrEqual(6_500);
    expect(await page.textContent('body')).toContain('Aproxime seu crachá');
    expect(await text(page, 'language')).toBe('Español');
  });
});

describe('the site manager at the admin screen', () => {
  it('a wrong admin PIN is refused and the right one opens the admin screen; Lock closes it', async () => {
    const r = await kiosk();
    const { page, problems } = await r.open(SMALL);
    await page.click('[data-testid=open-admin]');
    await waitScreen(page, 'admin-login');
    await pressKeys(page, '1111');
    await page.click('[data-testid=key-ok]');
    await page.waitForSelector('[data-testid=admin-login-error]:not(:empty)');
    expect(await screen(page)).toBe('admin-login');

    await pressKeys(page, ADMIN_PIN);
    await page.click('[data-testid=key-ok]');
    await waitScreen(page, 'admin');
    await page.click('[data-testid=tab-queue]');
    await page.screenshot({ path: screenshotPath('admin-800x480') });

    await page.click('[data-testid=lock]');
    await waitScreen(page, 'idle');
    // Locked for real: the bridge refuses admin calls from this page now.
    const answer = await page.evaluate(async (token) => {
      const res = await (globalThis as unknown as PageGlobals).fetch('/api/listRejected', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kiosk-token': token },
        body: '{}',
      });
      return res.status;
    }, r.bridge.token);
    expect(answer).toBe(403);
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('a punch the API rejected is listed with its reason and, once fixed, retried from the admin screen', async () => {
    const r = await kiosk();
    const { page } = await r.open(LARGE);
    r.mock.setActive('1005', false);
    await wedgeBurst(page, '1005');
    await waitScreen(page, 'result');
    await waitFor(() => r.agent.status().queue.rejected === 1, 'the punch rejected by the API');
    await dismissResult(page);

    await openAdmin(page, 'queue');
    const row = page.locator('[data-testid=rejected-row]');
    await row.waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('Francisca Lima Rodrigues');
    expect(await row.textContent()).toMatch(/404/);
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=queue-rejected]')
          ?.textContent?.trim() === '1',
    );
    await page.screenshot({ path: screenshotPath('admin-rejected-1920x1080') });

    r.mock.setActive('1005', true);
    const punchId = await row.getAttribute('data-punch-id');
    expect(punchId).toMatch(/^\d+$/);
    await row.locator('[data-testid=retry]').click();
    // The agent's answer, worded by the screen in its language (Portuguese here), not the agent's English.
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, 'admin-message')).toBe(`Registro ${punchId} reenviado para envio.`);
    expect(await text(page, 'admin-message')).not.toContain('queued again');
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1005'), 'the retried punch delivered');
    await page.waitForSelector('[data-testid=rejected-row]', { state: 'detached', timeout: 10_000 });
    await page.waitForFunction(
      () =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=queue-rejected]')
          ?.textContent?.trim() === '0',
    );
    expect(r.agent.status().queue.sent).toBe(1);
  });
});
