/**
 * Issue 31 end to end: Chromium with a fake camera (--use-fake-device-for-media-stream) playing a
 * video file made here (left half white, right half black), on the web bridge of a real agent. The
 * idle screen says photos are taken; a keypad punch is answered and its photo taken from the open
 * camera, stored 0600 by NSR, sealed (journal verify whole); the manager sees it beside the punch
 * (Punches tab, the held list) and on the receipt view, the very image the camera gave. With no camera at all the
 * punch is still registered, "sem foto", and the admin screen says the camera is out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { kioskBrowserEnv } from '../../src/cli/terminal/browser.js';
import type { ScreenSettings } from '../../src/contract.js';
import type { ServerVariants } from '../../src/mock/mock-server.js';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  screenshotPath,
  startKioskRig,
  TEST_SCREEN,
  type KioskRig,
} from '../helpers/kiosk-browser.js';
import { openAdmin, pressKeys, waitScreen } from '../helpers/screen-actions.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const SMALL = { width: 800, height: 480 };
const PHOTO_SCREEN: ScreenSettings = {
  ...TEST_SCREEN,
  photo: { width: 320, height: 240, maxBytes: 30_000, keepDays: 30 },
};
const W = 320;
const H = 240;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});
const browsers: Browser[] = [];
afterAll(async () => {
  for (const b of browsers) await b.close();
});

/** A Y4M video (4:2:0): every frame left half white, right half black. */
function writeY4m(file: string): void {
  const y = Buffer.alloc(W * H);
  for (let row = 0; row < H; row++) y.fill(235, row * W, row * W + W / 2).fill(16, row * W + W / 2, row * W + W);
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]),
  );
}

/** Chromium as the kiosk runs it, with a camera (the fake device playing `video`) or none at all. */
async function launch(video: string | null): Promise<Browser> {
  const camera = video ? ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`] : [];
  // The permission prompt answered yes, as the kiosk's policy does (README "Photo per punch").
  const b = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', ...camera],
    env: kioskBrowserEnv(process.env, 'pt-BR'),
  });
  browsers.push(b);
  return b;
}

async function photoRig(browser: Browser, variants: ServerVariants = {}): Promise<KioskRig> {
  const rig = await startKioskRig({
    browser,
    settings: { photo: { mode: 'on-punch', keepDays: 30 } },
    screen: PHOTO_SCREEN,
    variants,
  });
  cleanups.push(() => rig.close());
  return rig;
}

async function keypadPunch(page: Page, id: string): Promise<void> {
  await page.click('[data-testid=open-keypad]');
  await waitScreen(page, 'keypad');
  await pressKeys(page, id);
  await page.click('[data-testid=key-ok]');
  await waitScreen(page, 'result');
}

/** Mean brightness of the left and right quarters of the image shown in `selector`, read back from a canvas. */
function halves(page: Page, selector: string): Promise<{ left: number; right: number; width: number; height: number }> {
  return page.$eval(selector, (img) => {
    // Browser types written out (the Node build has no DOM library).
    type Ctx2d = {
      drawImage(i: unknown, x: number, y: number): void;
      getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
    };
    type Doc = { createElement(tag: 'canvas'): { width: number; height: number; getContext(kind: '2d'): Ctx2d } };
    const i = img as unknown as { naturalWidth: number; naturalHeight: number };
    const c = (globalThis as unknown as { document: Doc }).document.createElement('canvas');
    c.width = i.naturalWidth;
    c.height = i.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(i, 0, 0);
    const mean = (x0: number): number => {
      const d = g.getImageData(x0, 0, Math.floor(c.width / 4), c.height).data;
      let s = 0;
      for (let k = 0; k < d.length; k += 4) s += ((d[k] as number) + (d[k + 1] as number) + (d[k + 2] as number)) / 3;
      return s / (d.length / 4);
    };
    return { left: mean(0), right: mean(Math.floor((c.width * 3) / 4)), width: c.width, height: c.height };
  });
}

describe('a photo per punch in Chromium with a fake camera', () => {
  it('takes the camera’s frame at a keypad punch, keeps it sealed, and shows it to the manager beside the punch and on the receipt', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const video = path.join(t.dir, 'half-white.y4m');
    writeY4m(video);
    // 1003's punches the service refuses (403): held for the manager, who sees its photo there.
    const r = await photoRig(await launch(video), { forbiddenPunches: ['1003'] });
    const { page, problems } = await r.open(SMALL);
    expect((await page.textContent('[data-testid=photo-notice]'))?.trim()).toBe(
      'Uma foto é tirada a cada registro de ponto para confirmar quem registrou. Ela fica só neste terminal, por 30 dias.',
    );
    await waitFor(() => r.agent.status().camera?.ok === true, 'the screen opened its camera');

    await keypadPunch(page, '1001');
    expect(await page.getAttribute('[data-testid=result]', 'data-ok')).toBe('true');
    const desk = r.agent.photos;
    if (!desk) throw new Error('no photo desk');
    await waitFor(() => desk.files.list().length === 1, 'the photo stored');
    const nsr = desk.files.list()[0] as number;
    const file = desk.files.fileOf(nsr);
    const bytes = fs.readFileSync(file);
    expect(path.basename(file)).toBe(`${String(nsr).padStart(9, '0')}.jpg`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(bytes.length).toBeLessThan(30_000);
    expect((await r.agent.verifyJournal())?.ok).toBe(true);
    await page.click('[data-testid=result]');
    await waitScreen(page, 'idle');
    await keypadPunch(page, '1003');
    await waitFor(
      () => desk.files.list().length === 2 && r.agent.status().queue.held === 1,
      'the second photo stored and its punch held',
    );

    // The manager: the held list shows the photo beside the held punch, to help the decision.
    await page.click('[data-testid=result]');
    await waitScreen(page, 'idle');
    await openAdmin(page, 'queue');
    await page.waitForSelector('[data-testid=held-row] [data-testid=punch-photo][data-state=photo] img');

    // The Punches tab shows it beside the punch, the very image the camera gave.
    await page.click('[data-testid=tab-punches]');
    await page.fill('[data-testid=punches-query]', '1001');
    await page.click('[data-testid=punches-search]');
    await page.waitForSelector('[data-testid=found-punch] [data-testid=punch-photo][data-state=photo] img');
    const seen = await halves(page, '[data-testid=found-punch] [data-testid=punch-photo] img');
    expect(seen).toMatchObject({ width: 320, height: 240 });
    expect(seen.left).toBeGreaterThan(180);
    expect(seen.right).toBeLessThan(70);
    await page.screenshot({ path: screenshotPath('admin-punches-photo-800x480') });

    await page.click('[data-testid=tab-receipt]');
    await page.fill('[data-testid=receipt-nsr]', String(nsr));
    await page.click('[data-testid=receipt-lookup]');
    await page.waitForSelector('[data-testid=receipt-found] [data-testid=punch-photo][data-state=photo] img');
    expect(problems).toEqual([]);
  });

  it('with no camera the punch is registered “sem foto” and the admin screen says the camera is out', async () => {
    const r = await photoRig(await launch(null));
    const { page } = await r.open(SMALL);
    await waitFor(
      () => r.agent.status().camera?.ok === false && r.agent.status().camera?.problem !== null,
      'the screen reported its camera out',
    );
    expect(r.agent.status().camera?.problem).toBe('missing');

    await keypadPunch(page, '1002');
    expect(await page.getAttribute('[data-testid=result]', 'data-ok')).toBe('true');
    await waitFor(() => (r.agent.status().camera?.missedPunches ?? 0) === 1, 'the punch marked sem foto');
    const punch = r.agent.afd.punches.find({ employee: '1002' }).punches[0];
    expect(punch?.nsr).toEqual(expect.any(Number));
    expect(r.agent.photos?.view(punch?.nsr as number)).toEqual({ state: 'missing', jpeg: null });
    await waitFor(() => r.agent.status().queue.sent === 1, 'the punch delivered all the same');
    expect((await r.agent.verifyJournal())?.ok).toBe(true);

    await page.click('[data-testid=result]');
    await waitScreen(page, 'idle');
    await openAdmin(page, 'readers');
    await page.waitForSelector('[data-testid=camera][data-ok=false]');
    expect((await page.textContent('[data-testid=camera]'))?.trim()).toBe(
      'Câmeraindisponível (nenhuma câmera encontrada): os registros ficam sem foto',
    );
    await page.click('[data-testid=tab-queue]');
    await page.click('[data-testid=tab-punches]');
    await page.fill('[data-testid=punches-query]', '1002');
    await page.click('[data-testid=punches-search]');
    await page.waitForSelector('[data-testid=found-punch] [data-testid=punch-photo][data-state=missing]');
    expect((await page.textContent('[data-testid=found-punch] [data-testid=punch-photo]'))?.trim()).toBe(
      'sem foto (câmera indisponível)',
    );
  });
});
