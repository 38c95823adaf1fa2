/**
 * What the kiosk screen says about the service beyond online and offline (issue 23): the routes
 * it does not have (admin connection tab), and a service that answers only with server errors
 * (the idle line, the connection tab). Chromium on the web bridge of a real agent; the mock API on
 * loopback with the `absentRoutes` variant and a fault plan of 500s. Screenshots of both.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { punch, scriptProblems, SMALL, text } from '../helpers/kiosk-delivery.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin, waitScreen } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';

const rigs = kioskRigPerTest();

describe('the service as the kiosk screen shows it', () => {
  it('the routes the service lacks are listed on the connection tab, with what the terminal does without them', async () => {
    // The employee's day is read only while the window is nearly empty: after the start's roster reads, a larger share
    // lets it go now.
    const r = await rigs.start({
      variants: { absentRoutes: ['/timesheets', '/work-leaves'], absentRouteStatus: 405 },
      settings: { selfService: { maxShare: 0.5 } },
    });
    const { page, problems } = await r.open(SMALL);
    await punch(page, '1001');
    await waitFor(() => r.agent.status().absentRoutes.length === 2, 'both routes found missing');
    // Not the service being down: it answers, and the punch went out.
    expect(r.agent.status()).toMatchObject({ online: true, queue: { sent: 1 } });

    await openAdmin(page, 'connection');
    const box = page.locator('section[data-testid=absent-routes]');
    await page.waitForSelector('section[data-testid=absent-routes][data-count="2"]', {
      state: 'visible',
      timeout: 10_000,
    });
    expect(await text(page, 'section[data-testid=absent-routes] .alert-title')).toBe('Ausente no serviço');
    const sheets = box.locator('[data-testid=absent-route][data-route="GET /timesheets"]');
    expect(await sheets.textContent()).toMatch(
      /^O serviço não tem GET \/timesheets \(405 desde .+\): o banco de horas e os registros do dia vindos do serviço não são mostrados — nova consulta às .+$/,
    );
    expect(await box.locator('[data-testid=absent-route][data-route="GET /work-leaves"]').textContent()).toContain(
      'os avisos de afastamento não são mostrados',
    );
    expect(await page.getAttribute('[data-testid=conn-online] span', 'data-state')).toBe('online');
    await page.screenshot({ path: screenshotPath('admin-connection-absent-routes-800x480') });
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('a service answering only with server errors: the idle line says so (not "no connection"), and online again once it answers', async () => {
    const r = await rigs.start();
    const { page, problems } = await r.open(SMALL);
    await page.waitForSelector('[data-testid=connection][data-state="online"]', { timeout: 15_000 });
    r.mock.setFaults({ serverError: 1 });
    await punch(page, '1001');
    await punch(page, '1002');
    await page.waitForSelector('[data-testid=connection][data-state="errors"][data-waiting="2"]', { timeout: 15_000 });
    expect(await text(page, '[data-testid=connection]')).toBe('Serviço com erro — 2 registros aguardando');
    // The whole line fits the 800×480 footer (the offline line's length).
    const fits = await page.$eval('[data-testid=connection] .conn-text', (el) => {
      const e = el as unknown as { scrollWidth: number; clientWidth: number };
      return e.scrollWidth <= e.clientWidth;
    });
    expect(fits).toBe(true);
    await page.screenshot({ path: screenshotPath('idle-service-errors-800x480') });

    await openAdmin(page, 'connection');
    await page.waitForSelector('[data-testid=conn-online] span[data-state="errors"]', { timeout: 10_000 });
    expect(await text(page, '[data-testid=conn-online] span')).toBe('respondendo com erro');

    r.mock.setFaults(null);
    await waitFor(() => r.agent.status().queue.sent === 2, 'both delivered once the service answers', 20_000);
    await page.click('[data-testid=lock]');
    await waitScreen(page, 'idle');
    await page.waitForSelector('[data-testid=connection][data-state="online"][data-waiting="0"]', { timeout: 10_000 });
    expect(r.mock.records()).toHaveLength(2);
    expect(scriptProblems(problems)).toEqual([]);
  });
});
