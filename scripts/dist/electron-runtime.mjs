// The two things a package build needs from outside the npm registry, found or fetched here, each
// failing with one line that says what is missing and how to provide it:
//   - the Electron runtime for Linux (an unpacked distribution: `electron`, resources/, locales/...);
//   - Electron's Node headers, to compile better-sqlite3 for Electron's ABI.
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
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

async function download(url) {
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  } catch (e) {
    throw new MissingRuntimeError(`Electron's headers could not be downloaded from ${url} (${e.cause?.code ?? e.message}): set ELECTRON_HEADERS_DIR to a directory holding include/node for Electron`);
  }
  if (!res.ok) throw new MissingRuntimeError(`Electron's headers could not be downloaded from ${url} (HTTP ${res.status})`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * A directory holding include/node of the Electron the app ships with: ELECTRON_HEADERS_DIR, or
 * Electron's published headers (checked against their SHASUMS256.txt) kept in the user's cache.
 */
export async function resolveElectronHeaders(root, env = process.env) {
  const version = electronVersion(root);
  const given = env.ELECTRON_HEADERS_DIR;
  if (given) {
    if (!fs.existsSync(path.join(given, 'include/node/node_version.h'))) throw new MissingRuntimeError(`ELECTRON_HEADERS_DIR=${given} has no include/node/node_version.h`);
    return given;
  }
  const cache = path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'timeclock-kiosk', `electron-headers-v${version}`);
  if (fs.existsSync(path.join(cache, 'include/node/node_version.h'))) return cache;
  const base = `https://artifacts.electronjs.org/headers/dist/v${version}`;
  const name = `node-v${version}-headers.tar.gz`;
  const [tarball, sums] = [await download(`${base}/${name}`), (await download(`${base}/SHASUMS256.txt`)).toString('utf8')];
  const want = sums.split('\n').find((l) => l.trim().endsWith(name))?.split(/\s+/)[0];
  const got = crypto.createHash('sha256').update(tarball).digest('hex');
  if (want !== got) throw new MissingRuntimeError(`Electron's headers ${name}: checksum ${got} does not match SHASUMS256.txt (${want ?? 'not listed'})`);
  const tmp = `${cache}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, name), tarball);
  // The tarball holds node_headers/include/node/...
  execFileSync('tar', ['-xzf', name, '--strip-components=1'], { cwd: tmp });
  fs.rmSync(path.join(tmp, name));
  fs.rmSync(cache, { recursive: true, force: true });
  fs.renameSync(tmp, cache);
  return cache;
}
