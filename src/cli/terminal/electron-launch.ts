/**
 * `timeclock start` with Electron installed: the kiosk window. Electron runs src/main/main.ts (a
 * thin shell over the same agent); this process only waits for it and passes signals on.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Exit, type CliOptions } from '../common/options.js';

/**
 * Path of the Electron runtime when its binary is installed, else null. The `electron` package's
 * index.js is not required: when its binary is missing it starts the downloader, which prints
 * "Downloading Electron binary..." and, offline, a fetch stack trace. Its own lookup instead
 * (index.js of electron 45): ELECTRON_OVERRIDE_DIST_PATH, else dist/ + the name in path.txt.
 */
export function electronRuntime(env: NodeJS.ProcessEnv = process.env): string | null {
  try {
    const pkgDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = path.join(pkgDir, 'path.txt');
    const executable = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
    const full = env.ELECTRON_OVERRIDE_DIST_PATH
      ? path.join(env.ELECTRON_OVERRIDE_DIST_PATH, executable || 'electron')
      : executable
        ? path.join(pkgDir, 'dist', executable)
        : null;
    return full !== null && fs.existsSync(full) ? full : null;
  } catch {
    return null; // no electron package at all (a production install of the dependencies)
  }
}

/** Runs the kiosk window until Electron exits; its exit code is ours. */
export async function launchElectron(electronPath: string, opts: CliOptions): Promise<number> {
  const mainJs = fileURLToPath(new URL('../../main/main.js', import.meta.url));
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make Electron run main.js as plain Node
  const child = spawn(
    electronPath,
    [mainJs, ...(opts.config ? ['--config', opts.config] : []), ...(opts.demo ? ['--demo'] : [])],
    { stdio: 'inherit', env },
  );
  process.once('SIGINT', () => child.kill('SIGINT'));
  process.once('SIGTERM', () => child.kill('SIGTERM'));
  return await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? Exit.error));
  });
}
