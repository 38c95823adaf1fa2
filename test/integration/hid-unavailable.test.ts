import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/*
 * How the failure is made real: the unmodified CLI and node-hid run with LD_LIBRARY_PATH pointing
 * at a directory holding an empty libusb-1.0.so.0. The loader searches LD_LIBRARY_PATH before the
 * system's directories (the prebuild has no RPATH), so dlopen of node-hid's hidraw binding, whose
 * NEEDED list has libusb-1.0.so.0, truly fails ("file too short") whether or not libusb is
 * installed, without root and without patching anything. A library that is *absent* cannot be
 * faked that way (the loader would fall back to the system's copy): a stand-in libusb-1.0.so.0,
 * built with cc (CI installs the compilers for better-sqlite3), that needs a library that exists
 * nowhere gives the loader's real "No such file or directory". The wording of each missing library
 * and its Debian package is checked on the loader's real messages in test/unit/hid-load-error.test.ts.
 */

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((c) => c()));
function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function brokenLibusbDir(): string {
  const d = dir();
  fs.writeFileSync(path.join(d, 'libusb-1.0.so.0'), '');
  return d;
}

/** A libusb-1.0.so.0 that links against libtimeclock-absent.so.1, which is then deleted; null when cc fails. */
function libusbNeedingAbsentLibrary(): string | null {
  const d = dir();
  const cc = (args: string[]) => spawnSync('cc', ['-shared', '-fPIC', ...args], { cwd: d }).status === 0;
  fs.writeFileSync(path.join(d, 'a.c'), 'int absent(void) { return 0; }\n');
  fs.writeFileSync(path.join(d, 'b.c'), 'int absent(void);\nint uses_absent(void) { return absent(); }\n');
  const built =
    cc(['-o', 'libtimeclock-absent.so.1', '-Wl,-soname,libtimeclock-absent.so.1', 'a.c']) &&
    cc([
      '-o',
      'libusb-1.0.so.0',
      '-Wl,-soname,libusb-1.0.so.0',
      'b.c',
      '-Wl,--no-as-needed',
      '-L.',
      '-l:libtimeclock-absent.so.1',
    ]);
  if (!built) return null;
  fs.rmSync(path.join(d, 'libtimeclock-absent.so.1'));
  return d;
}
const STAND_IN = libusbNeedingAbsentLibrary();

function expectOneLine(stderr: string, expected: string | RegExp): void {
  expect(stderr).not.toMatch(/^\s+at /m); // no stack trace
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  if (typeof expected === 'string') expect(lines[0]).toBe(expected);
  else expect(lines[0]).toMatch(expected);
}

const BROKEN = String.raw`cannot use USB HID readers: libusb-1\.0\.so\.0 cannot be loaded \(/\S+/libusb-1\.0\.so\.0: file too short; Debian package libusb-1\.0-0\)`;

describe('USB HID libraries that cannot be loaded', () => {
  it('hid list where a library libusb needs is absent (built with cc): one line naming it, exit 1', async () => {
    expect(STAND_IN, 'cc could not build the stand-in libusb (install gcc)').not.toBeNull();
    const res = await runCli(['hid', 'list'], { LD_LIBRARY_PATH: STAND_IN ?? '', TIMECLOCK_DATA_DIR: dir() });
    expect(res.code).toBe(1);
    expectOneLine(
      res.stderr,
      "timeclock: cannot use USB HID readers: libtimeclock-absent.so.1 is missing (a library node-hid's native binding needs)",
    );
  });

  it.each([[['hid', 'list']], [['hid', 'list', '--json']], [['hid', 'record', 'capture.hex', '--seconds', '1']]])(
    'timeclock %j with a broken libusb-1.0.so.0: one line naming it, exit 1',
    async (args) => {
      const data = dir();
      const res = await runCli(
        args.map((a) => (a === 'capture.hex' ? path.join(data, a) : a)),
        { LD_LIBRARY_PATH: brokenLibusbDir(), TIMECLOCK_DATA_DIR: data },
      );
      expect(res.code).toBe(1);
      expectOneLine(res.stderr, new RegExp(`^timeclock: ${BROKEN}$`));
      expect(res.stdout).toBe('');
      expect(fs.existsSync(path.join(data, 'capture.hex'))).toBe(false);
    },
  );

  it('the agent with a reader configured keeps taking typed punches; the reader status says why it is not connected', async () => {
    const data = dir();
    const config = path.join(data, 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        readers: [{ name: 'door', match: { vendorId: '0xffff', productId: '0x0035' }, reconnectMs: 200 }],
      }),
    );
    // The mock API with the demo's roster: a config file that names no API no longer starts the
    // demo (issue 25 item 10). The code comes in on standard input as from the keyboard.
    const mock = await startMockServer({ seed: demoSeed() });
    cleanups.push(() => void mock.close());
    const env = {
      LD_LIBRARY_PATH: brokenLibusbDir(),
      TIMECLOCK_DATA_DIR: data,
      TIMECLOCK_LOG_LEVEL: 'error',
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
    };
    const res = await runCli(['start', '--headless', '--config', config], env, '1001\n', 30_000);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^registered .+ \d\d:\d\d — NSR \d{9} — entry$/m);
    expect(res.stderr).not.toMatch(/^\s+at /m);

    const status = await runCli(['status', '--json', '--config', config], env);
    const s = JSON.parse(status.stdout) as {
      queue: { sent: number; pending: number };
      readers: Array<Record<string, unknown>>;
    };
    expect(s.queue.sent + s.queue.pending).toBe(1);
    expect(s.readers).toEqual([
      expect.objectContaining({
        name: 'door',
        connected: false,
        lastError: expect.stringMatching(new RegExp(`^${BROKEN}$`)),
      }),
    ]);
  });
});
