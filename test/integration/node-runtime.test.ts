/**
 * Issue 27 items 3 and 4: the two commands on whatever Node the machine has, and no Electron
 * download trace. Run with the machine's own Node where it is an unsupported one (Debian's Node 20
 * here): the built `timeclock` and npm's preinstall (scripts/check-node.cjs) as npm would run them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronRuntime } from '../../src/cli/terminal/electron-launch.js';
import { nodeSupported, SUPPORTED_NODE, unsupportedRuntimeLine } from '../../src/cli/common/node-runtime.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = path.resolve('.');
const CHECK = path.join(ROOT, 'scripts/check-node.cjs');
const FALLBACK = '24.21.0';
const SYSTEM_NODE = '/usr/bin/node';
const systemVersion = fs.existsSync(SYSTEM_NODE)
  ? execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim()
  : null;
const oldSystemNode = systemVersion !== null && !nodeSupported(systemVersion);

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((c) => c()));
function temp(): string {
  const t = tempDir('timeclock-node-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Node FALLBACK for the preinstall's cache: this very Node when it is that one, else .ci/run's cache. */
function fallbackNode(): string {
  if (process.version === `v${FALLBACK}`) return process.execPath;
  return path.join(
    process.env.HOME ?? '/root',
    '.cache/timeclock-kiosk',
    `node-v${FALLBACK}-linux-${process.arch}`,
    'bin/node',
  );
}

function preinstall(node: string, root: string, env: NodeJS.ProcessEnv) {
  return spawnSync(node, [CHECK], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', TIMECLOCK_CHECK_NODE_ROOT: root, ...env },
  });
}

describe('the supported Node lines', () => {
  it('are the ones package.json names, and only those pass', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
    expect(['v20.20.2', '22.11.9', '23.4.0', '25.0.0', 'x'].filter(nodeSupported)).toEqual([]);
    expect(['v22.12.0', '22.23.3', 'v24.0.0', '24.21.0'].every(nodeSupported)).toBe(true);
    // Inside Electron (the packaged app's command line) its own Node is never refused.
    expect(unsupportedRuntimeLine({ ...process.versions, node: '20.1.0', electron: '45.4.1' })).toBeNull();
  });
});

describe.runIf(oldSystemNode)(`on the machine's ${systemVersion ?? 'Node'} (${SYSTEM_NODE})`, () => {
  it('timeclock says in one line which Node it needs and exits 2, before loading SQLite (no segmentation fault)', () => {
    const r = spawnSync(SYSTEM_NODE, [CLI, 'status'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', TIMECLOCK_DATA_DIR: temp() },
    });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Node ${(systemVersion ?? '').slice(1)} is not supported`);
    expect(lines[0]).toContain('Node 24 or 22 (^22.12.0 || ^24.0.0)');
  });

  it("npm's preinstall says so in one line and links Node 24 as node_modules/.bin/node; on a supported Node it takes the link away", () => {
    const node = fallbackNode();
    if (!fs.existsSync(node)) throw new Error(`no Node ${FALLBACK} at ${node} (.ci/run puts one there)`);
    const cache = temp();
    fs.mkdirSync(path.join(cache, 'timeclock-kiosk', `node-v${FALLBACK}-linux-${process.arch}`, 'bin'), {
      recursive: true,
    });
    fs.symlinkSync(node, path.join(cache, 'timeclock-kiosk', `node-v${FALLBACK}-linux-${process.arch}`, 'bin/node'));
    const project = temp();

    const r = preinstall(SYSTEM_NODE, project, { XDG_CACHE_HOME: cache });
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `timeclock-kiosk: Node ${systemVersion} is not supported (^22.12.0 || ^24.0.0): npm start and npm test will run on Node ${FALLBACK} (node_modules/.bin/node, from the npm registry package node-linux-${process.arch})`,
    ]);
    const linked = path.join(project, 'node_modules/.bin/node');
    expect(execFileSync(linked, ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${FALLBACK}`);

    // npm install again on a supported Node: the link goes, so that Node is the one that runs.
    const again = preinstall(process.execPath, project, { XDG_CACHE_HOME: cache });
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('');
    expect(fs.existsSync(linked)).toBe(false);
  });

  it('when Node 24 cannot be fetched, the preinstall fails the install with one line saying what to do', () => {
    const r = preinstall(SYSTEM_NODE, temp(), {
      XDG_CACHE_HOME: temp(),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_cache: temp(),
      npm_config_fetch_retries: '0',
    });
    expect(r.status).toBe(1);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^timeclock-kiosk: Node v\d+\.\d+\.\d+ is not supported \(\^22\.12\.0 \|\| \^24\.0\.0\) and Node 24\.21\.0 could not be fetched from the npm registry \(node-linux-\w+: npm: ECONNREFUSED\): install Node 24 or 22 and run npm ci again$/,
    );
  });
});

describe('timeclock start without the Electron runtime', () => {
  it('says in one line that it runs headless: no "Downloading Electron binary", no stack trace', async () => {
    if (fs.existsSync(path.join(ROOT, 'node_modules/electron/dist')))
      throw new Error('node_modules/electron/dist exists: this test is for a tree without the runtime');
    // Were the electron package's downloader started, it would fail fast on this mirror (no network wait).
    const env = {
      TIMECLOCK_DATA_DIR: temp(),
      TIMECLOCK_LOG_LEVEL: 'error',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      electron_config_cache: temp(),
    };
    const r = await runCli(['start'], env, '', 60_000);
    expect(r.code).toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toContain('Electron runtime not installed: running headless');
    expect(out).not.toMatch(/Downloading|TypeError|fetch failed|\n\s+at /);
  });

  it('finds a runtime where ELECTRON_OVERRIDE_DIST_PATH puts it, as the electron package would, without loading that package', () => {
    const dist = temp();
    expect(electronRuntime({ ELECTRON_OVERRIDE_DIST_PATH: dist })).toBeNull();
    fs.writeFileSync(path.join(dist, 'electron'), '');
    expect(electronRuntime({ ELECTRON_OVERRIDE_DIST_PATH: dist })).toBe(path.join(dist, 'electron'));
    expect(electronRuntime({})).toBeNull();
  });
});
