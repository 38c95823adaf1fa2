/**
 * The packaged app's command-line mode (`timeclock-kiosk --cli ...`, what the installed `timeclock`
 * command runs now that the runAsNode fuse is off): the real Electron entry (dist/src/main/main.js)
 * run by Node beside a stand-in `electron` module whose app.exit records the code and exits. It
 * opens no window, runs the command line with what follows --cli (Chromium's switches before it
 * are not the command's), and exits with the command's code.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArguments } from '../../src/main/cli-mode.js';
import { tempDir } from '../helpers/temp.js';

const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
let app: { dir: string; cleanup(): void };

beforeAll(() => {
  app = tempDir();
  fs.cpSync(path.resolve('dist/src'), path.join(app.dir, 'dist/src'), { recursive: true });
  fs.copyFileSync('package.json', path.join(app.dir, 'package.json'));
  const modules = path.join(app.dir, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync('node_modules')) {
    if (name !== 'electron' && name !== '.bin')
      fs.symlinkSync(path.resolve('node_modules', name), path.join(modules, name));
  }
  fs.mkdirSync(path.join(modules, 'electron'));
  fs.writeFileSync(
    path.join(modules, 'electron/index.js'),
    `const fs = require('fs');
module.exports = {
  app: {
    commandLine: { appendSwitch(name, value) { fs.appendFileSync(process.env.FAKE_ELECTRON_LOG + '.switches', name + '=' + value + '\\n'); } },
    exit(code) { fs.appendFileSync(process.env.FAKE_ELECTRON_LOG, 'exit ' + code + '\\n'); process.exit(code); },
    requestSingleInstanceLock() { fs.appendFileSync(process.env.FAKE_ELECTRON_LOG, 'kiosk started\\n'); process.exit(9); },
  },
};
`,
  );
});
afterAll(() => app?.cleanup());

function electronMain(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string; log: string; switches: string }> {
  const log = path.join(app.dir, `electron-${Math.random().toString(36).slice(2)}.log`);
  fs.writeFileSync(log, '');
  fs.writeFileSync(`${log}.switches`, '');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(app.dir, 'dist/src/main/main.js'), ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: app.dir,
        TZ: 'UTC',
        FAKE_ELECTRON_LOG: log,
        TIMECLOCK_DATA_DIR: path.join(app.dir, 'data'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr,
        log: fs.readFileSync(log, 'utf8'),
        switches: fs.readFileSync(`${log}.switches`, 'utf8'),
      }),
    );
  });
}

describe('timeclock-kiosk --cli', () => {
  it('takes only what follows --cli as the command line', () => {
    expect(
      cliArguments([
        '/opt/timeclock-kiosk/timeclock-kiosk',
        '--ozone-platform=headless',
        '--no-sandbox',
        '--cli',
        'status',
        '--json',
      ]),
    ).toEqual(['status', '--json']);
    expect(cliArguments(['/opt/timeclock-kiosk/timeclock-kiosk', '--cli'])).toEqual([]);
    expect(cliArguments(['/opt/timeclock-kiosk/timeclock-kiosk', '--windowed'])).toBeNull();
  });

  it('runs a command in the main process and exits with its code, without starting the kiosk', async () => {
    const run = await electronMain([
      '--ozone-platform=headless',
      '--no-sandbox',
      '--disable-gpu',
      '--cli',
      '--version',
    ]);
    expect(run.stdout).toBe(`timeclock-kiosk ${VERSION}\n`);
    expect(run.log).toBe('exit 0\n');
    expect(run.code).toBe(0);
  });

  it('a command that reads the data directory says what it found, with its exit code (status before any start: 1)', async () => {
    const run = await electronMain(['--cli', 'status']);
    expect(run.stderr).toContain(`no terminal data in ${path.join(app.dir, 'data')}`);
    expect(run.log).toBe('exit 1\n');
    expect(run.code).toBe(1);
  });

  it('a wrong command exits 2 with the usage, as the Node command line does', async () => {
    const run = await electronMain(['--cli', 'frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(run.log).toBe('exit 2\n');
  });

  it('without --cli it is the kiosk app (here: the stand-in says the kiosk started)', async () => {
    const run = await electronMain(['--windowed']);
    expect(run.log).toBe('kiosk started\n');
  });

  it('the kiosk’s Chromium speaks the site’s screen language (its date fields and Intl follow it), set before the app starts', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'pt-BR'],
      [{ TIMECLOCK_LANGUAGE: 'es' }, 'es'],
      [{ TIMECLOCK_LANGUAGE: 'en' }, 'en-US'],
    ];
    for (const [env, tag] of cases) {
      const run = await electronMain(['--windowed'], env);
      expect(run.switches).toBe(`lang=${tag}\n`);
      expect(run.log).toBe('kiosk started\n');
    }
  });
});
