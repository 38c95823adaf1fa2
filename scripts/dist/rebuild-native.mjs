// better-sqlite3 compiled for the Electron the app ships with, from Electron's headers, in a scratch
// copy: the project's node_modules keeps Node's build (for `npm test`) and the staged app gets only
// the resulting .node file. node-hid needs nothing: its N-API prebuild loads in any runtime.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The environment node-gyp sees: none of npm's `npm_config_*` values. A `nodedir` in the user's
 * npm config (Debian's Node sets one) would otherwise win over --nodedir and silently compile
 * against the system Node's headers while labelling the result Electron's.
 */
export function gypEnv(env) {
  const clean = {};
  for (const [k, v] of Object.entries(env)) if (!/^npm_config_/i.test(k) && v !== undefined) clean[k] = v;
  return clean;
}

export function rebuildBetterSqlite3({ root, app, scratchDir, electronVersion, headersDir, arch = process.arch, env = process.env, log = console.log }) {
  const scratch = path.join(scratchDir, 'better-sqlite3');
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.cpSync(path.join(root, 'node_modules/better-sqlite3'), scratch, {
    recursive: true,
    filter: (src) => !src.startsWith(path.join(root, 'node_modules/better-sqlite3/build')),
  });
  const gyp = path.join(root, 'node_modules/node-gyp/bin/node-gyp.js');
  const args = [gyp, 'rebuild', '--release', `--nodedir=${headersDir}`, `--target=${electronVersion}`, '--runtime=electron', `--arch=${arch}`, `--jobs=${Math.max(1, Math.min(4, (globalThis.navigator?.hardwareConcurrency ?? 2)))}`];
  log(`dist: compiling better-sqlite3 for Electron ${electronVersion} (${arch}) against ${headersDir}`);
  // The compiler's output (pages of SQLite warnings) goes to a log; only a failure shows its end.
  const logFile = path.join(scratchDir, 'better-sqlite3.log');
  const out = fs.openSync(logFile, 'w');
  try {
    execFileSync(process.execPath, args, { cwd: scratch, env: gypEnv(env), stdio: ['ignore', out, out] });
  } catch {
    const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n');
    throw new Error(`better-sqlite3 did not compile for Electron ${electronVersion} (full log: ${logFile}):\n${tail}`);
  } finally {
    fs.closeSync(out);
  }
  const built = path.join(scratch, 'build/Release/better_sqlite3.node');
  const into = path.join(app, 'node_modules/better-sqlite3/build/Release');
  fs.mkdirSync(into, { recursive: true });
  fs.copyFileSync(built, path.join(into, 'better_sqlite3.node'));
  // Which headers it was built against, for the after-pack check and for anyone debugging a crash.
  const version = /#define NODE_MODULE_VERSION (\d+)/.exec(fs.readFileSync(path.join(headersDir, 'include/node/node_version.h'), 'utf8'))?.[1];
  fs.writeFileSync(path.join(into, 'BUILT-FOR'), `electron ${electronVersion} ${arch} NODE_MODULE_VERSION ${version ?? '?'}\n`);
  return path.join(into, 'better_sqlite3.node');
}
