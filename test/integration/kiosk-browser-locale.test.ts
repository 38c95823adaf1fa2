/**
 * The kiosk browser in the site's language, with Debian's real Chromium (and chromium-l10n, which
 * .ci/run installs): started with the environment `timeclock start --browser` gives it, the page's
 * `navigator.language` and its date format are the screen language's, whatever the box's locale.
 * This is what the admin panels' date fields (Punches, CSV and AFD exports) are drawn in.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kioskBrowserEnv } from '../../src/cli/terminal/browser.js';
import type { Lang } from '../../src/messages/lang.js';
import { CHROMIUM_PATH } from '../helpers/kiosk-browser.js';
import { tempDir } from '../helpers/temp.js';

const t = tempDir();
afterAll(() => t.cleanup());
const page = path.join(t.dir, 'locale.html');
fs.writeFileSync(
  page,
  '<html><body><script>document.body.textContent = navigator.language + " " + new Intl.DateTimeFormat().format(new Date(2026, 10, 3));</script></body></html>',
);

/**
 * What the page says in a headless Chromium started with `env`, on a box set up in US English, with
 * a new profile (a profile keeps the languages it first ran with for navigator.language).
 */
function pageSays(env: NodeJS.ProcessEnv, profile: string): string {
  try {
    return pageSaysOnce(env, profile);
  } catch (e) {
    // A headless Chromium that dies at start on a busy box (seen once in a full run) is started
    // again, as `timeclock start --browser` restarts its browser; a second failure says why.
    console.warn(`kiosk-browser-locale: ${(e as Error).message}; starting Chromium again`);
    return pageSaysOnce(env, `${profile}-again`);
  }
}

function pageSaysOnce(env: NodeJS.ProcessEnv, profile: string): string {
  const run = spawnSync(
    CHROMIUM_PATH,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      `--user-data-dir=${path.join(t.dir, profile)}`,
      '--dump-dom',
      `file://${page}`,
    ],
    {
      env: { ...env, LANG: 'en_US.UTF-8', HOME: t.dir },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    },
  );
  const dom = run.stdout ?? '';
  const says = /<body>([^<]*)<\/body>/.exec(dom)?.[1]?.trim();
  if (says === undefined)
    throw new Error(
      `Chromium exited ${run.status ?? run.signal} without the page: ${run.error?.message ?? ''}\n${(run.stderr ?? '').split('\n').slice(-15).join('\n')}`,
    );
  return says;
}

describe('the kiosk browser’s locale', () => {
  it.each<[Lang, string]>([
    ['pt-BR', 'pt-BR 03/11/2026'],
    ['es', 'es-ES 3/11/2026'],
    ['en', 'en-US 11/3/2026'],
  ])('%s: the page speaks it and writes the 3rd of November as %s', (language, says) => {
    expect(
      pageSays(
        kioskBrowserEnv({ PATH: process.env.PATH ?? '', TIMECLOCK_API_TOKEN: 'secret' }, language),
        `profile-${language}`,
      ),
    ).toBe(says);
  });

  it('keeps the API token out of the browser’s environment', () => {
    expect(kioskBrowserEnv({ TIMECLOCK_API_TOKEN: 'secret', KEEP: 'x' }, 'pt-BR')).toEqual({
      KEEP: 'x',
      LANGUAGE: 'pt_BR',
    });
  });
});
