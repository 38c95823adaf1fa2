/**
 * Delivery as people see it on the kiosk screen (issue 11, "every answer of the service read for
 * what it says"): Debian's Chromium on the web bridge of a real agent (real SQLite) talking to the
 * mock API on loopback, the mock answering as a server or a proxy in front of it may. A redirect
 * is a set-up problem on the idle line and the admin screen, never a rejected punch; punches the
 * service refuses for their employee (403) or will not confirm (GET /times 404) are held and a
 * manager decides on them; rejected punches are retried all at once; the configuration warning is
 * listed. A PIN lockout never costs a punch (issue 12): it is taken, held as "PIN not verified",
 * and the manager confirms (sent) or disputes it (kept, never sent, with the reason). Screenshots
 * land in test-artifacts/screenshots/.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath, TEST_SCREEN, wedgeBurst } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';
import { FORBIDDEN_PUNCH_MESSAGE, OUTSIDE_SCHEDULE_MESSAGE } from '../../src/mock/answer-variants.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };

/** Test-sized delivery timings: an in-doubt punch is checked after 50 ms, and handed to a person after 3 checks that prove nothing. */
const RETRY = { inDoubtGraceMs: 50, maxChecks: 3, baseMs: 20, maxMs: 200 };

const NEW_ADDRESS = 'https://novo.example/v2.1/times';

const rigs = kioskRigPerTest();

const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();

/** An employee punches (badge burst or keypad) and sees the punch registered. */
async function punch(page: Page, id: string, how: 'badge' | 'keypad' = 'badge'): Promise<void> {
  if (how === 'badge') await wedgeBurst(page, id);
  else {
    await page.click('[data-testid=open-keypad]');
    await waitScreen(page, 'keypad');
    await pressKeys(page, id);
    await page.click('[data-testid=key-ok]');
  }
  await waitScreen(page, 'result');
  expect(await page.getAttribute('[data-testid=result]', 'data-ok')).toBe('true');
  await dismissResult(page);
}

/** Script errors and CSP violations; a missing favicon and the like are not the page's fault. */
function scriptProblems(problems: string[]): string[] {
  return problems.filter((p) => /Content Security Policy|Uncaught|TypeError|ReferenceError|SyntaxError/i.test(p));
}

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
    expect((await line.textContent())?.trim()).toBe(`Envio pausado: o serviço respondeu de outro endereço (${NEW_ADDRESS}) — verifique o endereço da API`);
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

  it('held punches: one refused for its employee (403), one the service will not confirm; the manager marks one delivered and sends the other again', async () => {
    const r = await rigs.start({ variants: { forbiddenPunches: ['1002'], timesAnswer: 404 }, settings: { retry: RETRY } });
    const { page, problems } = await r.open(SMALL);

    await punch(page, '1002');
    await waitFor(() => r.agent.status().queue.held === 1, 'the punch of the refused employee held');
    // The next punch is stored by the service but its answer is lost: in doubt, and GET /times answers 404.
    r.mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
    await punch(page, '1001');
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1001'), 'the dropped punch stored by the service');
    r.mock.setFaults(null);
    await waitFor(() => r.agent.status().queue.held === 2, 'the unconfirmed punch held after its checks');

    await openAdmin(page, 'queue');
    const rows = page.locator('[data-testid=held-list] [data-testid=held-row]');
    await rows.nth(1).waitFor({ timeout: 10_000 });
    const forbidden = page.locator('[data-testid=held-row][data-reason="forbidden"]');
    const unverified = page.locator('[data-testid=held-row][data-reason="unverified"]');
    expect(await rows.count()).toBe(2);
    expect(await forbidden.textContent()).toContain('João Carlos de Oliveira (1002)');
    expect(await forbidden.locator('[data-testid=held-reason]').textContent()).toBe('o serviço recusou este funcionário (403) — nova tentativa automática');
    expect(await forbidden.locator('[data-testid=held-detail]').textContent()).toBe(`Detalhes: 403 ${FORBIDDEN_PUNCH_MESSAGE}`);
    expect(await unverified.textContent()).toContain('Ana Paula Ferreira da Silva (1001)');
    expect(await unverified.locator('[data-testid=held-reason]').textContent()).toBe(
      'o serviço não confirma se recebeu — decida: enviar de novo ou marcar como entregue',
    );
    const detail = (await unverified.locator('[data-testid=held-detail]').textContent()) ?? '';
    expect(detail).toMatch(/^Detalhes: the service would not say whether it has this punch \(3 checks, last: 404 /);
    expect(detail).toContain('The requested URL was not found on the server.');
    await page.locator('[data-testid=held-list]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-held-800x480') });

    // "Mark as delivered" takes two taps: the first asks to confirm.
    const unverifiedId = await unverified.getAttribute('data-punch-id');
    expect(unverifiedId).toMatch(/^\d+$/);
    await unverified.locator('[data-testid=held-delivered]').click();
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${unverifiedId}"][data-confirming="true"]`);
    expect(await unverified.locator('[data-testid=held-confirm-help]').textContent()).toBe(
      'Nada mais será enviado para este registro. Toque em “Confirmar” para marcá-lo como entregue.',
    );
    expect(await unverified.locator('[data-testid=held-resend]').count()).toBe(0);
    await page.setViewportSize(LARGE);
    await unverified.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-held-1920x1080') });
    await unverified.locator('[data-testid=held-delivered-confirm]').click();
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe(
      `Registro retido ${unverifiedId} marcado como entregue; nada mais será enviado para ele.`,
    );
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${unverifiedId}"]`, { state: 'detached', timeout: 10_000 });
    expect(await rows.count()).toBe(1);
    expect(r.agent.status().queue).toMatchObject({ sent: 1, held: 1 });
    // Never sent twice: the one record is the one the service stored when its answer was lost.
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toHaveLength(1);

    // The service now takes the refused employee's punches: the manager sends it again.
    r.mock.setVariants({});
    const forbiddenId = await forbidden.getAttribute('data-punch-id');
    await forbidden.locator('[data-testid=held-resend]').click();
    await page.waitForFunction(
      (want) => (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=admin-message]')?.textContent?.trim() === want,
      `Registro retido ${forbiddenId} colocado de novo na fila de envio.`,
      { timeout: 10_000 },
    );
    // The service's record comes a moment before the terminal writes its answer down: wait for both.
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1002') && r.agent.status().queue.sent === 2, 'the resent punch delivered');
    await page.waitForSelector('[data-testid=held-none]', { timeout: 10_000 });
    expect(r.agent.status().queue).toMatchObject({ sent: 2, held: 0, rejected: 0 });
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toHaveLength(1);
    expect(r.mock.records().filter((x) => x.employee_external_id === '1002')).toHaveLength(1);
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('punches a 2xx answer says failed are rejected with the service’s reason, and retried all at once', async () => {
    const r = await rigs.start({ variants: { errorBodyOn2xx: true } });
    const { page, problems } = await r.open(SMALL);
    await punch(page, '1001');
    await punch(page, '1002');
    await waitFor(() => r.agent.status().queue.rejected === 2, 'both punches rejected');
    expect(r.mock.records()).toEqual([]);

    await openAdmin(page, 'queue');
    const rows = page.locator('[data-testid=rejected-row]');
    await rows.nth(1).waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(2);
    for (const reason of await rows.locator('.rr-reason').allTextContents()) expect(reason).toContain(OUTSIDE_SCHEDULE_MESSAGE);
    const retryAll = page.locator('[data-testid=retry-all]');
    expect(await retryAll.isVisible()).toBe(true);

    r.mock.setVariants({});
    await retryAll.click();
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe('Registros recusados reenviados para envio: 2.');
    await waitFor(() => r.mock.records().length === 2, 'both retried punches delivered');
    expect(r.mock.records().map((x) => x.employee_external_id).sort()).toEqual(['1001', '1002']);
    await page.waitForSelector('[data-testid=rejected-row]', { state: 'detached', timeout: 10_000 });
    await retryAll.waitFor({ state: 'hidden', timeout: 10_000 });
    expect(r.agent.status().queue).toMatchObject({ sent: 2, rejected: 0 });
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('a PIN lockout never costs a punch: taken, held as "PIN not verified"; the manager disputes one (kept, never sent) and confirms another (sent)', async () => {
    const r = await rigs.start({
      settings: { pin: { requiredFor: ['id'], maxFailures: 2 } },
      screen: { ...TEST_SCREEN, pinRequiredFor: ['id'] },
    });
    expect(await r.agent.admin.setPin('1001', '4826')).toMatchObject({ ok: true });
    expect(await r.agent.admin.setPin('1002', '5937')).toMatchObject({ ok: true });
    const { page, problems } = await r.open(SMALL);
    const lastSound = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.lastSound ?? null);
    const result = page.locator('[data-testid=result]');
    /** ID on the keypad, then the PIN, as kiosk-screen.test.ts does: ends on the result, or on the PIN step asking again. */
    const idThenPin = async (id: string, pin: string): Promise<void> => {
      await page.click('[data-testid=open-keypad]');
      await waitScreen(page, 'keypad');
      await pressKeys(page, id);
      await page.click('[data-testid=key-ok]');
      await waitScreen(page, 'pin');
      await pressKeys(page, pin);
      await page.click('[data-testid=key-ok]');
      await page.waitForSelector('body[data-screen="result"], [data-testid=pin-error]');
    };
    /** Another PIN on the PIN step that asked again after a wrong one. */
    const pinAgain = async (pin: string): Promise<void> => {
      await pressKeys(page, pin);
      await page.click('[data-testid=key-ok]');
      await waitScreen(page, 'result');
    };

    // The first wrong PIN is refused on the PIN step, which asks again: the employee may try again.
    await idThenPin('1001', '9999');
    expect(await text(page, '[data-testid=pin-error]')).toBe('PIN incorreto. Resta 1 tentativa.');
    expect(await lastSound()).toBe('error');
    // The second wrong PIN locks the employee out (maxFailures 2): the punch is taken anyway, held.
    await pinAgain('9998');
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.getAttribute('data-note')).toBe('held_pin_unverified');
    expect(await result.getAttribute('data-queued')).toBe('false');
    expect(await text(page, '[data-testid=result-name]')).toBe('Ana Paula Ferreira da Silva');
    const time = await text(page, '[data-testid=result-time]');
    expect(time).toMatch(/^\d{2}:\d{2}$/);
    expect(await text(page, '[data-testid=result-message]')).toBe(`Registrado às ${time}. PIN não verificado: o gestor vai confirmar este registro.`);
    expect(await lastSound()).toBe('success');
    await page.screenshot({ path: screenshotPath('result-pin-unverified-800x480') });
    await dismissResult(page);
    // Still locked out, with any PIN (the right one too): taken and held again, never refused. In the
    // same minute it is the punch already taken ("already registered"); past a minute boundary, a new one.
    await idThenPin('1001', '4826');
    expect(await result.getAttribute('data-ok')).toBe('true');
    const sameMinute = (await result.getAttribute('data-reason')) === 'repeat';
    if (!sameMinute) expect(await result.getAttribute('data-note')).toBe('held_pin_unverified');
    const anaHeld = sameMinute ? 1 : 2;
    await dismissResult(page);
    expect(r.agent.status().queue).toMatchObject({ held: anaHeld, sent: 0, pending: 0 });

    // Another employee locked out the same way: this one the manager confirms.
    await idThenPin('1002', '1111');
    expect(await page.getAttribute('body', 'data-screen')).toBe('pin');
    await pinAgain('2222');
    expect(await result.getAttribute('data-note')).toBe('held_pin_unverified');
    await dismissResult(page);
    await waitFor(() => r.agent.status().queue.held === anaHeld + 1, 'both employees’ punches held');

    await openAdmin(page, 'queue');
    const rows = page.locator('[data-testid=held-list] [data-testid=held-row]');
    await rows.nth(anaHeld).waitFor({ timeout: 10_000 });
    expect(await rows.count()).toBe(anaHeld + 1);
    const anaId = await page.locator('[data-testid=held-row]', { hasText: '(1001)' }).first().getAttribute('data-punch-id');
    expect(anaId).toMatch(/^\d+$/);
    const ana = page.locator(`[data-testid=held-row][data-punch-id="${anaId}"]`);
    const joao = page.locator('[data-testid=held-row]', { hasText: '(1002)' });
    expect(await ana.getAttribute('data-reason')).toBe('pin_unverified');
    expect(await ana.locator('[data-testid=held-reason]').textContent()).toBe('PIN não verificado (funcionário bloqueado por PINs errados) — confirme ou conteste');
    expect(await ana.locator('[data-testid=held-confirm]').textContent()).toBe('Confirmar');
    expect(await ana.locator('[data-testid=held-dispute]').textContent()).toBe('Contestar');
    // Not the buttons of a punch the service would not confirm.
    expect(await ana.locator('[data-testid=held-resend], [data-testid=held-delivered]').count()).toBe(0);

    // Dispute: the reason opens in the row; an empty one is not sent.
    await ana.locator('[data-testid=held-dispute]').click();
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${anaId}"][data-disputing="true"]`);
    const reasonInput = ana.locator('[data-testid=held-dispute-reason]');
    // Focused, ready for the manager's words.
    expect(await page.locator('[data-testid=held-dispute-reason]:focus').count()).toBe(1);
    expect(await reasonInput.getAttribute('maxlength')).toBe('300');
    await ana.locator('[data-testid=held-dispute-confirm]').click();
    await page.waitForSelector('[data-testid=admin-message][data-tone="error"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe('Escreva o motivo da contestação.');
    expect(r.agent.status().queue.held).toBe(anaHeld + 1);

    const reason = 'Funcionária de folga hoje; não esteve na obra';
    await reasonInput.fill(reason);
    await page.screenshot({ path: screenshotPath('admin-held-dispute-800x480') });
    await ana.locator('[data-testid=held-dispute-confirm]').click();
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe(`Registro ${anaId} contestado: fica guardado neste terminal e não será enviado.`);
    const disputed = page.locator(`[data-testid=held-row][data-punch-id="${anaId}"][data-reason="disputed"]`);
    await disputed.waitFor({ timeout: 10_000 });
    expect(await disputed.getAttribute('data-disputing')).toBe('false');
    expect(await disputed.locator('[data-testid=held-reason]').textContent()).toBe('contestado pelo gestor — guardado, não será enviado');
    expect(await disputed.locator('[data-testid=held-detail]').textContent()).toBe(`Motivo: ${reason}`);
    expect(await disputed.locator('button').count()).toBe(0);
    await disputed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-held-disputed-800x480') });

    // Confirm: the other punch is sent.
    const joaoId = await joao.getAttribute('data-punch-id');
    await joao.locator('[data-testid=held-confirm]').click();
    await page.waitForFunction(
      (want) => (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=admin-message]')?.textContent?.trim() === want,
      `Registro retido ${joaoId} colocado de novo na fila de envio.`,
      { timeout: 10_000 },
    );
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1002'), 'the confirmed punch delivered');
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${joaoId}"]`, { state: 'detached', timeout: 10_000 });
    expect(await rows.count()).toBe(anaHeld);

    // The disputed punch stays here and is never sent.
    expect(r.agent.status().queue).toMatchObject({ held: anaHeld, sent: 1, pending: 0 });
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toEqual([]);
    expect(r.mock.records().filter((x) => x.employee_external_id === '1002')).toHaveLength(1);
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
    expect(await text(page, '[data-testid=config-warning]')).toContain('the request budget (60 per 1 s) is above the account');
    // Not a set-up problem: no such alert on the connection tab.
    expect(await page.isVisible('section[data-testid=setup-problem]')).toBe(false);

    await page.click('[data-testid=tab-settings]');
    await page.waitForSelector('[data-testid=config-warnings][data-count="1"]', { state: 'visible', timeout: 10_000 });
  });
});
