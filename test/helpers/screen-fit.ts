/** What the kiosk screen's e2e tests check of a whole screen: it fits. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

type Box = { x: number; y: number; width: number; height: number };

type FitGlobals = {
  document: {
    querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Box; className: unknown; tagName: string }>;
    documentElement: { scrollWidth: number; scrollHeight: number };
  };
  innerWidth: number;
  innerHeight: number;
};

/** Every drawn element under `root` inside the viewport, and the page does not scroll. */
export async function expectFits(page: Page, what: string, root = '#app'): Promise<void> {
  const out = await page.evaluate((sel) => {
    const w = globalThis as unknown as FitGlobals;
    const bad: string[] = [];
    const all = w.document.querySelectorAll(`${sel} *`);
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      if (!el) continue;
      const b = el.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w.innerWidth + 0.5 || b.y + b.height > w.innerHeight + 0.5)
        bad.push(`${el.tagName}.${String(el.className)} ${JSON.stringify(b)}`);
    }
    if (
      w.document.documentElement.scrollWidth > w.innerWidth ||
      w.document.documentElement.scrollHeight > w.innerHeight
    )
      bad.push('the page scrolls');
    return bad;
  }, root);
  expect(out, `${what}: outside the screen`).toEqual([]);
}
