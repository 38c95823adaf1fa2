/**
 * axe-core on a kiosk page: its source is evaluated into the page by the test (through DevTools, so
 * the page's CSP, which allows no inline script, is untouched and nothing of it ships in the
 * renderer), then `axe.run` checks the whole document as it is drawn at that moment.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe found broken, with where: "color-contrast (serious) .result-hint: 3.53:1 ...". */
export type AxeViolation = { id: string; impact: string; help: string; nodes: string[] };

type AxeNode = { target: unknown[]; failureSummary?: string };
type AxeGlobals = {
  axe?: {
    run(
      context: unknown,
      options: Record<string, unknown>,
    ): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: AxeNode[] }> }>;
  };
  document: unknown;
};

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => (globalThis as unknown as AxeGlobals).axe !== undefined);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const g = globalThis as unknown as AxeGlobals;
    if (!g.axe) throw new Error('axe-core did not load into the page');
    const r = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      nodes: v.nodes.map(
        (n) => `${n.target.map(String).join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`,
      ),
    }));
  });
}

/** The one finding a kiosk keeps on purpose (README, Troubleshooting: "The screen cannot be zoomed"). */
export const DELIBERATE_AXE = new Set(['meta-viewport']);

/** axe-core's findings on the page as drawn now, but the deliberate one, as lines naming `state`. */
export async function axeFindings(page: Page, state: string): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => !DELIBERATE_AXE.has(v.id))
    .map((v) => `${state}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.join(' | ')}`);
}
