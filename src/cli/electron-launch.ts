/**
 * `timeclock start` with Electron installed: the kiosk window. Electron runs src/main/main.ts (a
 * thin shell over the same agent); this process only waits for it and passes signals on.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Exit, type CliOptions } from './options.js';

/** Path of the Electron runtime when its binary is installed, else null. */
export function electronRuntime(): string | null {
  try {
    const p: unknown = createRequire(import.meta.url)('electron');
    return typeof p === 'string' && fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/** Runs the kiosk window until Electron exits; its exit code is ours. */
export async function launchElectron(electronPath: string, opts: CliOptions): Promise<number> {
  const mainJs = fileURLToPath(new URL('../main/main.js', import.meta.url));
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make Electron run main.js as plain Node
  const child = spawn(electronPath, [mainJs, ...(opts.config ? ['--config', opts.config] : []), ...(opts.demo ? ['--demo'] : [])], { stdio: 'inherit', env });
  process.once('SIGINT', () => child.kill('SIGINT'));
  process.once('SIGTERM', () => child.kill('SIGTERM'));
  return await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? Exit.error));
  });
}
