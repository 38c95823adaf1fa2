/**
 * The admin screen's punch lists in Chromium on the web bridge of a real agent: with the API
 * unreachable the queue tab lists the punches waiting, the error worded in the screen's language
 * with the technical text beneath; the Punches tab finds an employee's punches of today and says
 * when nobody matches; the CSV of the month so far downloads in browser mode (BOM, CR LF); the
 * connection tab shows the last answer beside "online/offline since". Screenshots at 800×480 and
 * 1920×1080 in pt-BR, and in es.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { KioskRig } from '../helpers/kiosk-browser.js';
import { screenshotPath, TEST_SCREEN } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };
const rigs = kioskRigPerTest();
const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? '').trim();
const today = (): string => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

/** 1001 punched and delivered; then the API goes away and 1002 and 1003 punch: they wait, with a connection error. */
async function offlineWithWaiting(r: KioskRig): Promise<void> {
  expect((await r.agent.punch({ kind: 'id', value: '1001' })).ok).toBe(true);
  await waitFor(() => r.agent.status().queue.sent === 1, 'the first punch delivered');
  await r.stopMock();
  for (const id of ['1002', '1003']) expect((await r.agent.punch({ kind: 'id', value: id })).ok).toBe(true);
  await waitFor(
    () => r.agent.afd.punches.waiting().punches.filter((p) => p.lastError !== null).length === 2,
    'both waiting punches tried once',
  );
}

async function searchEmployee(page: Page, query: string): Promise<void> {
  await page.fill('[data-testid=punches-query]', query);
  await page.click('[data-testid=punches-search]');
}

describe('punch lists on the admin screen (Chromium, web bridge)', () => {
  it('lists what waits with the API unreachable, finds a punch by employee, downloads the CSV (pt-BR)', async () => {
    const r = await rigs.start();
    await offlineWithWaiting(r);
    const { page, problems } = await r.open(SMALL);
    await openAdmin(page, 'queue');
    await page.locator('[data-testid=waiting-row]').nth(1).waitFor();
    const rows = page.locator('[data-testid=waiting-row]');
    expect(await rows.nth(0).getAttribute('data-state')).toMatch(/pending|sending/);
    expect(await rows.nth(0).textContent()).toContain('(1002)');
    expect(await rows.nth(1).textContent()).toContain('(1003)');
    const said = await text(page, '[data-testid=waiting-row]:first-child [data-testid=waiting-error]');
    const raw = await text(page, '[data-testid=waiting-row]:first-child [data-testid=waiting-error-raw]');
    expect(said).toContain('recusou a conexão');
    expect(raw).toMatch(/ECONNREFUSED/);
    await page.locator('.waiting-section').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-waiting-800x480') });

    await page.click('[data-testid=tab-punches]');
    await page.waitForSelector('[data-testid=csv-target-download]'); // the tab's start: the site's today and the drives
    expect(await page.inputValue('[data-testid=punches-date]')).toBe(today());
    await searchEmployee(page, '1001');
    await page.waitForSelector('[data-testid=found-punch]');
    expect(await page.getAttribute('[data-testid=found-punch]', 'data-state')).toBe('sent');
    expect(await text(page, '[data-testid=found-state]')).toBe('enviada');
    expect(await text(page, '[data-testid=found-punch]')).toMatch(/entregue .*NSR 000000001/);
    await page.screenshot({ path: screenshotPath('admin-punches-800x480') });
    await searchEmployee(page, 'ninguém-assim');
    await page.waitForSelector('[data-testid=punches-nobody]');
    expect(await text(page, '[data-testid=punches-nobody]')).toBe('Ninguém corresponde a “ninguém-assim”.');
    await searchEmployee(page, 'a');
    await page.waitForSelector('[data-testid=admin-message][data-tone=error]');
    expect(await text(page, '[data-testid=admin-message]')).toBe('Digite pelo menos 2 caracteres.');

    // The month so far, as a one-time download in this browser.
    expect(await page.isChecked('[data-testid=csv-target-download]')).toBe(true);
    await page.click('[data-testid=csv-export]');
    await page.waitForSelector('[data-testid=csv-download]');
    expect(await text(page, '[data-testid=admin-message]')).toBe('CSV pronto: 3 marcações. Baixe abaixo.');
    await page.screenshot({ path: screenshotPath('admin-punches-csv-800x480') });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=csv-download]')]);
    const name = `punches_${today().slice(0, 8)}01_${today()}.csv`;
    expect(download.suggestedFilename()).toBe(name);
    const body = fs.readFileSync(await download.path());
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('local_date,local_time,employee_external_id,employee_name,state,sent_at,nsr,service_id');
    expect(lines.slice(1, -1).map((l) => l.split(',')[2])).toEqual(['1001', '1002', '1003']);
    expect(lines.at(-1)).toBe('');
    await page.waitForSelector('[data-testid=admin-message][data-tone=ok]:has-text("Baixado: ")');

    await page.click('[data-testid=tab-connection]');
    await page.waitForSelector('[data-testid=conn-last-answered]');
    expect(await text(page, '[data-testid=conn-last-answered]')).not.toBe('nunca');
    expect(await text(page, '[data-testid=conn-error]')).toContain('recusou a conexão');
    expect(await page.textContent('.connection-panel')).toContain('On-line/off-line desde');
    await page.screenshot({ path: screenshotPath('admin-connection-800x480') });
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);

    const large = await r.open(LARGE);
    await openAdmin(large.page, 'queue');
    await large.page.locator('[data-testid=waiting-row]').nth(1).waitFor();
    await large.page.screenshot({ path: screenshotPath('admin-waiting-1920x1080') });
    await large.page.click('[data-testid=tab-punches]');
    await searchEmployee(large.page, '1002');
    await large.page.waitForSelector(
      '[data-testid=found-punch][data-state=pending], [data-testid=found-punch][data-state=sending]',
    );
    await large.page.screenshot({ path: screenshotPath('admin-punches-1920x1080') });
    await large.page.click('[data-testid=tab-connection]');
    await large.page.waitForSelector('[data-testid=conn-last-answered]');
    await large.page.screenshot({ path: screenshotPath('admin-connection-1920x1080') });
  });

  it('speaks the screen’s language: the waiting list and the search in Spanish', async () => {
    const r = await rigs.start({ screen: { ...TEST_SCREEN, language: 'es' } });
    await offlineWithWaiting(r);
    const { page } = await r.open(SMALL);
    await openAdmin(page, 'queue');
    await page.locator('[data-testid=waiting-row]').nth(1).waitFor();
    // The punch the uploader tried carries the error (which of the waiting rows that is depends on timing).
    expect(await page.locator('[data-testid=waiting-row] [data-testid=waiting-error]').first().textContent()).toContain(
      'rechazó la conexión',
    );
    await page.click('[data-testid=tab-punches]');
    await searchEmployee(page, '1003');
    await page.waitForSelector('[data-testid=found-punch]');
    expect(await text(page, '[data-testid=found-state]')).toMatch(/en espera|enviando/);
    await page.screenshot({ path: screenshotPath('admin-punches-es-800x480') });
  });
});
