/**
 * The agent as the package runs it (issue 27 item 10): the installed `timeclock start --headless`
 * is `timeclock-kiosk --cli start --headless`, the agent inside Electron's main process
 * (dist/src/main/main.js), not `node dist/src/cli.js`. Electron cannot be downloaded here, so the
 * main-process entry runs under Node with a stand-in `electron` module (as the tests'
 * electron-cli-mode does), beside the development entry, each a fresh process: same mock (its own
 * process, 10,000 employees), same roster sync at start, same punches typed on standard input.
 * Printed: peak RSS (VmHWM) and RSS at the end of each, and their ratio.
 *
 * What this cannot know: Electron's own memory. Its main process carries Chromium's browser-process
 * runtime (PartitionAlloc, Mojo, the GPU and network service hosts it starts even without a window)
 * and its own build of V8 and Node; those figures need the real runtime on a real terminal
 * (`grep VmHWM /proc/$(pidof timeclock-kiosk)/status`). What this does know: the agent's part, and
 * that the packaged entry adds nothing measurable to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { objectIdFor } from '../../src/mock/seed.js';
import { startMockProcess } from './mock-process.js';
import type { Result } from './report.js';
import { MALLOC_ENV } from './support.js';

const EMPLOYEES = 10_000;
const PUNCHES = 300;
const MIB = 1024 * 1024;
const MB = 1_000_000;

type Run = { entry: string; peakBytes: number; endBytes: number; syncMs: number; punchesLogged: number };

/** A copy of the packaged app's layout: dist/src, package.json, node_modules with a stand-in electron. */
function packagedLayout(dir: string): string {
  fs.cpSync(path.resolve('dist/src'), path.join(dir, 'dist/src'), { recursive: true });
  fs.cpSync(path.resolve('dist/renderer'), path.join(dir, 'dist/renderer'), { recursive: true });
  fs.copyFileSync('package.json', path.join(dir, 'package.json'));
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync('node_modules'))
    if (name !== 'electron' && name !== '.bin')
      fs.symlinkSync(path.resolve('node_modules', name), path.join(modules, name));
  fs.mkdirSync(path.join(modules, 'electron'));
  fs.writeFileSync(
    path.join(modules, 'electron/index.js'),
    'module.exports = { app: { commandLine: { appendSwitch() {} }, exit(code) { process.exit(code); }, requestSingleInstanceLock() { process.exit(9); } } };\n',
  );
  return path.join(dir, 'dist/src/main/main.js');
}

function kib(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : Number.NaN;
}

async function runOne(args: string[], env: NodeJS.ProcessEnv, entry: string): Promise<Run> {
  const t0 = performance.now();
  // As the terminal is launched (assets/bin/timeclock): a 4 MiB young generation, two malloc arenas.
  const child: ChildProcess = spawn(process.execPath, ['--max-semi-space-size=4', '--optimize-for-size', ...args], {
    env: { ...env, ...MALLOC_ENV },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  // Each punch prints one line on standard output (not a service: --print-punches is on).
  // A child that ended early shows as its exit in `until`, not as an EPIPE here.
  child.stdin?.on('error', () => undefined);
  const punched = (): number => out.split('\n').filter((l) => l.trim() !== '').length;
  const until = async (ok: () => boolean, what: string, ms: number): Promise<void> => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (child.exitCode !== null)
        throw new Error(`${entry} exited (${child.exitCode}) before ${what}: ${err.slice(-2000)}`);
      if (Date.now() > end) throw new Error(`${entry}: ${what} not seen in ${ms} ms: ${err.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await until(() => err.includes('roster synced'), 'the roster sync at start', 300_000);
  const syncMs = performance.now() - t0;
  for (let i = 0; i < PUNCHES; i++) child.stdin?.write(`${100000 + ((i * 37) % EMPLOYEES)}\n`);
  await until(() => punched() >= PUNCHES, `${PUNCHES} punches answered`, 120_000);
  const punchesLogged = punched();
  await new Promise((r) => setTimeout(r, 2_000));
  const pid = child.pid as number;
  const run = { entry, peakBytes: kib(pid, 'VmHWM'), endBytes: kib(pid, 'VmRSS'), syncMs, punchesLogged };
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  return run;
}

export async function benchRuntime(): Promise<Result> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timeclock-runtime-'));
  const mock = await startMockProcess({ employees: EMPLOYEES, rule: { limit: 60, windowMs: 1_000 } });
  try {
    const main = packagedLayout(path.join(dir, 'app'));
    const env = (data: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TZ: 'America/Sao_Paulo',
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_SITE_ID: objectIdFor('gen-site', 0),
      TIMECLOCK_DATA_DIR: path.join(dir, data),
      TIMECLOCK_RATE_LIMIT: '60',
      TIMECLOCK_RATE_WINDOW_MS: '1000',
      TIMECLOCK_LOG_LEVEL: 'info',
    });
    // Interleaved, twice each: a busy machine's drift falls on both.
    const runs: Run[] = [];
    for (let round = 0; round < 2; round++) {
      runs.push(
        await runOne(
          [path.resolve('dist/src/cli.js'), 'start', '--headless'],
          env(`dev-${round}`),
          'node dist/src/cli.js start --headless (npm start)',
        ),
      );
      runs.push(
        await runOne(
          [main, '--ozone-platform=headless', '--cli', 'start', '--headless'],
          env(`pkg-${round}`),
          'main.js --cli start --headless (the package, under Node)',
        ),
      );
    }
    const dev = runs.filter((r) => r.entry.startsWith('node dist'));
    const pkg = runs.filter((r) => r.entry.startsWith('main.js'));
    const best = (rs: Run[]) => Math.min(...rs.map((r) => r.peakBytes));
    const ratio = best(pkg) / best(dev);
    return {
      name: 'runtime',
      title: `the agent as the package runs it (main.js --cli) against npm start, ${EMPLOYEES} employees synced at start, ${PUNCHES} punches typed; Node ${process.versions.node}`,
      tables: [
        {
          title: 'each a fresh process (peak = VmHWM, MiB = 2^20 bytes, MB = 10^6 bytes)',
          columns: [
            'entry',
            'peak RSS MiB',
            'peak RSS MB',
            'RSS at end MiB',
            'start to roster applied s',
            'punch lines',
          ],
          rows: runs.map((r) => [
            r.entry,
            r.peakBytes / MIB,
            r.peakBytes / MB,
            r.endBytes / MIB,
            r.syncMs / 1000,
            r.punchesLogged,
          ]),
        },
      ],
      targets: [
        {
          what: 'peak RSS, the package entry ÷ npm start (lowest of two runs each)',
          value: ratio,
          target: 'about 1.0: the entry adds nothing',
          met: ratio < 1.1,
        },
      ],
      notes: [
        `runtime: Electron cannot be downloaded here; the package's entry ran under Node ${process.versions.node} with a stand-in electron module. Electron's own main-process memory (Chromium's browser process, its V8 and Node build) is not in these figures: measure it on a terminal with grep VmHWM /proc/$(pidof timeclock-kiosk)/status`,
      ],
      raw: { runs, employees: EMPLOYEES, punches: PUNCHES, node: process.versions.node },
    };
  } finally {
    await mock.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
