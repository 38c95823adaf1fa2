import fs from 'node:fs';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { PunchResult } from '../../domain/punch/punch.js';
import { punchJson, punchLine } from '../status/format.js';
import { startWebBridge, type WebBridge } from '../../web/web-bridge.js';
import { readTerminalKeys } from '../common/tty-keys.js';
import { runKioskBrowser, type KioskBrowser } from './browser.js';
import { Exit, type CliOptions } from '../common/options.js';
import { openAgent } from '../common/setup.js';
import { DEMO_ADMIN_PIN } from '../../agent/open-agent.js';
import { installProcessGuard, logProcessWarnings } from '../../agent/host/process-guard.js';
import { terminalIdOf, type LoadedConfig } from '../../config.js';
import { createConsole } from '../../log.js';
import { serviceNotifier, serviceStatusText } from '../../agent/status/service-notify.js';
import { publishScreenAddress } from '../../agent/host/screen-address.js';
import type { Say } from '../../log.js';
import { ConsolePinPrompt } from './console-pin-prompt.js';

/** The address for `timeclock screen-url`; a data directory that refuses the file costs only that command. */
function publishScreenAddressOrSay(dataDir: string, url: string, say: Say): (() => void) | null {
  try {
    return publishScreenAddress(dataDir, url);
  } catch (e) {
    say(`cannot keep the screen address for 'timeclock screen-url': ${(e as Error).message}`, 'warn');
    return null;
  }
}

/** Standard input is closed or a device that is not a terminal (/dev/null): nothing will be typed there. */
function noStandardInput(): boolean {
  try {
    const st = fs.fstatSync(0);
    return st.isCharacterDevice() && !process.stdin.isTTY;
  } catch {
    return true;
  }
}

/**
 * The headless kiosk: each line on standard input is a scanned or typed code, each result one
 * line on standard output. Messages for people go to standard error, so `--json` output stays
 * machine-readable: `timeclock: …` on a terminal, log lines (JSON) anywhere else.
 */
export async function runHeadless(opts: CliOptions, loaded?: LoadedConfig): Promise<number> {
  const run = await openAgent(opts, { metrics: true }, loaded);
  const say = createConsole({ fields: { terminal: terminalIdOf(run.config) } });
  if (!opts.headless) say('Electron runtime not installed: running headless (type or scan codes here).');
  installProcessGuard(run.log, (m) => run.agent.noteError(m));
  logProcessWarnings(run.log);
  let bridge: WebBridge | null = null;
  let unpublish: (() => void) | null = null;
  let browser: KioskBrowser | null = null;
  // Under systemd (Type=notify): READY=1, the watchdog's pings, STOPPING=1. Inert elsewhere.
  const notify = serviceNotifier({
    env: process.env,
    pid: process.pid,
    log: run.log,
    alive: () => {
      const s = run.agent.status();
      return s.agentRunning ? serviceStatusText(s) : null;
    },
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const told = notify.stopping();
    browser?.stop();
    unpublish?.();
    await bridge?.close();
    await run.shutdown();
    await told;
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(Exit.ok)));
  process.once('SIGTERM', () => void stop().then(() => process.exit(Exit.ok)));

  try {
    // Under systemd, ready means taking punches, which needs no roster (codes no roster knows yet
    // are kept and matched when it comes): a first download may take minutes, and readiness
    // never waits on the network. At a keyboard, the first code typed is greeted by name.
    await run.agent.start({ awaitRosterIfEmpty: !notify.active });
  } catch (e) {
    await stop();
    throw e;
  }
  // The kiosk screen over loopback: `chromium --kiosk <url>` (the URL carries the session token: see below where it is
  // shown).
  bridge = await startWebBridge({
    agent: run.agent,
    host: '127.0.0.1',
    port: 0,
    rendererDir: fileURLToPath(new URL('../../../renderer/', import.meta.url)),
    adminPin: run.adminPin,
    screen: run.screen,
    log: run.log,
  });
  const st = run.agent.status();
  if (run.demo) {
    say(
      `demo mode: embedded mock API at ${run.demo.url} (token demo-token), records at ${run.demo.origin}/__mock/records`,
    );
    if (!run.agent.admin.hasAdminPin())
      say(`demo admin PIN: ${DEMO_ADMIN_PIN} (until one is set with 'timeclock pin set-admin')`);
    const codes = run.demo
      .employees()
      .flatMap((e) => (e.external_id ? [{ code: e.external_id, name: e.full_name }] : []));
    const [first, last] = [codes[0], codes[codes.length - 1]];
    if (first && last) say(`demo codes: ${first.code} … ${last.code} (e.g. ${first.code} = ${first.name})`);
  }
  say(`data: ${run.config.dataDir}; roster ${st.roster.size} employees; ${st.unsent} punches waiting`);
  for (const w of st.warnings) say(`warning: ${w}`, 'warn');
  const screen = bridge;
  unpublish = publishScreenAddressOrSay(run.config.dataDir, screen.url, say);
  // The token is a live credential for the bridge: shown to a person at a terminal, never written to a log (the
  // journal, a shipper).
  const personReading = process.stdout.isTTY === true && process.stderr.isTTY === true;
  if (personReading) say(`kiosk screen: ${screen.url}  (e.g. chromium --kiosk '${screen.url}')`);
  else say(`kiosk screen: ${screen.address}  (with its token: timeclock screen-url)`);
  if (opts.browser) {
    browser = runKioskBrowser(
      opts.browser,
      () => screen.urlWithCode(),
      run.config.dataDir,
      run.config.screen.language,
      run.log,
      say,
    );
    say(`kiosk screen shown in ${opts.browser}`);
  }
  if (notify.active) notify.ready(serviceStatusText(run.agent.status()));
  // Said once the keys are read: a Ctrl-D typed at 'ready' before raw mode is on would be taken by
  // the terminal's line discipline as end-of-file and reach us, in raw mode, as a NUL (seen in CI).
  const sayReady = () => say('ready: type or scan a code and press Enter (Ctrl-D or Ctrl-C to stop)');

  // A terminal in raw mode does not turn \n into a new line.
  const raw = process.stdin.isTTY === true;
  // Under a service, standard output goes to the journal: names and times are personal data (LGPD),
  // so punches are printed there only when asked for.
  const service = !raw && noStandardInput();
  const printPunches = !service || opts['print-punches'] === true;
  const out = (line: string) => process.stdout.write(line + (raw ? '\r\n' : '\n'));
  // One PIN path, the screen's: a result that asks for a PIN carries the agent's one-time
  // challenge, and the next line typed here (within PIN_PROMPT_MS of the last key) answers it
  // (console-pin-prompt.ts).
  const prompt = new ConsolePinPrompt(run.agent, { now: () => performance.now() });
  const show = (r: PunchResult) => out(opts.json ? punchJson(r) : punchLine(r));
  // Every result, one line each, whoever caused it: a typed line, a wedge burst, an HID reader or
  // the kiosk screen (the agent tells of each; the calls below print nothing themselves).
  const offPunch = run.agent.on('punch', (r) => {
    if (printPunches) show(r);
    prompt.noteResult(r);
  });
  const pinPending = () => prompt.pending();
  const typedLine = (line: string) => prompt.line(line);

  if (raw) {
    // Keys one by one: a keyboard-wedge reader's burst is a badge, a person's typing the keypad.
    await new Promise<void>((resolve) => {
      readTerminalKeys(
        process.stdin,
        run.config.wedge,
        {
          scan: (code) => void run.agent.scanned(code, 'wedge'),
          line: (text) => void typedLine(text),
          end: resolve,
        },
        // A PIN is never echoed: each of its keys shows as '*'.
        (s) => {
          const pinKey = pinPending() && s.length === 1 && s !== '\n' && s !== '\r';
          if (pinKey) prompt.key();
          process.stdout.write(pinKey ? '*' : s);
        },
      );
      sayReady();
    });
  } else if (service) {
    // A service (systemd's standard input is /dev/null): the screen and the readers are the input,
    // and the terminal runs until it is stopped. Reading here would end it at once.
    sayReady();
    say('no standard input (a service): running until stopped');
    await new Promise<never>(() => {});
  } else {
    const rl = readline.createInterface({ input: process.stdin, terminal: false });
    sayReady();
    for await (const line of rl) {
      if (stopping) break;
      if (line.trim() === '') continue;
      await typedLine(line);
    }
  }
  offPunch();
  if (!stopping) {
    // End of input (a pipe, or Ctrl-D): deliver what can be delivered now, then stop.
    const left = await run.agent.flush({ maxWaitMs: 30_000 });
    if (!left.done)
      say(
        `stopping with ${left.queue.pending + left.queue.in_doubt} punches waiting (${left.blockedBy}); they are kept and sent on the next start`,
      );
    await stop();
  }
  return Exit.ok;
}
