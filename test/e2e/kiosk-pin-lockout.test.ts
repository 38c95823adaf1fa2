/**
 * A PIN lockout on the kiosk screen never costs a punch (issue 12): Debian's Chromium on the web
 * bridge of a real agent (real SQLite) talking to the mock API on loopback. The punch is taken,
 * held as "PIN not verified", and the manager confirms (sent) or disputes it (kept, never sent,
 * with the reason). Screenshots land in test-artifacts/screenshots/.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath, TEST_SCREEN } from '../helpers/kiosk-browser.js';
import { scriptProblems, SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';

const rigs = kioskRigPerTest();

describe('delivery problems on the kiosk screen (Chromium, web bridge)', () => {
  it('a PIN lockout never costs a punch: taken, held as "PIN not verified"; the manager disputes one (kept, never sent) and confirms another (sent)', async () => {
    const r = await rigs.start({
      settings: { pin: { requiredFor: ['id'], maxFailures: 2 } },
      screen: { ...TEST_SCREEN, pinRequiredFor: ['id'] },
    });
    expect(await r.agent.admin.setPin('1001', '4826')).toMatchObject({ ok: true });
    expect(await r.agent.admin.setPin('1002', '5937')).toMatchObject({ ok: true });
    const { page, problems } = await r.open(SMALL);
    const lastSound = () =>
      page.evaluate(() => (globalThis as unknown as PageGlobals).document.body.dataset.lastSound ?? null);
    const result = page.locator('[data-testid=result]');
    /**
     * ID on the keypad, then the PIN, as kiosk-screen.test.ts does: ends on the result, or on the PIN step asking
     * again.
     */
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
    expect(await text(page, '[data-testid=result-message]')).toBe(
      'PIN não verificado: o gestor vai confirmar este registro.',
    );
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
    const anaId = await page
      .locator('[data-testid=held-row]', { hasText: '(1001)' })
      .first()
      .getAttribute('data-punch-id');
    expect(anaId).toMatch(/^\d+$/);
    const ana = page.locator(`[data-testid=held-row][data-punch-id="${anaId}"]`);
    const joao = page.locator('[data-testid=held-row]', { hasText: '(1002)' });
    expect(await ana.getAttribute('data-reason')).toBe('pin_unverified');
    expect(await ana.locator('[data-testid=held-reason]').textContent()).toBe(
      'PIN não verificado (funcionário bloqueado por PINs errados) — confirme ou conteste',
    );
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
    expect(await text(page, '[data-testid=admin-message]')).toBe(
      `Registro ${anaId} contestado: fica guardado neste terminal e não será enviado.`,
    );
    const disputed = page.locator(`[data-testid=held-row][data-punch-id="${anaId}"][data-reason="disputed"]`);
    await disputed.waitFor({ timeout: 10_000 });
    expect(await disputed.getAttribute('data-disputing')).toBe('false');
    expect(await disputed.locator('[data-testid=held-reason]').textContent()).toBe(
      'contestado pelo gestor — guardado, não será enviado',
    );
    expect(await disputed.locator('[data-testid=held-detail]').textContent()).toBe(`Motivo: ${reason}`);
    expect(await disputed.locator('button').count()).toBe(0);
    await disputed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-held-disputed-800x480') });

    // Confirm: the other punch is sent.
    const joaoId = await joao.getAttribute('data-punch-id');
    await joao.locator('[data-testid=held-confirm]').click();
    await page.waitForFunction(
      (want) =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=admin-message]')
          ?.textContent?.trim() === want,
      `Registro retido ${joaoId} colocado de novo na fila de envio.`,
      { timeout: 10_000 },
    );
    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1002'),
      'the confirmed punch delivered',
    );
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${joaoId}"]`, {
      state: 'detached',
      timeout: 10_000,
    });
    expect(await rows.count()).toBe(anaHeld);

    // The disputed punch stays here and is never sent.
    expect(r.agent.status().queue).toMatchObject({ held: anaHeld, sent: 1, pending: 0 });
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toEqual([]);
    expect(r.mock.records().filter((x) => x.employee_external_id === '1002')).toHaveLength(1);
    expect(scriptProblems(problems)).toEqual([]);
  });
});
