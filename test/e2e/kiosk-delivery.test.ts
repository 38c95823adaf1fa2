/**
 * Delivery as people see it on the kiosk screen (issue 11, "every answer of the service read for
 * what it says"): Debian's Chromium on the web bridge of a real agent (real SQLite) talking to the
 * mock API on loopback, the mock answering as a server or a proxy in front of it may. Set-up
 * problems: a redirect is a set-up problem on the idle line and the admin screen, never a rejected
 * punch; the configuration warning is listed. Held and rejected punches: kiosk-held-punches.test.ts;
 * a PIN lockout: kiosk-pin-lockout.test.ts. Screenshots land in test-artifacts/screenshots/.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { punch, scriptProblems, SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin, waitScreen } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';

const NEW_ADDRESS = 'https://novo.example/v2.1/times';

const rigs = kioskRigPerTest();

describe('delivery problems on the kiosk screen (Chromium, web bridge)', () => {
  it('a redirect is a set-up problem: the punch is kept, the idle line and the admin alert say to check the address, nothing is rejected', async () => {
    const r = await rigs.start();
    const { page, problems } = await r.open(SMALL);
    await page.waitForSelector('[data-testid=connection][data-state="online"]');
    // The roster came before; now every API request is answered from another address.
    r.mock.setVariants({ redirect: { status: 301, location: NEW_ADDRESS } });
    await punch(page, '1001', 'keypad');

    const line = page.locator('[data-testid=connection][data-state="setup"] [data-testid=setup-problem]');
    await line.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await line.getAttribute('data-kind')).toBe('redirect');
    expect(await line.getAttribute('data-location')).toBe(NEW_ADDRESS);
    expect((await line.textContent())?.trim()).toBe(
      `Envio pausado: o serviço respondeu de outro endereço (${NEW_ADDRESS}) — verifique o endereço da API`,
    );
    await page.screenshot({ path: screenshotPath('idle-setup-problem-800x480') });
    expect(r.agent.status().queue.rejected).toBe(0);
    expect(r.agent.status().unsent).toBe(1);
    expect(r.mock.records()).toEqual([]);

    // The manager's queue tab: the alert with the service's own answer.
    await openAdmin(page, 'queue');
    const alert = page.locator('section[data-testid=setup-problem]');
    await alert.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await alert.getAttribute('data-kind')).toBe('redirect');
    expect(await alert.getAttribute('data-location')).toBe(NEW_ADDRESS);
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await text(page, '[data-testid=setup-problem-text]')).toContain('verifique o endereço da API');
    expect(await text(page, '[data-testid=setup-problem-reason]')).toBe(
      `Detalhes: the service answered from another address: ${NEW_ADDRESS} (HTTP 301)`,
    );
    expect(await text(page, '[data-testid=queue-rejected]')).toBe('0');

    // The address answers as the API again: the kept punch goes out, the alert and the line clear.
    r.mock.setVariants({});
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1001'), 'the kept punch delivered');
    await alert.waitFor({ state: 'hidden', timeout: 10_000 });
    await page.click('[data-testid=lock]');
    await waitScreen(page, 'idle');
    await page.waitForSelector('[data-testid=connection][data-state="online"][data-waiting="0"]', { timeout: 10_000 });
    expect(await page.isVisible('[data-testid=connection] [data-testid=setup-problem]')).toBe(false);
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toHaveLength(1);
    expect(r.agent.status().queue).toMatchObject({ sent: 1, rejected: 0 });
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('a request budget above the account’s 60 per 60 s is listed as a configuration warning', async () => {
    const r = await rigs.start({ settings: { rateLimit: { limit: 60, windowMs: 1_000 } } });
    expect(r.agent.status().warnings).toHaveLength(1);
    const { page } = await r.open(SMALL);
    await openAdmin(page, 'connection');
    await page.waitForSelector('[data-testid=config-warnings][data-count="1"]', { state: 'visible', timeout: 10_000 });
    expect(await page.locator('[data-testid=config-warning]').count()).toBe(1);
    expect(await text(page, '[data-testid=config-warnings]')).toContain('Avisos de configuração');
    expect(await text(page, '[data-testid=config-warning]')).toContain(
      'the request budget (60 per 1 s) is above the account',
    );
    // Not a set-up problem: no such alert on the connection tab.
    expect(await page.isVisible('section[data-testid=setup-problem]')).toBe(false);

    await page.click('[data-testid=tab-settings]');
    await page.waitForSelector('[data-testid=config-warnings][data-count="1"]', { state: 'visible', timeout: 10_000 });
  });
});
