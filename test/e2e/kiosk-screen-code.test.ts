/**
 * The screen opened the way `timeclock start --browser` opens it (issue 25): Debian's Chromium on
 * `/?c=<one-time code>`, never the page token. The page trades the code once for the token (then
 * the code is refused), works (a punch, the admin panel), and the manager's admin session is an
 * HttpOnly cookie the page's script cannot read.
 */
import { describe, expect, it } from 'vitest';
import { SCREEN_CODE_PATH } from '../../src/contract.js';
import type { PageGlobals } from '../helpers/page-globals.js';
import { wedgeBurst } from '../helpers/kiosk-browser.js';
import { kioskRigPerTest } from '../helpers/kiosk-rig-per-test.js';
import { openAdmin, waitScreen } from '../helpers/screen-actions.js';

const rigs = kioskRigPerTest();

describe('the kiosk screen opened with a one-time code (Chromium, web bridge)', () => {
  it('trades the code for the token at first load, once; the page punches and opens admin; the admin cookie is HttpOnly', async () => {
    const r = await rigs.start();
    const url = r.bridge.urlWithCode();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?c=[0-9a-f]{32}$/);
    expect(url).not.toContain(r.bridge.token);
    const context = await r.browser.newContext({
      viewport: { width: 800, height: 480 },
      locale: 'pt-BR',
      timezoneId: 'America/Sao_Paulo',
    });
    const page = await context.newPage();
    await page.goto(url);
    await waitScreen(page, 'idle', 15_000);
    // The code is out of the address bar, and spent: a second use is refused.
    expect(page.url()).toBe(r.bridge.address);
    const code = new URL(url).searchParams.get('c') ?? '';
    const again = await fetch(`${r.bridge.origin}${SCREEN_CODE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(again.status).toBe(403);

    // The page holds the token: a badge punches.
    await wedgeBurst(page, '1001');
    await waitScreen(page, 'result');
    expect(await page.textContent('body')).toContain('Ana Paula');

    // The manager's login: a cookie the browser keeps and the page's script cannot read.
    await page.reload();
    await waitScreen(page, 'idle', 15_000); // a reload keeps working: the tab kept its token, not the spent code
    await openAdmin(page, 'queue');
    const cookies = await context.cookies(r.bridge.origin);
    expect(cookies).toEqual([
      expect.objectContaining({
        name: 'kiosk-admin',
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        domain: '127.0.0.1',
        expires: -1,
      }),
    ]);
    expect(
      await page.evaluate(
        () => (globalThis as unknown as PageGlobals & { document: { cookie: string } }).document.cookie,
      ),
    ).toBe('');
    await context.close();
  });
});
