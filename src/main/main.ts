/**
 * Electron entry (`electron dist/src/main/main.js [--config file] [--windowed] [--dev-tools]`): config → demo
 * mock or API → agent → kiosk window + IPC, as `timeclock start` does headless. With `--cli`, the
 * command line instead (cli-mode.ts). The only file that loads the real `electron` module, at
 * runtime, so the rest of the tree builds without it.
 */
// tsconfig includes `src/**/*.ts` only: this pulls the preload into the build, so tsc emits preload.cjs.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { openAgent } from '../agent/open-agent.js';
import { installProcessGuard, logProcessWarnings } from '../agent/host/process-guard.js';
import { ConfigError, loadConfig, secretEnvKeys, terminalIdOf, type LoadedConfig } from '../config.js';
import { startConfig } from '../config-demo.js';
import { chromiumLocale } from '../messages/lang.js';
import { createConsole, createLogger } from '../log.js';
import { defaultTerminalId, terminalIdSchema } from '../config-fleet.js';
import type { ElectronMain } from './electron-api.js';
import { cliArguments, runCliMode } from './cli-mode.js';
import { safeStorageTokenStore } from './safe-storage-token.js';
import { runShell, type RunningAgent } from './shell.js';

function argValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
}

const electron = createRequire(import.meta.url)('electron') as ElectronMain;
const cliArgs = cliArguments(process.argv);
if (cliArgs !== null) {
  const { runCli } = await import('../cli/run.js');
  await runCliMode(electron.app, cliArgs, runCli);
} else {
  startKiosk(process.argv.slice(2));
}

function startKiosk(argv: string[]): void {
  let loaded: LoadedConfig;
  try {
    const file = argValue(argv, '--config');
    // A config file that names no API starts nothing but the demo asked for (config-demo.ts).
    loaded = startConfig(loadConfig(file === undefined ? {} : { file }), {
      file,
      demo: argv.includes('--demo'),
      env: process.env,
    });
  } catch (e) {
    // `timeclock: …` on a terminal, a JSON log line under a service.
    const terminal = terminalIdSchema.safeParse(process.env.TIMECLOCK_TERMINAL_ID).data ?? defaultTerminalId();
    createConsole({ fields: { terminal } })(e instanceof ConfigError ? e.message : (e as Error).message, 'error');
    electron.app.exit(2);
    throw e;
  }
  const { config } = loaded;
  // Read into the config: the renderer processes Electron starts inherit the environment.
  for (const k of secretEnvKeys(process.env)) delete process.env[k];
  const log = createLogger({ level: config.logLevel, fields: { terminal: terminalIdOf(config) } });
  logProcessWarnings(log);
  // Chromium's locale (date fields, Intl defaults) in the site's language, whatever the box's is: read before ready.
  electron.app.commandLine.appendSwitch('lang', chromiumLocale(config.screen.language).tag);

  async function startAgent(): Promise<RunningAgent> {
    // After app ready (runShell awaits whenReady first): safeStorage on Linux is usable only then.
    const run = await openAgent(loaded, {
      tokens: safeStorageTokenStore(electron.safeStorage, config.dataDir, { log }),
      metrics: true,
    });
    installProcessGuard(log, (m) => run.agent.noteError(m));
    try {
      await run.agent.start({ awaitRosterIfEmpty: true });
    } catch (e) {
      await run.shutdown();
      throw e;
    }
    if (run.demo) log.info('demo mode: embedded mock API', { url: run.demo.url });
    return { agent: run.agent, adminPin: run.adminPin, screen: run.screen, shutdown: run.shutdown };
  }

  runShell(electron, {
    preloadPath: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
    rendererDir: fileURLToPath(new URL('../../renderer/', import.meta.url)),
    kiosk: !argv.includes('--windowed') && process.env.TIMECLOCK_WINDOWED !== '1',
    devTools: argv.includes('--dev-tools') || process.env.TIMECLOCK_DEV_TOOLS === '1',
    startAgent,
    log,
  });
}
