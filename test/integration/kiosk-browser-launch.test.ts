/**
 * `timeclock start --browser PATH`: the terminal starts the kiosk browser on its own screen address
 * (with this run's session token), starts it again when it goes away, and stops it on the way out.
 * The "browser" here is a small script that writes down how it was started and then waits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, lineMatching, runCli, screenUrl, spawnCli } from '../helpers/cli.js';
import { SCREEN_CODE_PATH } from '../../src/contract.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { startMockServer } from '../../src/mock/mock-server.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function fakeBrowser(dir: string): {
  exe: string;
  launches: () => string[][];
  pids: () => number[];
  tokens: () => Array<string | null>;
  languages: () => Array<string | null>;
} {
  const log = path.join(dir, 'launches.jsonl');
  const exe = path.join(dir, 'fake-browser');
  // Records its pid and arguments, then waits like a browser does until it is killed.
  fs.writeFileSync(
    exe,
    `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, args: process.argv.slice(2), token: process.env.TIMECLOCK_API_TOKEN ?? null, language: process.env.LANGUAGE ?? null }) + '\\n');\nsetInterval(() => {}, 1000);\n`,
    { mode: 0o755 },
  );
  type Launch = { pid: number; args: string[]; token: string | null; language: string | null };
  const read = (): Launch[] =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Launch)
      : [];
  return {
    exe,
    launches: () => read().map((r) => r.args),
    pids: () => read().map((r) => r.pid),
    tokens: () => read().map((r) => r.token),
    languages: () => read().map((r) => r.language),
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('timeclock start as a service', () => {
  it('with standard input on /dev/null (systemd) it keeps running until SIGTERM, then stops cleanly', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const child = spawn(process.execPath, [CLI, 'start', '--headless'], {
      env: { PATH: process.env.PATH ?? '', HOME: t.dir, TZ: 'UTC', TIMECLOCK_DATA_DIR: path.join(t.dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill('SIGKILL'));
    child.stdout.resume();
    await lineMatching(child.stderr, /no standard input/);
    let exitCode: number | null | undefined;
    child.once('exit', (code) => (exitCode = code));
    await new Promise((r) => setTimeout(r, 1_500));
    expect(exitCode).toBeUndefined();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});

describe('timeclock start: the console shows every punch', () => {
  it('a punch made on the kiosk screen (web bridge) is printed on standard output like a typed one', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = { TIMECLOCK_DATA_DIR: path.join(t.dir, 'data') };
    const child = spawnCli(['start', '--headless'], env);
    cleanups.push(() => child.kill('SIGKILL'));
    await lineMatching(child.stderr, /kiosk screen: http/);
    const url = await screenUrl(env);
    const printed = lineMatching(child.stdout, /Ana Paula Ferreira da Silva/);
    const res = await fetch(new URL('/api/punch', url.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kiosk-token': url.searchParams.get('t') ?? '' },
      body: JSON.stringify({ credential: { kind: 'id', value: '1001' } }),
    });
    expect(res.status).toBe(200);
    expect(await printed).toMatch(/registered Ana Paula Ferreira da Silva \d\d:\d\d/);
    child.stdin.end();
  });
});

describe('the screen address and its token (issue 25)', () => {
  it('a log gets the address without the token; `timeclock screen-url` gives it whole from a 0600 file, and refuses once the terminal is gone', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const dataDir = path.join(t.dir, 'data');
    const env = { TIMECLOCK_DATA_DIR: dataDir };
    const none = await runCli(['screen-url'], env);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no kiosk terminal with a screen is running on .*start one with 'timeclock start'/);

    const child = spawnCli(['start', '--headless'], env);
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const line = await lineMatching(child.stderr, /kiosk screen: http/);
    const url = await screenUrl(env);
    const token = url.searchParams.get('t') ?? '';
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // Standard error is a pipe (a journal, a log shipper): the address, no token.
    expect((JSON.parse(line) as { msg: string }).msg).toBe(
      `kiosk screen: ${url.origin}/  (with its token: timeclock screen-url)`,
    );
    const file = path.join(dataDir, 'screen-url');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(url.href).toBe(`${url.origin}/?t=${token}`);
    expect((await runCli(['screen-url', 'extra'], env)).code).toBe(2);

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).not.toContain(token);
    expect(fs.existsSync(file)).toBe(false);
    expect((await runCli(['screen-url'], env)).code).toBe(1);
  });

  it('a terminal killed without cleaning up leaves a file that `timeclock screen-url` does not trust', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const env = { TIMECLOCK_DATA_DIR: path.join(t.dir, 'data') };
    const child = spawnCli(['start', '--headless'], env);
    cleanups.push(() => child.kill('SIGKILL'));
    child.stdout.resume();
    await lineMatching(child.stderr, /kiosk screen: http/);
    expect((await runCli(['screen-url'], env)).code).toBe(0);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const stale = await runCli(['screen-url'], env);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/\(pid \d+\) is no longer running/);
    expect(stale.stdout).toBe('');
  });

  it('on a terminal (TTY) the person who started it sees the whole address', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --headless`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        TZ: 'UTC',
        TERM: 'dumb',
        TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    await waitFor(() => screen.includes('ready: type or scan'), 'the console ready', 20_000);
    expect(screen).toMatch(
      /timeclock: kiosk screen: http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{64} {2}\(e\.g\. chromium --kiosk/,
    );
    child.stdin.write('\x04');
    await waitFor(() => child.exitCode !== null, 'the console stopped', 30_000);
  });
});

describe('timeclock start --browser', () => {
  it('opens the screen address in kiosk mode, restarts the browser when it exits, and stops it with the terminal', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const browser = fakeBrowser(t.dir);
    // A real API with its token in the environment, as the systemd units give it.
    const mock = await startMockServer({ tokens: ['browser-must-not-see-this'] });
    cleanups.push(() => void mock.close());
    const env = {
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'browser-must-not-see-this',
      TIMECLOCK_LANGUAGE: 'es',
    };
    const child = spawnCli(['start', '--headless', '--browser', browser.exe], env);
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    await lineMatching(child.stderr, /kiosk screen: http/);
    const url = await screenUrl(env);
    const token = url.searchParams.get('t') ?? '';
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    await waitFor(() => browser.launches().length === 1, 'the browser started');
    const [args = []] = browser.launches();
    expect(args).toContain('--kiosk');
    expect(args).toContain('--autoplay-policy=no-user-gesture-required');
    expect(args).toContain(`--user-data-dir=${path.join(t.dir, 'data', 'browser-profile')}`);
    expect(browser.tokens()).toEqual([null]); // the API token stays in the agent
    // Its command line, as every user of the box reads it: a one-time code, never the page token (issue 25).
    const [pid = 0] = browser.pids();
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(token);
    const opened = cmdline.split('\0').filter(Boolean).at(-1) ?? '';
    expect(opened).toMatch(new RegExp(`^${url.origin}/\\?c=[0-9a-f]{32}$`));
    // The code opens the screen once: the page's trade gets the token, a second one nothing.
    const trade = (c: string) =>
      fetch(`${url.origin}${SCREEN_CODE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: c }),
      });
    const code = new URL(opened).searchParams.get('c') ?? '';
    const traded = await trade(code);
    expect(traded.status).toBe(200);
    expect(await traded.json()).toEqual({ ok: true, token });
    expect((await trade(code)).status).toBe(403);
    // The site's language is the browser's locale (its date fields): LANGUAGE on Linux, --lang elsewhere.
    expect(args).toContain('--lang=es');
    expect(browser.languages()).toEqual(['es']);

    // Someone closes it (or it crashes): it comes back, on the same address.
    const [first = 0] = browser.pids();
    process.kill(first, 'SIGKILL');
    await waitFor(() => browser.launches().length === 2, 'the browser started again', 15_000);
    // Started again with a new code of its own (the first is spent), still not the token.
    const reopened = browser.launches()[1]?.at(-1) ?? '';
    expect(reopened).toMatch(new RegExp(`^${url.origin}/\\?c=[0-9a-f]{32}$`));
    expect(reopened).not.toBe(opened);
    expect((await trade(new URL(reopened).searchParams.get('c') ?? '')).status).toBe(200);

    const second = browser.pids()[1] ?? 0;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor(() => !alive(second), 'the browser stopped with the terminal', 10_000);
    expect(browser.launches()).toHaveLength(2);
    expect(stderr).not.toContain(token);
  });
});
