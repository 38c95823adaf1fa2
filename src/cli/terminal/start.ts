import { loadConfig } from '../../config.js';
import { StartRefused, startConfig } from '../../config-demo.js';
import { launchElectron, electronRuntime } from './electron-launch.js';
import { runHeadless } from './headless-console.js';
import { UsageError, type CliOptions } from '../common/options.js';

export { electronRuntime } from './electron-launch.js';

/**
 * `timeclock start`: the kiosk window when the Electron runtime is installed (electron-launch.ts),
 * else, or with --headless, the headless console (headless-console.ts). A configuration file that
 * names no API is refused here, before either starts, unless --demo (config-demo.ts): exit 2.
 */
export async function runStart(opts: CliOptions): Promise<number> {
  let loaded;
  try {
    loaded = startConfig(loadConfig({ file: opts.config }), {
      file: opts.config,
      demo: opts.demo ?? false,
      env: process.env,
    });
  } catch (e) {
    if (e instanceof StartRefused) throw new UsageError(e.message);
    throw e;
  }
  const electronPath = opts.headless ? null : electronRuntime();
  if (electronPath) return launchElectron(electronPath, opts);
  return runHeadless(opts, loaded);
}
