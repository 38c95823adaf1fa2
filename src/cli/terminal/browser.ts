/**
 * `timeclock start --browser PATH`: the kiosk screen in a Chromium-family browser in kiosk mode,
 * started and kept running by the terminal itself. The agent's web bridge makes a new session
 * token at every start, so the browser must be started by whoever knows it: this process. It opens
 * the screen with a one-time code, traded for the token at the first load, so the token is never on
 * the browser's command line.
 *
 * The browser gets a profile of its own under the data directory (no first-run dialogs, no sync, no
 * background fetches on a closed site network), sound without a click (the beep follows a badge
 * scan), the site's screen language as its locale (LANGUAGE on Linux, where `--lang` is ignored;
 * Debian's Chromium needs chromium-l10n for any locale but en-US), and is started again if it exits
 * (a crash, or someone closing it) until the terminal stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Logger } from '../../log.js';
import { withoutSecrets } from '../../config.js';
import { chromiumLocale, type Lang } from '../../messages/lang.js';

/**
 * Flags for a browser that nobody sits in front of with a mouse. Chromium has no switch that turns
 * DevTools off (`--disable-dev-tools` is not one: Chromium ignores it); its policy
 * DeveloperToolsAvailability=2 does, with printing and guest profiles off too: the package ships
 * resources/system/chromium-policy.json for /etc/chromium/policies/managed/ (README, "Security").
 */
export function kioskBrowserArgs(url: string, profileDir: string, language: Lang): string[] {
  return [
    '--kiosk',
    `--lang=${chromiumLocale(language).tag}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--noerrdialogs',
    '--disable-translate',
    '--disable-sync',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-features=Translate,TouchpadOverscrollHistoryNavigation',
    '--overscroll-history-navigation=0',
    '--disable-pinch',
    '--autoplay-policy=no-user-gesture-required',
    url,
  ];
}

/** The browser's environment: ours without the secrets (its renderers inherit it), in the site's language. */
export function kioskBrowserEnv(env: NodeJS.ProcessEnv, language: Lang): NodeJS.ProcessEnv {
  return { ...withoutSecrets(env), LANGUAGE: chromiumLocale(language).posix };
}

export type KioskBrowser = { stop(): void };

/**
 * Starts `executable` on `url()` and restarts it when it exits, at most once every `restartMs`. A new
 * address for every start: it carries a one-time code, never the page token, since a command line
 * is readable by every user of the box (/proc/PID/cmdline).
 */
export function runKioskBrowser(
  executable: string,
  url: () => string,
  dataDir: string,
  language: Lang,
  log: Logger,
  say: (line: string) => void,
  restartMs = 3_000,
): KioskBrowser {
  const profile = path.join(dataDir, 'browser-profile');
  let child: ChildProcess | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const launch = (): void => {
    const startedAt = Date.now();
    // The URL (with its one-time code) goes to the browser only: never to a log.
    child = spawn(executable, kioskBrowserArgs(url(), profile, language), {
      stdio: 'ignore',
      env: kioskBrowserEnv(process.env, language),
    });
    child.once('error', (e) => {
      say(`cannot start the kiosk browser ${executable}: ${e.message}`);
      stopped = true;
    });
    child.once('exit', (code, signal) => {
      child = null;
      if (stopped) return;
      log.warn('kiosk browser exited; starting it again', { code, signal });
      timer = setTimeout(launch, Math.max(0, restartMs - (Date.now() - startedAt)));
    });
  };
  launch();

  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      child?.kill('SIGTERM');
    },
  };
}
