/**
 * What the e2e tests of delivery on the kiosk screen share: the small screen, reading a text, a punch, the page's
 * script problems.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { wedgeBurst } from './kiosk-browser.js';
import { dismissResult, pressKeys, waitScreen } from './screen-actions.js';

export const SMALL = { width: 800, height: 480 };

export const text = async (page: Page, selector: string) => ((await page.textContent(selector)) ?? '').trim();

/** An employee punches (badge burst or keypad) and sees the punch registered. */
export async function punch(page: Page, id: string, how: 'badge' | 'keypad' = 'badge'): Promise<void> {
  if (how === 'badge') await wedgeBurst(page, id);
  else {
    await page.click('[data-testid=open-keypad]');
    await waitScreen(page, 'keypad');
    await pressKeys(page, id);
    await page.click('[data-testid=key-ok]');
  }
  await waitScreen(page, 'result');
  expect(await page.getAttribute('[data-testid=result]', 'data-ok')).toBe('true');
  await dismissResult(page);
}

/** Script errors and CSP violations; a missing favicon and the like are not the page's fault. */
export function scriptProblems(problems: string[]): string[] {
  return problems.filter((p) => /Content Security Policy|Uncaught|TypeError|ReferenceError|SyntaxError/i.test(p));
}
