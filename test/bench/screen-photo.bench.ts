/**
 * Issue 31: the screen bench's path (wedge burst Enter → employee name painted, page clock; see
 * screen.bench.ts) with photo.mode on-punch against off, interleaved round by round: two terminals
 * side by side (each its own mock, agent, web bridge and Chromium), the one with photos on in a
 * Chromium with a fake camera (--use-fake-device-for-media-stream). The goal: p95 with photos within
 * 1.1× of without (the punch's answer never waits for the photo). Every photo is counted afterwards.
 */
import { chromium, type Browser } from 'playwright-core';
import { DEFAULT_SCREEN_SETTINGS } from '../../src/agent/bridge-handlers.js';
import { kioskBrowserEnv } from '../../src/cli/terminal/browser.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startKioskRig, wedgeBurst, type KioskRig } from '../helpers/kiosk-browser.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { percentile, ratio, type Result } from './report.js';
import { armNameWatch } from './screen.bench.js';

const ROUNDS = 120;
const WARMUP = 5;
const GOAL = 1.1;
/**
 * A round that shows no name in this long failed (a burst the detector took as typing on a box too busy): counted, not
 * waited for.
 */
const ROUND_LIMIT_MS = 15_000;
/**
 * The detector's gap raised from 30 ms to 100 ms on both sides alike (as the e2e tests do): on a
 * machine shared with other work the keys of a burst arrive further apart (the hold must be at least the gap: 100 ms).
 */
const SCREEN = {
  ...DEFAULT_SCREEN_SETTINGS,
  wedge: { ...DEFAULT_SCREEN_SETTINGS.wedge, maxInterKeyMs: 100, holdMs: 100 },
};

type Side = { rig: KioskRig; page: Awaited<ReturnType<KioskRig['open']>>['page']; ms: number[]; failed: number };

export async function benchScreenPhoto(): Promise<Result> {
  const seed = generatedSeed({ employees: ROUNDS + WARMUP + 5, sites: 1 });
  const siteId = seed.sites[0]?._id;
  const browsers: Browser[] = [];
  const rigs: KioskRig[] = [];
  try {
    const launch = async (camera: boolean): Promise<Browser> => {
      const extra = camera ? ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] : [];
      const b = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [...CHROMIUM_ARGS, ...extra],
        env: kioskBrowserEnv(process.env, 'pt-BR'),
      });
      browsers.push(b);
      return b;
    };
    const side = async (photos: boolean): Promise<Side> => {
      const rig = await startKioskRig({
        seed,
        browser: await launch(photos),
        ...(siteId ? { siteId } : {}),
        ...(photos ? { settings: { photo: { mode: 'on-punch' } } } : {}),
        screen: photos ? { ...SCREEN, photo: { width: 320, height: 240, maxBytes: 30_000, keepDays: 30 } } : SCREEN,
      });
      rigs.push(rig);
      const { page } = await rig.open({ width: 800, height: 480 });
      return { rig, page, ms: [], failed: 0 };
    };
    const off = await side(false);
    const on = await side(true);
    const opened = Date.now();
    while (on.rig.agent.status().camera?.ok !== true) {
      if (Date.now() - opened > 15_000) throw new Error('the screen with photos on did not open its fake camera');
      await new Promise((r) => setTimeout(r, 50));
    }
    for (let i = 0; i < ROUNDS + WARMUP; i++) {
      const emp = seed.employees[i];
      if (!emp?.external_id) throw new Error('seed without external ids');
      // Alternate which side goes first, so neither always follows the other's background work.
      for (const s of i % 2 === 0 ? [off, on] : [on, off]) {
        await armNameWatch(s.page, emp.full_name);
        await wedgeBurst(s.page, emp.external_id, 4);
        const ms = await s.page.evaluate(
          (limit) =>
            Promise.race([
              (globalThis as unknown as PageGlobals).__benchWait ?? Promise.reject(new Error('not armed')),
              new Promise<number>((resolve) => setTimeout(() => resolve(-1), limit)),
            ]),
          ROUND_LIMIT_MS,
        );
        if (ms < 0) {
          s.failed++;
          await s.page.keyboard.press('Escape');
          await s.page.reload();
          await s.page.waitForSelector('body[data-screen="idle"]');
          continue;
        }
        if (i >= WARMUP) s.ms.push(ms);
        await s.page.click('[data-testid=result]');
        await s.page.waitForSelector('body[data-screen="idle"]');
      }
    }
    const desk = on.rig.agent.photos;
    const settledBy = Date.now() + 10_000;
    while ((desk?.files.list().length ?? 0) < ROUNDS + WARMUP && Date.now() < settledBy)
      await new Promise((r) => setTimeout(r, 50));
    const stored = desk?.files.list().length ?? 0;
    for (const s of [off, on]) s.ms.sort((a, b) => a - b);
    const row = (label: string, ms: number[]) =>
      [label, percentile(ms, 0.5), percentile(ms, 0.95), ms[ms.length - 1] ?? null] as (string | number | null)[];
    const p95Off = percentile(off.ms, 0.95);
    const p95On = percentile(on.ms, 0.95);
    const r95 = p95Off > 0 ? p95On / p95Off : Number.POSITIVE_INFINITY;
    return {
      name: 'screen-photo',
      title: `Wedge burst (Enter) → name on screen with photo.mode on-punch vs off, Chromium ${on.rig.browser.version()}, ${ROUNDS} rounds each after ${WARMUP} warm-up, interleaved`,
      tables: [
        {
          title: 'milliseconds (page clock)',
          columns: ['path', 'p50', 'p95', 'max'],
          rows: [
            row('photos off', off.ms),
            row('photos on (fake camera, 320×240 JPEG)', on.ms),
            ['ratio on / off', ratio(percentile(on.ms, 0.5), percentile(off.ms, 0.5)), ratio(p95On, p95Off), null],
          ],
        },
      ],
      targets: [
        {
          what: 'p95 with photos / p95 without',
          value: Math.round(r95 * 100) / 100,
          target: `≤ ${GOAL}`,
          met: r95 <= GOAL,
        },
      ],
      notes: [
        `photos stored for the ${ROUNDS + WARMUP} punches with photos on: ${stored}; rounds without a name in ${ROUND_LIMIT_MS / 1000} s (not counted): off ${off.failed}, on ${on.failed}`,
        'Wedge detector gap and hold 100 ms on both sides (the tests’ margin for a busy machine; the default is 30 and 40 ms).',
        'Each side is its own terminal (mock, agent, SQLite, web bridge, Chromium) on the same machine.',
      ],
      raw: { offMs: off.ms, onMs: on.ms, stored, failed: { off: off.failed, on: on.failed } },
    };
  } finally {
    for (const r of rigs) await r.close();
    for (const b of browsers) await b.close();
  }
}
