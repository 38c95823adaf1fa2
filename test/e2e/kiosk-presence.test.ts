/**
 * The "Presentes" tab and the evacuation roll call in Chromium on the web bridge of a real agent
 * (issue 30): people on site by employer and gate, a punch at the terminal showing on the open
 * board (the live event stream), the roll call one touch away, marked safe by touch and by badge,
 * counts always in sight; a terminal without a link to the others says so. Screenshots at 800×480
 * and 1920×1080 (docs/screenshots).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };
const rigs = kioskRigPerTest();
const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? '').trim();

async function openPresence(page: Page): Promise<void> {
  await openAdmin(page, 'queue');
  await page.click('[data-testid=tab-presence]');
  // The board, or the roll call when one is under way.
  await page.waitForSelector('[data-testid=presence-count], [data-testid=rollcall-counts]');
}

describe('presence board and roll call on the admin screen (Chromium, web bridge)', () => {
  it('the board by employer and gate follows punches live; no Redis said (pt-BR, both sizes)', async () => {
    const r = await rigs.start();
    for (const id of ['1001', '1002']) expect((await r.agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    for (const size of [SMALL, LARGE]) {
      const { page, problems, context } = await r.open(size);
      await openPresence(page);
      if (size === SMALL) {
        expect(await text(page, '[data-testid=presence-count]')).toBe('2 pessoas na obra');
        // A punch while the board is open: it shows without a touch.
        expect((await r.agent.punch({ kind: 'id', value: '1003' })).ok).toBe(true);
      }
      await page.waitForSelector('[data-testid=presence-count]:has-text("3 pessoas na obra")');
      expect(await text(page, '[data-testid=presence-sources]')).toContain('sem Redis');
      expect(await text(page, '[data-testid=presence-sources]')).not.toContain('não compartilhadas');
      expect(await page.locator('[data-testid=presence-list] li').count()).toBe(3);
      await page.screenshot({ path: screenshotPath(`presence-${size.width}x${size.height}`) });
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('the roll call: frozen list, marks by touch and by badge, counts in sight, cut off said (pt-BR, both sizes)', async () => {
    const r = await rigs.start();
    for (const id of ['1001', '1002', '1003']) expect((await r.agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    const { page, problems } = await r.open(SMALL);
    await openPresence(page);
    await page.click('[data-testid=rollcall-start]');
    await page.waitForSelector('[data-testid=rollcall-counts]');
    expect(await text(page, '[data-testid=rollcall-counts]')).toBe('Na lista 3 · Seguros 0 · Ausentes 3');
    expect(await text(page, '[data-testid=rollcall-cut-off]')).toContain('sem contato');
    await page.locator('.rollcall-mark').first().click();
    await page.waitForSelector('[data-testid=rollcall-counts]:has-text("Seguros 1")');
    // A badge at the terminal during the roll call: marked safe, and the punch taken as usual (the
    // same minute again is the usual repeat, not a second punch).
    const before = r.agent.status().queue;
    const answer = await r.agent.punch({ kind: 'id', value: '1002' });
    expect(answer.ok).toBe(true);
    await page.waitForSelector('[data-testid=rollcall-counts]:has-text("Seguros 2 · Ausentes 1")');
    const after = r.agent.status().queue;
    expect(after.pending + after.sent + after.sending).toBe(
      before.pending + before.sent + before.sending + (answer.ok && answer.repeat ? 0 : 1),
    );
    await page.screenshot({ path: screenshotPath('rollcall-800x480') });
    const large = await r.open(LARGE);
    await openPresence(large.page);
    await large.page.waitForSelector('[data-testid=rollcall-counts]:has-text("Seguros 2 · Ausentes 1")');
    await large.page.screenshot({ path: screenshotPath('rollcall-1920x1080') });
    await page.click('[data-testid=rollcall-end]');
    await page.waitForSelector('[data-testid=rollcall-back]');
    await waitFor(() => r.agent.presence.rollCall()?.files !== null, "the roll call's files kept");
    expect(problems).toEqual([]);
  });
});
