/**
 * Held and rejected punches as people see them on the kiosk screen (issue 11): Debian's Chromium on
 * the web bridge of a real agent (real SQLite) talking to the mock API on loopback. Punches the
 * service refuses for their employee (403) or will not confirm (GET /times 404) are held and a
 * manager decides on them; punches a 2xx answer says failed are rejected and retried all at once.
 * Screenshots land in test-artifacts/screenshots/.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { punch, scriptProblems, SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';
import { FORBIDDEN_PUNCH_MESSAGE, OUTSIDE_SCHEDULE_MESSAGE } from '../../src/mock/answer-variants.js';

const LARGE = { width: 1920, height: 1080 };

/**
 * Test-sized delivery timings: an in-doubt punch is checked after 50 ms, and handed to a person after 3 checks that
 * prove nothing.
 */
const RETRY = { inDoubtGraceMs: 50, maxChecks: 3, baseMs: 20, maxMs: 200 };

const rigs = kioskRigPerTest();

describe('delivery problems on the kiosk screen (Chromium, web bridge)', () => {
  it('held punches: one refused for its employee (403), one the service will not confirm; the manager marks one delivered and sends the other again', async () => {
    const r = await rigs.start({
      variants: { forbiddenPunches: ['1002'], timesAnswer: 404 },
      settings: { retry: RETRY },
    });
    const { page, problems } = await r.open(SMALL);

    await punch(page, '1002');
    await waitFor(() => r.agent.status().queue.held === 1, 'the punch of the refused employee held');
    // The next punch is stored by the service but its answer is lost: in doubt, and GET /times answers 404.
    r.mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
    await punch(page, '1001');
    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1001'),
      'the dropped punch stored by the service',
    );
    r.mock.setFaults(null);
    await waitFor(() => r.agent.status().queue.held === 2, 'the unconfirmed punch held after its checks');

    await openAdmin(page, 'queue');
    const rows = page.locator('[data-testid=held-list] [data-testid=held-row]');
    await rows.nth(1).waitFor({ timeout: 10_000 });
    const forbidden = page.locator('[data-testid=held-row][data-reason="forbidden"]');
    const unverified = page.locator('[data-testid=held-row][data-reason="unverified"]');
    expect(await rows.count()).toBe(2);
    expect(await forbidden.textContent()).toContain('João Carlos de Oliveira (1002)');
    expect(await forbidden.locator('[data-testid=held-reason]').textContent()).toBe(
      'o serviço recusou este funcionário (403) — nova tentativa automática',
    );
    expect(await forbidden.locator('[data-testid=held-detail]').textContent()).toBe(
      `Detalhes: 403 ${FORBIDDEN_PUNCH_MESSAGE}`,
    );
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
    await page.waitForSelector(`[data-testid=held-row][data-punch-id="${unverifiedId}"]`, {
      state: 'detached',
      timeout: 10_000,
    });
    expect(await rows.count()).toBe(1);
    expect(r.agent.status().queue).toMatchObject({ sent: 1, held: 1 });
    // Never sent twice: the one record is the one the service stored when its answer was lost.
    expect(r.mock.records().filter((x) => x.employee_external_id === '1001')).toHaveLength(1);

    // The service now takes the refused employee's punches: the manager sends it again.
    r.mock.setVariants({});
    const forbiddenId = await forbidden.getAttribute('data-punch-id');
    await forbidden.locator('[data-testid=held-resend]').click();
    await page.waitForFunction(
      (want) =>
        (globalThis as unknown as PageGlobals).document
          .querySelector('[data-testid=admin-message]')
          ?.textContent?.trim() === want,
      `Registro retido ${forbiddenId} colocado de novo na fila de envio.`,
      { timeout: 10_000 },
    );
    // The service's record comes a moment before the terminal writes its answer down: wait for both.
    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1002') && r.agent.status().queue.sent === 2,
      'the resent punch delivered',
    );
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
    for (const reason of await rows.locator('.rr-reason').allTextContents())
      expect(reason).toContain(OUTSIDE_SCHEDULE_MESSAGE);
    const retryAll = page.locator('[data-testid=retry-all]');
    expect(await retryAll.isVisible()).toBe(true);

    r.mock.setVariants({});
    await retryAll.click();
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=admin-message]')).toBe('Registros recusados reenviados para envio: 2.');
    await waitFor(() => r.mock.records().length === 2, 'both retried punches delivered');
    expect(
      r.mock
        .records()
        .map((x) => x.employee_external_id)
        .sort(),
    ).toEqual(['1001', '1002']);
    await page.waitForSelector('[data-testid=rejected-row]', { state: 'detached', timeout: 10_000 });
    await retryAll.waitFor({ state: 'hidden', timeout: 10_000 });
    expect(r.agent.status().queue).toMatchObject({ sent: 2, rejected: 0 });
    expect(scriptProblems(problems)).toEqual([]);
  });
});
