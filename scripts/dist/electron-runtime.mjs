// What a package build needs from outside the npm registry, the Electron runtime for Linux (an
// unpacked distribution: `electron`, resources/, locales/...), found or fetched here, failing with
// one line that says what is missing and how to provide it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export class MissingRuntimeError extends Error {}

export function electronVersion(root) {
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules/electron/package.json'), 'utf8')).version;
}

function distVersion(dir) {
  try {
    return fs.readFileSync(path.join(dir, 'version'), 'utf8').trim().replace(/^v/, '');
  } catch {
    return null;
  }
}

/**
 * ELECTRON_DIST (an unpacked Electron of the pinned version), else the one the `electron` package
 * keeps in node_modules/electron/dist, downloading it with the package's own installer if needed.
 */
export function resolveElectronDist(root, env = process.env) {
  const version = electronVersion(root);
  const given = env.ELECTRON_DIST;
  if (given) {
    const found = distVersion(given);
    if (!fs.existsSync(path.join(given, 'electron'))) throw new MissingRuntimeError(`ELECTRON_DIST=${given} has no 'electron' executable: point it at an unpacked Electron ${version} for Linux`);
    if (found !== version) throw new MissingRuntimeError(`ELECTRON_DIST=${given} is Electron ${found ?? '(no version file)'}, this project pins ${version}`);
    return given;
  }
  const local = path.join(root, 'node_modules/electron/dist');
  if (distVersion(local) !== version) {
    const run = spawnSync(process.execPath, [path.join(root, 'node_modules/electron/install.js')], { encoding: 'utf8', env: { ...env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' } });
    if (run.status !== 0 || distVersion(local) !== version) {
      const why = (run.stderr || run.stdout || '').split('\n').find((l) => /Error|ENOTFOUND|ECONN|EAI_AGAIN|status/i.test(l))?.trim() ?? 'the download failed';
      throw new MissingRuntimeError(`the Electron ${version} runtime could not be downloaded (${why}): run on a machine that reaches github.com, or set ELECTRON_DIST to an unpacked Electron ${version} for Linux`);
    }
  }
  return local;
}
