/**
 * `timeclock start --browser PATH`: the terminal starts the kiosk browser on its own screen address
 * (with this run's session token), starts it again when it goes away, and stops it on the way out.
 * The "browser" here is a small script that writes down how it was started and then waits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, lineMatching, spawnCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { startMockServer } from '../../src/mock/mock-server.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function fakeBrowser(dir: string): { exe: string; launches: () => string[][]; pids: () => number[]; tokens: () => Array<string | null>; languages: () => Array<string | null> } {
  const log = path.join(dir, 'launches.jsonl');
  const exe = path.join(dir, 'fake-browser');
  // Records its pid and arguments, then waits like a browser does until it is killed.
  fs.writeFileSync(
    exe,
    `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify({ pid: process.pid, args: process.argv.slice(2), token: process.env.TIMECLOCK_API_TOKEN ?? null, language: process.env.LANGUAGE ?? null }) + '\\n');\nsetInterval(() => {}, 1000);\n`,
    { mode: 0o755 },
  );
  type Launch = { pid: number; args: string[]; token: string | null; language: string | null };
  const read = (): Launch[] => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Launch) : []);
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
    const child = spawnCli(['start', '--headless'], { TIMECLOCK_DATA_DIR: path.join(t.dir, 'data') });
    cleanups.push(() => child.kill('SIGKILL'));
    const line = await lineMatching(child.stderr, /kiosk screen: http/);
    const url = new URL(/kiosk screen: (\S+)/.exec(line)?.[1] ?? '');
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

describe('timeclock start --browser', () => {
  it('opens the screen address in kiosk mode, restarts the browser when it exits, and stops it with the terminal', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const browser = fakeBrowser(t.dir);
    // A real API with its token in the environment, as the systemd units give it.
    const mock = await startMockServer({ tokens: ['browser-must-not-see-this'] });
    cleanups.push(() => void mock.close());
    const child = spawnCli(['start', '--headless', '--browser', browser.exe], {
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'browser-must-not-see-this',
      TIMECLOCK_LANGUAGE: 'es',
    });
    cleanups.push(() => child.kill('SIGKILL'));
    child.stdout.resume();
    const line = await lineMatching(child.stderr, /kiosk screen: http/);
    const url = /kiosk screen: (\S+)/.exec(line)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{64}$/);

    await waitFor(() => browser.launches().length === 1, 'the browser started');
    const [args = []] = browser.launches();
    expect(args).toContain('--kiosk');
    expect(args).toContain('--autoplay-policy=no-user-gesture-required');
    expect(args).toContain(`--user-data-dir=${path.join(t.dir, 'data', 'browser-profile')}`);
    expect(args[args.length - 1]).toBe(url);
    expect(browser.tokens()).toEqual([null]); // the token stays in the agent
    // The site's language is the browser's locale (its date fields): LANGUAGE on Linux, --lang elsewhere.
    expect(args).toContain('--lang=es');
    expect(browser.languages()).toEqual(['es']);

    // Someone closes it (or it crashes): it comes back, on the same address.
    const [first = 0] = browser.pids();
    process.kill(first, 'SIGKILL');
    await waitFor(() => browser.launches().length === 2, 'the browser started again', 15_000);
    expect(browser.launches()[1]?.at(-1)).toBe(url);

    const second = browser.pids()[1] ?? 0;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor(() => !alive(second), 'the browser stopped with the terminal', 10_000);
    expect(browser.launches()).toHaveLength(2);
  });
});
