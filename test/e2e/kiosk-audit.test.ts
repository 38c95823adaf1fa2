/**
 * The journal compared with the service on the real kiosk screen (Chromium, web bridge, real agent,
 * mock service): below the receipt lookup, the manager picks the days and compares; the panel says
 * what was found, names the missing NSR, and the next visit still shows the last comparison.
 */
import { describe, expect, it } from 'vitest';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';

const SMALL = { width: 800, height: 480 };
const rigs = kioskRigPerTest();

describe('the journal against the service on the admin screen', () => {
  it('800×480: compares the chosen days, says one punch is missing with its NSR, and keeps the summary', async () => {
    const r = await rigs.start();
    const punched = [];
    for (const id of ['1001', '1002']) {
      const p = await r.agent.punch({ kind: 'id', value: id });
      if (!p.ok || p.nsr === null) throw new Error(`punch ${id} not registered`);
      punched.push(p);
    }
    expect((await r.agent.flush({ maxWaitMs: 20_000 })).done).toBe(true);
    const [, joao] = punched;
    const day = joao?.localDate as string;
    const rec = r.mock
      .records()
      .find((x) => x.employee_external_id === '1002' && x.time === `${day}T${joao?.localTime}`);
    expect(r.mock.deleteRecord(rec?._id ?? '')).toBe(true);

    const { page, problems } = await r.open(SMALL);
    await openAdmin(page, 'receipt');
    await page.waitForSelector('[data-testid=audit-last]:has-text("Nenhuma ainda.")');
    await page.fill('[data-testid=audit-from]', day);
    await page.fill('[data-testid=audit-to]', day);
    // Below the receipt lookup, inside the tab's scrolling panel: the button is reachable at 800×480.
    await page.locator('[data-testid=audit-run]').scrollIntoViewIfNeeded();
    const run = await page.locator('[data-testid=audit-run]').boundingBox();
    expect(run && run.y >= 0 && run.y + run.height <= SMALL.height && run.x + run.width <= SMALL.width).toBe(true);
    await page.screenshot({ path: screenshotPath('admin-audit-range-800x480') });
    await page.click('[data-testid=audit-run]');
    await page.waitForSelector(
      '[data-testid=admin-message]:has-text("Conferência concluída: 1 de 2 marcações encontradas no serviço.")',
    );
    expect((await page.textContent('[data-testid=audit-result]'))?.trim()).toBe(
      '2 marcações: 1 encontradas, 1 ausentes, 0 não conferidas.',
    );
    expect((await page.textContent('[data-testid=audit-missing]'))?.trim()).toBe(String(joao?.nsr).padStart(9, '0'));
    expect((await page.textContent('[data-testid=audit-delivered]'))?.trim()).toContain(
      '1 das marcações ausentes tinham sido entregues',
    );

    // The summary too, once scrolled to.
    await page.locator('[data-testid=audit-missing]').scrollIntoViewIfNeeded();
    const b = await page.locator('[data-testid=audit-missing]').boundingBox();
    expect(b && b.y >= 0 && b.y + b.height <= SMALL.height).toBe(true);
    await page.screenshot({ path: screenshotPath('admin-audit-800x480') });

    // Another tab and back: the last comparison is still shown (kept by the agent).
    await page.click('[data-testid=tab-queue]');
    await page.click('[data-testid=tab-receipt]');
    await page.waitForSelector('[data-testid=audit-result]:has-text("1 ausentes")');
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });
});
