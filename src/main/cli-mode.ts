/**
 * The packaged app's command-line mode: `timeclock-kiosk [chromium switches] --cli <command...>`,
 * what the installed `timeclock` command runs. The runAsNode fuse is off, so this is how the
 * command line reaches the native modules built for this Electron. It runs in the main process,
 * opens no window, and exits with the command's code.
 */
import type { App } from './electron-api.js';

/** The command line's own arguments (everything after `--cli`), or null when not in this mode. */
export function cliArguments(argv: readonly string[]): string[] | null {
  const at = argv.indexOf('--cli');
  return at >= 0 ? argv.slice(at + 1) : null;
}

/**
 * Runs the command line and exits the app with its code when it settles. `timeclock start` stays
 * running until a signal; it exits the process itself then.
 */
export async function runCliMode(
  app: Pick<App, 'exit'>,
  args: string[],
  run: (argv: string[]) => Promise<number>,
): Promise<number> {
  const code = await run(args);
  // Let buffered output reach a pipe before the process ends.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  app.exit(code);
  return code;
}
