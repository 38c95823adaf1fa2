import { launchElectron, electronRuntime } from './electron-launch.js';
import { runHeadless } from './headless-console.js';
import type { CliOptions } from './options.js';

export { electronRuntime } from './electron-launch.js';

/**
 * `timeclock start`: the kiosk window when the Electron runtime is installed (electron-launch.ts),
 * else, or with --headless, the headless console (headless-console.ts).
 */
export async function runStart(opts: CliOptions): Promise<number> {
  const electronPath = opts.headless ? null : electronRuntime();
  if (electronPath) return launchElectron(electronPath, opts);
  return runHeadless(opts);
}
