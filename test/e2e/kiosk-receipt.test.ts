/**
 * The worker's receipt on the real kiosk screen (Chromium, web bridge, real agent and journal): it
 * appears beside the name and time after a punch, fits 800×480 and 1920×1080 without scrolling or
 * covering them, and its QR code, read back from a screenshot, is the whole receipt with the full
 * hash. A refusal shows none; the manager finds the same receipt by its NSR.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshotPath, wedgeBurst } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { decodePng } from '../helpers/qr-decode.js';
import { dismissResult, openAdmin, waitScreen } from '../helpers/screen-actions.js';
import { demoSeed } from '../../src/mock/seed.js';

const SMALL = { width: 800, height: 480 };
const LARGE = { width: 1920, height: 1080 };

/** The longest receipt a terminal shows: employer name and CNPJ, and the portal link in the QR code. */
const EMPLOYER = {
  terminalId: 'obra-centro-01',
  employer: { name: 'Construtora Exemplo Ltda', cnpj: '11.222.333/0001-81' },
  receipt: { portalUrl: 'https://portal.example.com.br/ponto' },
};

const rigs = kioskRigPerTest();

const text = async (page: Page, testid: string) => ((await page.textContent(`[data-testid=${testid}]`)) ?? '').trim();

type Box = { x: number; y: number; width: number; height: number };
async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not on screen`);
  return b;
}
const inside = (b: Box, size: { width: number; height: number }) =>
  b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width + 0.5 && b.y + b.height <= size.height + 0.5;
const apart = (a: Box, b: Box) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

type ScrollGlobals = {
  document: { documentElement: { scrollHeight: number; scrollWidth: number } };
  innerHeight: number;
  innerWidth: number;
};
const scrolls = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as ScrollGlobals;
    return (
      w.document.documentElement.scrollHeight > w.innerHeight || w.document.documentElement.scrollWidth > w.innerWidth
    );
  });

/** The receipt whole on screen, apart from the name and the time, nothing to scroll. */
async function expectFits(page: Page, size: { width: number; height: number }): Promise<void> {
  const receipt = await box(page, '[data-testid=receipt]');
  expect(inside(receipt, size), `receipt ${JSON.stringify(receipt)} inside ${size.width}×${size.height}`).toBe(true);
  for (const other of ['[data-testid=result-name]', '[data-testid=result-time]', '[data-testid=result-message]']) {
    const b = await box(page, other);
    expect(inside(b, size), `${other} inside the screen`).toBe(true);
    expect(apart(b, receipt), `${other} ${JSON.stringify(b)} clear of the receipt ${JSON.stringify(receipt)}`).toBe(
      true,
    );
  }
  expect(await scrolls(page)).toBe(false);
}

describe('the receipt on the result screen', () => {
  it('800×480, employer configured: every field beside the name, and the QR code read from a screenshot is the whole receipt', async () => {
    const r = await rigs.start({ settings: EMPLOYER });
    const { page, problems } = await r.open(SMALL);
    await wedgeBurst(page, '1001');
    await waitScreen(page, 'result');
    await page.waitForSelector('[data-testid=result][data-receipt="true"] [data-testid=receipt-qr]');
    expect(await text(page, 'result-name')).toBe('Ana Paula Ferreira da Silva');
    expect(await text(page, 'receipt-title')).toBe('Comprovante de registro');

    const nsr = await text(page, 'receipt-nsr');
    expect(nsr).toMatch(/^\d{9}$/);
    const receipt = r.agent.receipt(Number(nsr));
    if (!receipt) throw new Error(`the agent has no receipt for NSR ${nsr}`);
    const cpf = demoSeed().employees.find((e) => e.external_id === '1001')?.cpf ?? '';
    expect(await text(page, 'receipt-cpf')).toBe(`***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`);
    expect(await text(page, 'receipt-when')).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} UTC-03:00$/);
    expect(await text(page, 'receipt-when')).toContain(receipt.time);
    expect(await text(page, 'receipt-terminal')).toBe('obra-centro-01');
    expect(await text(page, 'receipt-employer')).toBe('Construtora Exemplo Ltda');
    expect(await text(page, 'receipt-employer-cnpj')).toBe('11.222.333/0001-81');
    expect(await text(page, 'receipt-hash')).toBe(`${receipt.hash.slice(0, 16)}…`);
    await expectFits(page, SMALL);

    const png = await page.screenshot({ path: screenshotPath('receipt-800x480') });
    const decoded = decodePng(png);
    // Issue 26: with a portal, the QR code is the link with the NSR and the whole hash (a small code); the text has the
    // portal too.
    expect(decoded).toBe(receipt.qrText);
    expect(decoded).toBe(`https://portal.example.com.br/ponto?nsr=${nsr}&sha256=${receipt.hash}`);
    expect(receipt.text).toContain(`NSR: ${nsr}`);
    expect(receipt.text).toContain('Portal: https://portal.example.com.br/ponto');
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });

  it('1920×1080: the same receipt, larger, and its QR code reads back from the screenshot', async () => {
    const r = await rigs.start({ settings: EMPLOYER });
    const { page } = await r.open(LARGE);
    await wedgeBurst(page, '1002');
    await waitScreen(page, 'result');
    await page.waitForSelector('[data-testid=receipt-qr]');
    expect(await text(page, 'result-name')).toBe('João Carlos de Oliveira');
    await expectFits(page, LARGE);
    const receipt = r.agent.receipt(Number(await text(page, 'receipt-nsr')));
    const png = await page.screenshot({ path: screenshotPath('receipt-1920x1080') });
    expect(decodePng(png)).toBe(receipt?.qrText);
    expect(receipt?.text).toContain('Trabalhador: João Carlos de Oliveira');
  });

  it('a refusal shows no receipt, and nothing breaks; the next punch shows its own', async () => {
    const r = await rigs.start();
    const { page, problems } = await r.open(SMALL);
    await wedgeBurst(page, '99999999');
    await waitScreen(page, 'result');
    expect(await page.getAttribute('[data-testid=result]', 'data-receipt')).toBe('false');
    expect(await page.locator('[data-testid=receipt]').count()).toBe(0);
    await dismissResult(page);
    // Issue 26: no employer configured, the worker's own as the service names it (read after the roster).
    await r.agent.employersRead();
    await wedgeBurst(page, '1003');
    await waitScreen(page, 'result');
    await page.waitForSelector('[data-testid=receipt-qr]');
    expect(await text(page, 'receipt-employer')).toBe('Construtora Exemplo Ltda');
    expect(await text(page, 'receipt-employer-cnpj')).toBe('11.222.333/0001-81');
    await expectFits(page, SMALL);
    expect(problems.filter((p) => /Content Security Policy|Uncaught|TypeError/i.test(p))).toEqual([]);
  });
});

describe('how long a result stays', () => {
  it('with a receipt, 12 s (a phone needs time to read the QR code); a refusal without one, the usual 4 s; a tap ends either (page clock stepped, not waited on)', async () => {
    const r = await rigs.start({ settings: EMPLOYER });
    const { page } = await r.open(SMALL);
    await page.clock.install();
    const screen = () => page.getAttribute('body', 'data-screen');

    await wedgeBurst(page, '1001');
    await waitScreen(page, 'result');
    await page.waitForSelector('[data-testid=receipt-qr]');
    await page.clock.runFor(6_000);
    expect(await screen()).toBe('result');
    await page.clock.runFor(6_500);
    await waitScreen(page, 'idle');

    await wedgeBurst(page, '99999999');
    await waitScreen(page, 'result');
    expect(await page.locator('[data-testid=receipt]').count()).toBe(0);
    await page.clock.runFor(4_500);
    await waitScreen(page, 'idle');

    await wedgeBurst(page, '1002');
    await waitScreen(page, 'result');
    await dismissResult(page);
  });
});

describe('the receipt on the admin screen', () => {
  it('the manager types an NSR and sees that punch’s receipt with its QR code; an unknown or invalid NSR is said so', async () => {
    const r = await rigs.start({ settings: EMPLOYER });
    const { page } = await r.open(SMALL);
    await wedgeBurst(page, '1004');
    await waitScreen(page, 'result');
    const nsr = await text(page, 'receipt-nsr');
    await dismissResult(page);

    await openAdmin(page, 'receipt');
    await page.fill('[data-testid=receipt-nsr]', String(Number(nsr)));
    await page.click('[data-testid=receipt-lookup]');
    await page.waitForSelector(`[data-testid=receipt][data-nsr="${nsr}"] [data-testid=receipt-qr]`);
    expect(await text(page, 'receipt-employee')).toBe('José Roberto Pereira');
    const png = await page.screenshot({ path: screenshotPath('admin-receipt-800x480') });
    expect(decodePng(png)).toBe(r.agent.receipt(Number(nsr))?.qrText);

    await page.fill('[data-testid=receipt-nsr]', '999999');
    await page.keyboard.press('Enter');
    await page.waitForSelector(
      '[data-testid=admin-message]:has-text("Nenhum registro com NSR 000999999 neste terminal.")',
    );
    expect(await page.locator('[data-testid=receipt]').count()).toBe(0);
    await page.fill('[data-testid=receipt-nsr]', '0');
    await page.click('[data-testid=receipt-lookup]');
    expect(await text(page, 'admin-message')).toBe('O NSR é um número inteiro de 1 a 999999999.');
  });
});
