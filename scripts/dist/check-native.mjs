// Proof that the packaged app's native modules load in the packaged runtime: the app's own files
// (app.asar with its unpacked .node files, extracted byte for byte) are loaded by the packaged
// executable in Node mode, which opens a real SQLite file and enumerates HID devices. A module
// compiled for another ABI, or a missing shared library, fails here instead of on a terminal.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import asar from '@electron/asar';

const PROBE = `
const path = require('node:path');
const dir = process.argv[process.argv.length - 1];
const out = { runtime: process.versions.electron ? 'electron ' + process.versions.electron : 'node ' + process.versions.node, modules: process.versions.modules };
const Database = require(path.join(dir, 'node_modules/better-sqlite3'));
const file = path.join(dir, 'probe.sqlite');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE t (x TEXT)');
db.prepare('INSERT INTO t VALUES (?)').run('punch');
out.sqlite = db.prepare('SELECT sqlite_version() AS v, (SELECT x FROM t) AS x').get();
db.close();
const HID = require(path.join(dir, 'node_modules/node-hid'));
if (process.platform === 'linux') HID.setDriverType('hidraw');
out.hidDevices = HID.devices().length;
process.stdout.write(JSON.stringify(out) + '\\n');
`;

export class NativeCheckError extends Error {}

/**
 * Runs the probe with `executable` (ELECTRON_RUN_AS_NODE=1: the runAsNode fuse is still on at this
 * point of the build) on the app in `resourcesDir`. Returns what the probe saw; throws a
 * NativeCheckError with the runtime's own words otherwise.
 */
export function checkNativeModules({ executable, resourcesDir, timeoutMs = 60_000 }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timeclock-native-check-'));
  try {
    const app = path.join(tmp, 'app');
    asar.extractAll(path.join(resourcesDir, 'app.asar'), app);
    const probe = path.join(tmp, 'probe.cjs');
    fs.writeFileSync(probe, PROBE);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, ELECTRON_RUN_AS_NODE: '1' };
    const run = spawnSync(executable, [probe, app], { encoding: 'utf8', env, timeout: timeoutMs });
    const said = `${run.stderr ?? ''}`.split('\n').map((l) => l.trim()).filter(Boolean);
    if (run.error) throw new NativeCheckError(`after-pack check: ${executable} could not run (${run.error.message})`);
    if (run.status !== 0) {
      // Node's message spans lines ("Error: The module ... / was compiled against ... / NODE_MODULE_VERSION
      // 127. This version ... requires 137."): the error's lines up to its stack, as one line.
      const first = said.findIndex((l) => /Error:/.test(l));
      const end = said.findIndex((l, i) => i > first && /^at /.test(l));
      const reason = first >= 0 ? said.slice(first, end > first ? end : undefined).join(' ') : (said.at(-1) ?? `exit ${run.status}`);
      throw new NativeCheckError(`after-pack check: the native modules do not load in the packaged runtime: ${reason}`);
    }
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    try {
      return JSON.parse(line);
    } catch {
      throw new NativeCheckError(`after-pack check: the probe printed no result (${line || said.at(-1) || 'nothing'})`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
