/**
 * The roster states of the kiosk screen end to end (issue 10, "a roster that survives a real
 * server"), as an employee and a site manager see them: Debian's Chromium on the web bridge of a
 * real agent (real SQLite) talking to the mock API on loopback. A first boot with the service
 * unreachable, an employee whose contract does not allow API records, and the admin roster tab
 * with a service that sends odd records, ignores the site filter and then shrinks the roster.
 * Screenshots land in test-artifacts/screenshots/.
 */
import type { Page } from 'playwright-core';
import { axeFindings } from '../helpers/axe.js';
import { describe, expect, it } from 'vitest';
import { screenshotPath, wedgeBurst } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { dismissResult, lastSound, openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { waitFor } from '../helpers/temp.js';
import { DEMO_SITE_ID, demoSeed, objectIdFor, type MockSeed } from '../../src/mock/seed.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };

/**
 * Test-sized roster timings: a failed sync is retried within ~100-300 ms; a held shrink is not re-checked during a
 * test.
 */
const ROSTER = { retryBaseMs: 100, retryMaxMs: 300, shrinkRecheckMs: 60_000 };

/**
 * The demo employee whose contract says `allow_external_api_record: false` (index 24: `oddRecords` leaves it as it is).
 */
const HELD_ID = '1025';

const rigs = kioskRigPerTest();

const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();
const attr = (page: Page, testid: string, name: string) => page.getAttribute(`[data-testid=${testid}]`, name);

/** An employee types their ID on the touch keypad and presses OK. */
async function typeId(page: Page, id: string): Promise<void> {
  await page.click('[data-testid=open-keypad]');
  await waitScreen(page, 'keypad');
  await pressKeys(page, id);
  await page.click('[data-testid=key-ok]');
  await waitScreen(page, 'result');
}

/** The demo seed with `HELD_ID` not allowed to record by API. */
/**
 * The demo with employee HELD_ID not allowed API records, and a second site with nobody (the site filter is suspect
 * only on an account of several sites).
 */
function seedWithHeld(): MockSeed {
  const seed = demoSeed();
  seed.sites.push({
    ...(seed.sites[0] as MockSeed['sites'][number]),
    _id: objectIdFor('e2e-other-site', 0),
    name: 'Outra obra',
  });
  const e = seed.employees.find((x) => x.external_id === HELD_ID);
  if (!e?.contract_data) throw new Error(`no demo employee ${HELD_ID} with contract data`);
  e.contract_data.allow_external_api_record = false;
  return seed;
}

const nameOf = (seed: MockSeed, ext: string): string =>
  seed.employees.find((e) => e.external_id === ext)?.full_name ?? '?';

/** Script errors and CSP violations; a missing favicon and the like are not the page's fault. */
function scriptProblems(problems: string[]): string[] {
  return problems.filter((p) => /Content Security Policy|Uncaught|TypeError|ReferenceError|SyntaxError/i.test(p));
}

describe('the kiosk screen without a complete employee list (Chromium, web bridge)', () => {
  it('first boot with the service unreachable: the punch is kept and said so, then delivered when the list arrives by itself', async () => {
    const r = await rigs.start({ apiDown: true, settings: { roster: ROSTER } });
    const { page, problems } = await r.open(SMALL);
    // Said plainly on the idle screen: there is no employee list yet.
    await page.waitForSelector('[data-testid=no-roster]:not([hidden])', { state: 'visible', timeout: 10_000 });
    expect(await page.getAttribute('section.idle', 'data-roster')).toBe('incomplete');
    expect(await text(page, 'no-roster')).toContain('sem lista de funcionários');
    await page.screenshot({ path: screenshotPath('idle-no-roster-800x480') });
    expect(await axeFindings(page, 'idle without a roster')).toEqual([]);

    // A code nobody can check yet: never turned away, kept, with the success sound and the reason.
    await typeId(page, '1001');
    await page.waitForSelector('[data-testid=result][data-note="awaiting_roster"]');
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    expect(await lastSound(page)).toBe('success');
    expect(await text(page, 'result-message')).toContain(
      'Será confirmado quando o terminal receber a lista de funcionários',
    );
    const shownTime = await text(page, 'result-time');
    expect(shownTime).toMatch(/^\d{2}:\d{2}$/);
    await page.screenshot({ path: screenshotPath('result-awaiting-roster-800x480') });
    await dismissResult(page);
    expect(r.agent.status().unresolved.count).toBe(1);

    // The service comes up: the roster sync retries on its own, the notice goes, the punch is sent.
    await r.startMock();
    await page.waitForSelector('section.idle[data-roster="complete"]', { timeout: 20_000 });
    expect(await page.isVisible('[data-testid=no-roster]')).toBe(false);
    await waitFor(() => r.mock.records().some((x) => x.employee_external_id === '1001'), 'the kept punch delivered');
    const sent = r.mock.records().filter((x) => x.employee_external_id === '1001');
    expect(sent).toHaveLength(1);
    // At the minute the employee saw on the screen, not the minute the list arrived.
    expect(sent[0]?.time.slice(11)).toBe(shownTime);
    expect(r.agent.status().unresolved.count).toBe(0);
    expect(scriptProblems(problems)).toEqual([]);
  });

  it('an employee not allowed to record by API: the punch is kept here, HR is named, nothing is sent for them', async () => {
    const seed = seedWithHeld();
    const r = await rigs.start({ seed, settings: { roster: ROSTER } });
    const { page, problems } = await r.open(SMALL);
    await page.waitForSelector('section.idle[data-roster="complete"]');
    await wedgeBurst(page, HELD_ID);
    await waitScreen(page, 'result');
    await page.waitForSelector('[data-testid=result][data-note="held_not_allowed"]');
    expect(await text(page, 'result-name')).toBe(nameOf(seed, HELD_ID));
    expect(await text(page, 'result-message')).toBe('Guardado neste terminal: procure o RH para liberar o envio.');
    // A notice, not a refusal and not "waiting for the connection".
    expect(await attr(page, 'result', 'data-ok')).toBe('true');
    expect(await attr(page, 'result', 'data-queued')).toBe('false');
    expect(await lastSound(page)).toBe('success');
    await page.screenshot({ path: screenshotPath('result-held-800x480') });
    await dismissResult(page);

    // A colleague punches after them and is delivered; still nothing for the held one.
    await wedgeBurst(page, '1002');
    await waitScreen(page, 'result');
    expect(await attr(page, 'result', 'data-note')).toBe('none');
    await waitFor(
      () => r.mock.records().some((x) => x.employee_external_id === '1002'),
      'the colleague’s punch delivered',
    );
    expect(r.mock.records().filter((x) => x.employee_external_id === HELD_ID)).toEqual([]);
    expect(r.agent.status().queue.held).toBe(1);
    expect(scriptProblems(problems)).toEqual([]);
  });
});

describe('the site manager at the roster tab', () => {
  it('shows unusable records, a site filter the service ignores, held and unresolved punches; a shrink is held until confirmed', async () => {
    const seed = seedWithHeld();
    const r = await rigs.start({
      seed,
      siteId: DEMO_SITE_ID,
      variants: { oddRecords: true, ignoreSiteFilter: true },
      settings: { roster: ROSTER, identity: { unknown: 'accept-and-resolve' } },
    });
    // Records without any id: every 8th of the service's employees (index % 8 === 7).
    const noIds = r.mock.employees().filter((_, i) => i % 8 === 7).length;
    expect(noIds).toBe(4);
    const { page, problems } = await r.open(SMALL);

    // Before the manager comes: a held punch and one for a code no list knows.
    await wedgeBurst(page, HELD_ID);
    await page.waitForSelector('[data-testid=result][data-note="held_not_allowed"]');
    await dismissResult(page);
    await wedgeBurst(page, '77770001');
    await page.waitForSelector('[data-testid=result][data-note="unknown_code"]');
    expect(await lastSound(page)).toBe('success');
    await dismissResult(page);

    await openAdmin(page, 'roster');

    await page.waitForSelector('[data-testid=roster-skipped-count]', { state: 'visible' });
    expect(await attr(page, 'roster-skipped-count', 'data-count')).toBe(String(noIds));
    expect(await text(page, 'roster-skipped-count')).toContain(String(noIds));
    await page.waitForSelector('[data-testid=site-filter-warning]', { state: 'visible' });
    expect(await text(page, 'site-filter-warning')).toContain('ignorando o filtro');
    // The held count reaches the tab with the agent's next status event after the punch.
    await page.waitForSelector('[data-testid=not-allowed-row][data-held="1"]', { timeout: 10_000 });
    const heldRow = page.locator('[data-testid=not-allowed-row]');
    expect(await heldRow.count()).toBe(1);
    expect(await heldRow.textContent()).toContain(nameOf(seed, HELD_ID));
    const unresolved = page.locator('[data-testid=unresolved-list] [data-testid=unresolved-row]');
    await unresolved.first().waitFor();
    expect(await unresolved.count()).toBe(1);
    expect(await unresolved.locator('[data-testid=unresolved-code]').textContent()).toBe('77770001');
    const sizeBefore = Number(await text(page, 'roster-size'));
    expect(sizeBefore).toBe(seed.employees.length - noIds);
    expect(await page.isVisible('[data-testid=held-shrink]')).toBe(false);
    await page.screenshot({ path: screenshotPath('admin-roster-800x480') });

    // The service now lists fewer than half of them: the smaller list is held, the current one stays.
    const employees = r.mock.employees();
    const deactivated = employees.slice(0, 24).filter((e) => e.external_id !== HELD_ID);
    expect(deactivated.length * 2).toBeGreaterThan(employees.length);
    for (const e of deactivated) r.mock.setActive(e._id, false);
    await page.setViewportSize(LARGE);
    await page.click('[data-testid=sync-roster]');
    await page.waitForSelector('[data-testid=held-shrink]', { state: 'visible', timeout: 15_000 });
    expect(await text(page, 'held-shrink-body')).toContain(String(sizeBefore));
    expect(Number(await text(page, 'roster-size'))).toBe(sizeBefore);
    // The sync button scrolled the tab down: back up to the box, as the manager would.
    await page.locator('[data-testid=held-shrink]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath('admin-roster-1920x1080') });

    // The manager confirms: the answer in Portuguese, the box gone, the list smaller.
    await page.click('[data-testid=confirm-shrink]');
    await page.waitForSelector('[data-testid=admin-message][data-tone="ok"]', { timeout: 10_000 });
    expect(await text(page, 'admin-message')).toBe(
      'Confirmado: a nova lista de funcionários, menor, é aplicada (baixada de novo antes, se preciso, qualquer que seja o tamanho).',
    );
    await page.waitForSelector('[data-testid=held-shrink]', { state: 'hidden', timeout: 10_000 });
    await page.waitForFunction(
      (before) =>
        Number(
          (globalThis as unknown as PageGlobals).document.querySelector('[data-testid=roster-size]')?.textContent ??
            'NaN',
        ) < before,
      sizeBefore,
      { timeout: 10_000 },
    );
    expect(r.agent.status().roster.size).toBeLessThan(sizeBefore);
    expect(r.agent.status().roster.heldShrink).toBeNull();
    // The kept unknown code is still listed: the smaller list does not know it either.
    await unresolved.first().waitFor();
    expect(await unresolved.locator('[data-testid=unresolved-code]').textContent()).toBe('77770001');
    expect(r.mock.records().filter((x) => x.employee_external_id === HELD_ID)).toEqual([]);
    expect(scriptProblems(problems)).toEqual([]);
  });
});
