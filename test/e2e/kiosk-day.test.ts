/**
 * The employee's day on the real kiosk screen (Chromium, web bridge, real agent, the demo's mock):
 * after a first punch the agent fetches the day in the background, so the next punch (in another
 * minute) says "Saída registrada", lists both punches with the new one marked, and shows the hours
 * bank; 1033, on approved vacation, gets the neutral vacation note. In pt-BR, es and en, landscape
 * (800×480, 1920×1080) and portrait (800×1280, 1080×1920), and once in the light theme; nothing
 * leaves the screen in any of them. Screenshots: test-artifacts/screenshots/day-*.png.
 */
import type { Page } from 'playwright-core';
import { axeFindings } from '../helpers/axe.js';
import { expectFits } from '../helpers/screen-fit.js';
import { describe, expect, it } from 'vitest';
import { screenshotPath, startKioskRig, TEST_SCREEN, wedgeBurst, type KioskRig } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { waitScreen } from '../helpers/screen-actions.js';
import type { ScreenSettings } from '../../src/contract.js';

type Size = { width: number; height: number };
const SMALL: Size = { width: 800, height: 480 };
const LARGE: Size = { width: 1920, height: 1080 };
const PORTRAIT: Size = { width: 800, height: 1280 };
const TALL: Size = { width: 1080, height: 1920 };
const label = (s: Size) => `${s.width}x${s.height}`;

const rigs = kioskRigPerTest();
/** The demo's 1001 (src/mock/seed.ts): +12.50 hours in the bank. 1033 is on approved vacation. */
const ANA = 'Ana Paula Ferreira da Silva';

type Lang = ScreenSettings['language'];
/**
 * `bank`: the hours bank with when it was read, the day and month in the language's order (issue 29:
 * pt-BR "atualizado em 28/11 às 19:42"); `worked`: the exit's second line, the time worked so far;
 * `previous`: an entry's second line, the punch before it.
 */
const WORDS: Record<
  Lang,
  {
    entry: string;
    exit: string;
    bank: RegExp;
    vacation: string;
    elsewhere: string;
    worked: RegExp;
    previous: (time: string) => string;
  }
> = {
  'pt-BR': {
    entry: 'Entrada registrada',
    exit: 'Saída registrada',
    bank: /^Banco de horas: \+12h30 \(atualizado em (\d{2}\/\d{2}) às \d{2}:\d{2}\)$/,
    vacation: 'Você está de férias hoje; o registro foi feito.',
    elsewhere: 'registrado em outro lugar',
    worked: /^Trabalhado hoje: \d+h\d{2}$/,
    previous: (time) => `Registro anterior: saída às ${time}`,
  },
  es: {
    entry: 'Entrada registrada',
    exit: 'Salida registrada',
    bank: /^Banco de horas: \+12h30 \(actualizado el (\d{2}\/\d{2}) a las \d{2}:\d{2}\)$/,
    vacation: 'Hoy está de vacaciones; el registro se realizó.',
    elsewhere: 'registrado en otro lugar',
    worked: /^Trabajado hoy: \d+h\d{2}$/,
    previous: (time) => `Registro anterior: salida a las ${time}`,
  },
  en: {
    entry: 'Entry registered',
    exit: 'Exit registered',
    bank: /^Hours bank: \+12h30 \(updated (\d{2}\/\d{2}) at \d{2}:\d{2}\)$/,
    vacation: 'You are on vacation today; the punch was registered.',
    elsewhere: 'registered elsewhere',
    worked: /^Worked today: \d+h\d{2}$/,
    previous: (time) => `Previous punch: exit at ${time}`,
  },
};

/** Font sizes in px of the clock (idle) or the result's time, and the largest other text on the screen. */
async function timeIsLargest(page: Page, timeSelector: string): Promise<void> {
  const sizes = await page.evaluate((sel) => {
    const g = globalThis as unknown as {
      document: { querySelector(s: string): unknown; querySelectorAll(s: string): ArrayLike<unknown> };
      getComputedStyle(e: unknown): { fontSize: string };
    };
    const time = parseFloat(g.getComputedStyle(g.document.querySelector(sel)).fontSize);
    let other = 0;
    const all = g.document.querySelectorAll('#app *');
    for (let i = 0; i < all.length; i++) {
      const el = all[i] as { matches(s: string): boolean; textContent: string | null; children: ArrayLike<unknown> };
      if (el.matches(sel) || el.children.length > 0 || !(el.textContent ?? '').trim() || el.matches('.result-icon'))
        continue;
      other = Math.max(other, parseFloat(g.getComputedStyle(el).fontSize));
    }
    return { time, other };
  }, timeSelector);
  expect(sizes.time, `${timeSelector} ${sizes.time}px vs ${sizes.other}px`).toBeGreaterThan(sizes.other);
}

async function waitFor(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answered = (r: KioskRig, path: string) =>
  r.mock.requests().filter((q) => q.method === 'GET' && q.path.endsWith(path) && q.status === 200).length;

/** A badge scan on the first page; every page shows the punch (the others through the punch event). */
async function punch(pages: Page[], code: string): Promise<void> {
  const first = pages[0];
  if (!first) throw new Error('no page');
  await wedgeBurst(first, code);
  for (const p of pages) await p.waitForSelector('[data-testid=result][data-ok="true"]', { timeout: 15_000 });
}

async function dismissAll(pages: Page[]): Promise<void> {
  for (const p of pages) {
    await p.click('[data-testid=result]');
    await waitScreen(p, 'idle');
  }
}

const text = async (page: Page, sel: string) => ((await page.textContent(sel)) ?? '').trim();

/** Local 'YYYY-MM-DD HH:MM' in São Paulo, `agoMs` ago (not before today's 00:00). */
function saoPaulo(agoMs: number): { date: string; time: string } {
  const fmt = (at: number) =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
  const [date = ''] = fmt(Date.now()).split(' ');
  const [earlierDate = '', earlier = ''] = fmt(Date.now() - agoMs).split(' ');
  return { date, time: earlierDate === date ? earlier : '00:00' };
}

/**
 * `elsewhere`: 1001 punched on another terminal half an hour ago (a record only the service has):
 * the second punch then shows three punches, the first with the "registered elsewhere" dot, and is
 * an entry again.
 */
type Setup = { lang: Lang; sizes: Size[]; extra?: Partial<ScreenSettings>; elsewhere?: boolean };
type Opened = Awaited<ReturnType<KioskRig['open']>> & { size: Size };
type Half = {
  setup: Setup;
  r: KioskRig;
  opened: Opened[];
  pages: Page[];
  firstTime: string;
  earlier: { date: string; time: string };
};

/**
 * A rig in `setup`'s language at its sizes: the idle screen checked, then each employee's first punch and the day
 * fetched.
 */
async function firstHalf(setup: Setup, rigsOpen: KioskRig[]): Promise<Half> {
  const { lang, sizes, extra = {}, elsewhere = false } = setup;
  const theme = extra.theme === 'light' ? '-light' : '';
  // Reads for the employee's day stand aside above a share of the rate window; the rig's start-up (roster, site) fills
  // a tenth of it.
  const r = await startKioskRig({
    browser: rigs.browser(),
    settings: { selfService: { maxShare: 0.5 } },
    screen: { ...TEST_SCREEN, language: lang, resultMs: 120_000, receiptMs: 120_000, ...extra },
  });
  rigsOpen.push(r);
  const earlier = saoPaulo(30 * 60_000);
  if (elsewhere) r.mock.addRecord({ employee: '1001', time: `${earlier.date}T${earlier.time}` });
  const opened: Opened[] = [];
  for (const s of sizes) opened.push({ size: s, ...(await r.open(s)) });
  const pages = opened.map((o) => o.page);
  for (const o of opened) {
    await expectFits(o.page, `idle ${label(o.size)}`);
    await timeIsLargest(o.page, '[data-testid=clock]');
    await o.page.screenshot({ path: screenshotPath(`day-idle-${lang}${theme}-${label(o.size)}`) });
  }

  // First punches: the agent then fetches both employees' days in the background.
  const timesheetsBefore = answered(r, '/timesheets');
  await punch(pages, '1001');
  const firstTime = await text(pages[0] as Page, '[data-testid=result-time]');
  expect(firstTime).toMatch(/^\d{2}:\d{2}$/);
  await dismissAll(pages);
  await punch(pages, '1033');
  await dismissAll(pages);
  await waitFor(
    () => answered(r, '/timesheets') >= timesheetsBefore + 2,
    `GET /timesheets answered for both (asked: ${r.mock
      .requests()
      .map((q) => `${q.method} ${q.path} ${q.status}`)
      .join(', ')})`,
  );
  await waitFor(() => answered(r, '/work-leaves') >= 1, 'GET /work-leaves answered');
  return { setup, r, opened, pages, firstTime, earlier };
}

/** Each employee's next punch (in a later minute): entry or exit, the day's punches, the bank, the vacation note. */
async function secondHalf(h: Half): Promise<void> {
  const { setup, r, opened, pages, firstTime, earlier } = h;
  const { lang, sizes, extra = {}, elsewhere = false } = setup;
  const theme = extra.theme === 'light' ? '-light' : '';
  void r;

  await punch(pages, '1001');
  for (const o of opened) {
    const p = o.page;
    const box = p.locator('[data-testid=result]');
    expect(await box.getAttribute('data-direction')).toBe(elsewhere ? 'entry' : 'exit');
    expect(await text(p, '.result-headline')).toBe(elsewhere ? WORDS[lang].entry : WORDS[lang].exit);
    expect(await text(p, '[data-testid=result-name]')).toBe(ANA);
    const all = p.locator('[data-testid=day-chip]');
    if (elsewhere) {
      expect(await all.count()).toBe(3);
      expect(await all.nth(0).textContent()).toContain(earlier.time);
      expect(await all.nth(0).getAttribute('data-service')).toBe('true');
      expect(await all.nth(0).getAttribute('aria-label')).toContain(WORDS[lang].elsewhere);
      expect(await text(p, '[data-testid=day-legend]')).toBe(WORDS[lang].elsewhere);
    } else {
      expect(await all.count()).toBe(2);
      expect(await p.locator('[data-testid=day-legend]').count()).toBe(0);
    }
    const chips = elsewhere ? p.locator('[data-testid=day-chip][data-service="false"]') : all;
    expect(await chips.nth(0).textContent()).toContain(firstTime);
    expect(await chips.nth(0).getAttribute('data-direction')).toBe(elsewhere ? 'exit' : 'entry');
    expect(await chips.nth(1).getAttribute('data-new')).toBe('true');
    expect(await chips.nth(1).getAttribute('data-direction')).toBe(elsewhere ? 'entry' : 'exit');
    const bank = await text(p, '[data-testid=day-bank]');
    expect(bank).toMatch(WORDS[lang].bank);
    // One date order per language (issue 29): the bank's day and month as the receipt beside it writes its date.
    const receiptDate = (await text(p, '[data-testid=receipt-when]')).slice(0, 5);
    expect(WORDS[lang].bank.exec(bank)?.[1], `${bank} beside the receipt's ${receiptDate}`).toBe(receiptDate);
    // The second line says something new, never the time again; the ✓ is there in every orientation.
    const time = await text(p, '[data-testid=result-time]');
    const second = await text(p, '[data-testid=result-message]');
    if (elsewhere) expect(second).toBe(WORDS[lang].previous(firstTime));
    else expect(second).toMatch(WORDS[lang].worked);
    expect(second).not.toContain(time);
    expect(await text(p, '.result-icon')).toBe('✓');
    expect(await p.locator('.result-icon').isVisible(), `✓ at ${label(o.size)}`).toBe(true);
    await expectFits(p, `result ${label(o.size)}`);
    await timeIsLargest(p, '[data-testid=result-time]');
    // One assertive live region on the page, telling the headline and the name.
    expect(await p.locator('[aria-live=assertive]').count()).toBe(1);
    await p.waitForFunction(
      (h) =>
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }
        ).document
          .getElementById('live-announcer')
          ?.textContent?.startsWith(h) === true,
      elsewhere ? WORDS[lang].entry : WORDS[lang].exit,
    );
    expect(await text(p, '#live-announcer')).toContain(ANA);
    // Spoken only when the screen settings ask for it: the first name and the headline.
    const said = await p.evaluate(
      () =>
        (globalThis as unknown as { document: { body: { dataset: Record<string, string | undefined> } } }).document.body
          .dataset['lastSpeech'] ?? null,
    );
    expect(said).toBe(extra.speech ? `Ana, ${(elsewhere ? WORDS[lang].entry : WORDS[lang].exit).toLowerCase()}` : null);
    await p.screenshot({ path: screenshotPath(`day-result-${lang}${theme}-${label(o.size)}`) });
  }
  await dismissAll(pages);

  await punch(pages, '1033');
  for (const o of opened) {
    const p = o.page;
    expect(await text(p, '[data-testid=day-leave]')).toBe(WORDS[lang].vacation);
    expect(await p.locator('[data-testid=result]').getAttribute('data-tone')).toBe('ok');
    await expectFits(p, `vacation ${label(o.size)}`);
    await p.screenshot({ path: screenshotPath(`day-vacation-${lang}${theme}-${label(o.size)}`) });
    // The day's screens in each language pass axe-core too (issue 29: kiosk-accessibility.test.ts has the rest).
    expect(await axeFindings(p, `vacation ${lang}${theme} ${label(o.size)}`)).toEqual([]);
  }
  if (extra.theme === 'light') {
    // The keypad wears the light palette too (its layout is the keypad's own tests' business).
    const first = pages[0] as Page;
    await first.click('[data-testid=result]');
    await first.click('[data-testid=open-keypad]');
    await waitScreen(first, 'keypad');
    await first.screenshot({ path: screenshotPath(`day-keypad-pt-BR-light-${label(sizes[0] as Size)}`) });
    expect(
      await pages[0]?.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }).document
            .documentElement.dataset['theme'],
      ),
    ).toBe('light');
  }
  for (const o of opened) expect(o.problems, `page errors ${label(o.size)}`).toEqual([]);
}

const SETUPS: Setup[] = [
  { lang: 'pt-BR', sizes: [SMALL, LARGE, PORTRAIT, TALL] },
  { lang: 'es', sizes: [SMALL, LARGE, PORTRAIT] },
  // Said aloud (speech on).
  { lang: 'en', sizes: [SMALL, LARGE, PORTRAIT], extra: { speech: true } },
  // With a punch from another terminal: marked "registered elsewhere".
  { lang: 'pt-BR', sizes: [SMALL, PORTRAIT], extra: { theme: 'light' }, elsewhere: true },
];

describe('the employee’s day on the result screen', () => {
  // One test for the four set-ups: the next punch must wait for a later minute (the same one is a
  // repeat), and this way the file waits for it once, not once per language.
  it(
    'exit after entry, both punches, the hours bank, the vacation note: pt-BR, es (and en said aloud) in landscape and portrait, and the light theme with a punch from elsewhere',
    { timeout: 420_000 },
    async () => {
      const open: KioskRig[] = [];
      try {
        const halves: Half[] = [];
        for (const setup of SETUPS) halves.push(await firstHalf(setup, open));
        const last = (halves[halves.length - 1] as Half).firstTime;
        await waitFor(() => new Date().toISOString().slice(14, 16) !== last.slice(3, 5), 'the next minute', 65_000);
        await new Promise((res) => setTimeout(res, 300));
        for (const h of halves) await secondHalf(h);
      } finally {
        for (const r of open) await r.close();
      }
    },
  );
});
