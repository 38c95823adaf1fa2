/**
 * Strings of any length on the real kiosk screen (issue 23): Chromium, the web bridge of a real
 * agent, the mock's `longStrings` variant. A 10,000-character employee name, site name and leave
 * type (and the longest employer name the configuration takes, 150) keep the idle screen, the
 * result, the receipt and the admin lists in shape at 800×480 and 1920×1080: shortened for display
 * (line clamp, ellipsis), the whole text still in the page, and the receipt's QR code still reads
 * back from a screenshot. Names of 74, 90 and 120 characters (issue 25: the headline once left an
 * 800×480 screen) in pt-BR, es and en, at 800×480 and 480×800. Screenshots:
 * test-artifacts/screenshots/long-*.png.
 */
import type { Page } from 'playwright-core';
import { expectFits } from '../helpers/screen-fit.js';
import { describe, expect, it } from 'vitest';
import { screenshotPath, TEST_SCREEN, wedgeBurst, type KioskRig } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { decodePng } from '../helpers/qr-decode.js';
import { openAdmin } from '../helpers/screen-actions.js';
import { waitFor } from '../helpers/temp.js';
import { padText } from '../../src/mock/variants.js';
import { demoSeed } from '../../src/mock/seed.js';

type Size = { width: number; height: number };
const SMALL: Size = { width: 800, height: 480 };
const PORTRAIT: Size = { width: 480, height: 800 };
const LARGE: Size = { width: 1920, height: 1080 };
const label = (s: Size) => `${s.width}x${s.height}`;
const LONG = 10_000;
const ANA = padText('Ana Paula Ferreira da Silva', LONG);
const SITE = padText('Obra Centro — São Paulo', LONG);
const LEAVE = padText('Licença médica', LONG);
/** The configuration keeps an employer's name to the AFD header's 150 characters: the longest there is. */
const EMPLOYER = padText('Construtora Exemplo Ação Ltda', 150);
const SETTINGS = {
  terminalId: 'obra-centro-01',
  employer: { name: EMPLOYER, cnpj: '11.222.333/0001-81' },
  receipt: { portalUrl: 'https://portal.example.com.br/ponto' },
  selfService: { maxShare: 0.5 },
};

const rigs = kioskRigPerTest();
const ZONE = 'America/Sao_Paulo';
const today = (shiftMs = 0): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(Date.now() + shiftMs));
const minuteNow = (shiftMs = 0): string =>
  new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(Date.now() + shiftMs),
  );
/**
 * Whole days from today (São Paulo) to the date whose name is the widest in pt-BR ("segunda-feira, 22 de novembro":
 * a Monday in November with a two-digit day, measured in Chromium over two years in pt-BR, es and en): the result
 * screen's date line once wrapped on such a day only, and left the 800×480 screen.
 */
function shiftToWidestDate(): number {
  const [y, m, d] = today().split('-').map(Number) as [number, number, number];
  return Date.UTC(2027, 10, 22) - Date.UTC(y, m - 1, d);
}
const fullText = async (page: Page, sel: string) => (await page.locator(sel).first().textContent()) ?? '';

type Box = { x: number; y: number; width: number; height: number };

/**
 * An element's text at most `maxLines` lines of its own font high (padding and border aside), and no wider than the
 * viewport.
 */
async function expectShortened(page: Page, sel: string, maxLines: number, size: Size): Promise<void> {
  const m = await page
    .locator(sel)
    .first()
    .evaluate((el) => {
      type Style = {
        lineHeight: string;
        fontSize: string;
        paddingTop: string;
        paddingBottom: string;
        borderTopWidth: string;
        borderBottomWidth: string;
      };
      const g = globalThis as unknown as { getComputedStyle(e: unknown): Style };
      const s = g.getComputedStyle(el);
      const line = s.lineHeight === 'normal' ? parseFloat(s.fontSize) * 1.25 : parseFloat(s.lineHeight);
      const frame = [s.paddingTop, s.paddingBottom, s.borderTopWidth, s.borderBottomWidth].reduce(
        (n, v) => n + parseFloat(v),
        0,
      );
      const b = (el as unknown as { getBoundingClientRect(): Box }).getBoundingClientRect();
      return { line, text: b.height - frame, box: { x: b.x, y: b.y, width: b.width, height: b.height } };
    });
  expect(
    m.text,
    `${sel} ${JSON.stringify(m.box)}: its text at most ${maxLines} lines of ${m.line}px`,
  ).toBeLessThanOrEqual(maxLines * m.line + 1);
  expect(
    m.box.x >= -0.5 && m.box.x + m.box.width <= size.width + 0.5,
    `${sel} ${JSON.stringify(m.box)} within ${size.width} px`,
  ).toBe(true);
}

/**
 * 1001 punched once through the agent, its day (timesheet, leaves) read; then the next minute, so the screen's punch is
 * not a repeat.
 */
async function punchedOnceWithLeave(r: KioskRig, shiftMs = 0): Promise<void> {
  const day = today(shiftMs);
  r.mock.addLeave({ employee: '1001', type: 'Licença médica', start_date: day, end_date: day, approved: true });
  const first = await r.agent.punch({ kind: 'badge', value: '1001' });
  if (!first.ok) throw new Error(`first punch refused: ${first.reason}`);
  const leavesRead = () =>
    r.mock.requests().some((q) => q.method === 'GET' && q.path.endsWith('/work-leaves') && q.status === 200);
  await waitFor(() => r.agent.status().queue.sent === 1 && leavesRead(), 'delivered and the leaves read', 30_000);
  await waitFor(() => minuteNow(shiftMs) !== first.localTime, 'the next minute', 65_000);
  // The agent's time follows the service's Date (whole seconds): a margin past the minute's turn.
  await new Promise((res) => setTimeout(res, 1_500));
}

describe('strings of any length on the kiosk screen', () => {
  it(
    'a 10,000-character name, site name and leave type: idle, result and receipt in shape at 800×480 and 1920×1080; the QR code reads back',
    { timeout: 180_000 },
    async () => {
      const clockShiftMs = shiftToWidestDate();
      const r = await rigs.start({
        variants: { longStrings: LONG },
        settings: SETTINGS,
        screen: { ...TEST_SCREEN, resultMs: 120_000, receiptMs: 120_000 },
        clockShiftMs,
      });
      await punchedOnceWithLeave(r, clockShiftMs);
      const opened = [
        { size: SMALL, ...(await r.open(SMALL)) },
        { size: LARGE, ...(await r.open(LARGE)) },
      ];
      for (const o of opened) {
        await expectFits(o.page, `idle ${label(o.size)}`);
        expect((await fullText(o.page, '[data-testid=site-name]')) === SITE, 'the whole site name is in the page').toBe(
          true,
        );
        await expectShortened(o.page, '[data-testid=site-name]', 1, o.size);
      }

      await wedgeBurst(opened[0]!.page, '1001');
      for (const o of opened)
        await o.page.waitForSelector(
          '[data-testid=result][data-ok="true"][data-receipt="true"] [data-testid=receipt-qr]',
          { timeout: 15_000 },
        );
      const nsr = (await fullText(opened[0]!.page, '[data-testid=receipt-nsr]')).trim();
      const receipt = r.agent.receipt(Number(nsr));
      if (!receipt) throw new Error(`no receipt for NSR ${nsr}`);
      for (const o of opened) {
        const p = o.page;
        expect(await p.getAttribute('[data-testid=result]', 'data-direction')).toBe('exit');
        expect(await fullText(p, '.result-date'), 'the pinned date, the widest there is').toBe(
          'segunda-feira, 22 de novembro',
        );
        expect((await fullText(p, '[data-testid=result-name]')) === ANA, 'the whole name is in the page').toBe(true);
        // Inside a sentence, the type is cut (its first 39 characters and "…") so the sentence's end stays in sight.
        expect(await fullText(p, '[data-testid=day-leave]')).toBe(
          `Você tem um afastamento hoje (${LEAVE.slice(0, 39)}…); o registro foi feito.`,
        );
        expect((await fullText(p, '[data-testid=receipt-employee]')) === ANA).toBe(true);
        expect(await fullText(p, '[data-testid=receipt-employer]')).toBe(EMPLOYER);
        await expectShortened(p, '[data-testid=result-name]', 2, o.size);
        await expectShortened(p, '[data-testid=day-leave] .day-leave-text', 3, o.size);
        await expectShortened(p, '[data-testid=receipt-employee]', 2, o.size);
        await expectShortened(p, '[data-testid=receipt-employer]', 2, o.size);
        await expectFits(p, `result ${label(o.size)}`);
        const png = await p.screenshot({ path: screenshotPath(`long-result-${label(o.size)}`) });
        expect(decodePng(png)).toBe(receipt.qrText ?? receipt.text); // with a portal: the link (issue 26)
        expect(o.problems).toEqual([]);
      }
      expect(receipt.text).toContain(`Trabalhador: ${ANA.slice(0, 119)}…`);
    },
  );

  it(
    'the admin screen at 800×480 and 1920×1080: the receipt lookup, the waiting and held lists and the employee search stay in shape; a tap shows the whole name',
    { timeout: 180_000 },
    async () => {
      const r = await rigs.start({ variants: { longStrings: LONG, forbiddenPunches: ['1003'] }, settings: SETTINGS });
      const first = await r.agent.punch({ kind: 'badge', value: '1001' });
      if (!first.ok || !first.nsr) throw new Error('first punch refused');
      // 1003: the service refuses it with a 10,000-character reason (held); 1002 waits with the API gone.
      expect((await r.agent.punch({ kind: 'badge', value: '1003' })).ok).toBe(true);
      await waitFor(
        () => r.agent.status().queue.sent === 1 && r.agent.status().queue.held === 1,
        'one delivered, one held',
        30_000,
      );
      await r.stopMock();
      expect((await r.agent.punch({ kind: 'badge', value: '1002' })).ok).toBe(true);
      await waitFor(
        () => r.agent.afd.punches.waiting().punches.some((p) => p.lastError !== null && p.state !== 'held'),
        'the waiting punch tried once',
        30_000,
      );

      for (const size of [SMALL, LARGE]) {
        const { page, problems } = await r.open(size);
        await openAdmin(page, 'queue');
        await page.locator('[data-testid=waiting-row]').first().waitFor();
        await page.locator('[data-testid=held-row]').first().waitFor();
        for (const sel of ['[data-testid=waiting-row]', '[data-testid=held-row]']) {
          const rows = page.locator(sel);
          for (let i = 0; i < (await rows.count()); i++) {
            const b = await rows.nth(i).boundingBox();
            expect(
              b && b.x >= 0 && b.x + b.width <= size.width + 0.5 && b.height <= size.height / 2,
              `${sel} ${i} ${JSON.stringify(b)} in shape at ${label(size)}`,
            ).toBe(true);
          }
        }
        // The employee's id stays readable beside a shortened name.
        const ids = await page.locator('[data-testid=waiting-row] .wr-id').allTextContents();
        expect(ids.sort()).toEqual([' (1002)', ' (1003)']);
        for (const id of await page.locator('[data-testid=waiting-row] .wr-id').all()) {
          const b = await id.boundingBox();
          expect(b && b.width > 0 && b.x + b.width <= size.width, `the id ${JSON.stringify(b)} on screen`).toBe(true);
        }
        await page.locator('[data-testid=held-row]').first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`long-admin-held-${label(size)}`) });
        await page.locator('[data-testid=waiting-row]').first().scrollIntoViewIfNeeded();
        await page.screenshot({ path: screenshotPath(`long-admin-waiting-${label(size)}`) });

        await page.click('[data-testid=tab-punches]');
        await page.fill('[data-testid=punches-query]', '1001');
        await page.click('[data-testid=punches-search]');
        await page.waitForSelector('[data-testid=found-punch]');
        await expectShortened(page, '[data-testid=punches-employees]', 2, size);
        const row = await page.locator('[data-testid=found-punch]').first().boundingBox();
        expect(
          row && row.x + row.width <= size.width + 0.5 && row.height <= size.height / 2,
          `found row ${JSON.stringify(row)}`,
        ).toBe(true);
        await page.screenshot({ path: screenshotPath(`long-admin-punches-${label(size)}`) });

        await page.click('[data-testid=tab-receipt]');
        await page.fill('[data-testid=receipt-nsr]', String(first.nsr));
        await page.click('[data-testid=receipt-lookup]');
        await page.waitForSelector('[data-testid=receipt] [data-testid=receipt-qr]');
        await expectShortened(page, '[data-testid=admin-message] .admin-message-text', 2, size);
        await expectShortened(page, '[data-testid=receipt-employee]', 2, size);
        const card = await page.locator('[data-testid=receipt]').boundingBox();
        expect(
          card && card.x >= 0 && card.x + card.width <= size.width + 0.5 && card.height <= size.height,
          `receipt card ${JSON.stringify(card)}`,
        ).toBe(true);
        // The manager (or an inspector) taps the name: the whole of it, scrolled inside the card.
        await page.click('[data-testid=receipt-employee]');
        await page.waitForSelector('[data-testid=receipt-employee][data-expanded="true"]');
        const open = await page.locator('[data-testid=receipt]').boundingBox();
        expect(
          open && open.x + open.width <= size.width + 0.5 && open.height <= size.height,
          `opened card ${JSON.stringify(open)}`,
        ).toBe(true);
        await page.screenshot({ path: screenshotPath(`long-admin-receipt-${label(size)}`) });
        expect(
          await page.evaluate(() => {
            const d = (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document;
            return d.documentElement.scrollWidth <= (globalThis as unknown as { innerWidth: number }).innerWidth;
          }),
        ).toBe(true);
        expect(problems).toEqual([]);
      }
    },
  );

  /** Real-looking names (words, spaces, accents) of exactly `length` characters (at most 121). */
  const longName = (length: number): string =>
    'Maria Aparecida da Conceição dos Santos Oliveira Ferreira de Albuquerque Cavalcanti Bezerra Nóbrega Vasconcelos Magalhães'.slice(
      0,
      length,
    );
  const NAMES = { '1001': longName(74), '1002': longName(90), '1003': longName(120) };

  // Issue 25, item 11: names of 74, 90 and 120 characters once pushed the headline 9, 50 and 110 px above an 800×480
  // screen.
  it.each(['pt-BR', 'es', 'en'] as const)(
    'names of 74, 90 and 120 characters (%s): headline, name and receipt on screen at 800×480 and 480×800, the name at most two lines',
    { timeout: 180_000 },
    async (language) => {
      const seed = demoSeed();
      for (const e of seed.employees)
        if (e.external_id && e.external_id in NAMES) e.full_name = NAMES[e.external_id as keyof typeof NAMES];
      const r = await rigs.start({
        seed,
        settings: SETTINGS,
        screen: { ...TEST_SCREEN, language, resultMs: 120_000, receiptMs: 120_000 },
      });
      const opened = [
        { size: SMALL, ...(await r.open(SMALL)) },
        { size: PORTRAIT, ...(await r.open(PORTRAIT)) },
      ];
      for (const [code, name] of Object.entries(NAMES)) {
        await wedgeBurst(opened[0]!.page, code);
        for (const o of opened)
          await o.page.waitForSelector(
            `[data-testid=result][data-ok="true"][data-receipt="true"] [data-testid=receipt-qr]`,
            { timeout: 15_000 },
          );
        // The receipt (the text its QR code carries) keeps the whole name: only the screen shortens it.
        const nsr = (await fullText(opened[0]!.page, '[data-testid=receipt-nsr]')).trim();
        const receipt = r.agent.receipt(Number(nsr));
        const receiptText = receipt?.text ?? '';
        expect(receiptText).toContain(`Trabalhador: ${name}\n`);
        for (const o of opened) {
          const p = o.page;
          const what = `${name.length}-character name, ${language}, ${label(o.size)}`;
          expect(
            (await fullText(p, '[data-testid=result-name]')) === name,
            `${what}: the whole name is in the page`,
          ).toBe(true);
          expect(
            (await fullText(p, '[data-testid=receipt-employee]')) === name,
            `${what}: the whole name on the receipt`,
          ).toBe(true);
          const headline = await p.locator('.result-headline').boundingBox();
          expect(
            headline && headline.y >= 0 && headline.y + headline.height <= o.size.height,
            `${what}: the headline ${JSON.stringify(headline)} on screen`,
          ).toBe(true);
          await expectShortened(p, '[data-testid=result-name]', 2, o.size);
          await expectFits(p, what);
          const png = await p.screenshot({
            path: screenshotPath(`long-name-${name.length}-${language}-${label(o.size)}`),
          });
          if (name.length === 120 && o.size === SMALL)
            // with a portal: the link (issue 26)
            expect(decodePng(png), `${what}: the QR code reads back`).toBe(receipt?.qrText ?? receiptText);
          expect(o.problems).toEqual([]);
        }
        // A tap closes the result on each screen: the next name starts from the idle screen.
        for (const o of opened) {
          await o.page.click('[data-testid=result]');
          await o.page.waitForSelector('body[data-screen="idle"]');
        }
      }
    },
  );
});
