/**
 * The headless console on a real terminal (a pty made by util-linux `script`), with
 * `pin.requiredFor: ["badge"]` (issue 12): a reader's badge burst asks for its owner's PIN, and the
 * PIN typed next answers the agent's challenge. It used to be taken as an ID: Ana's PIN 1002
 * registered João, whose external id is 1002, and the PIN was echoed in clear.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PIN on the headless console (a pty)', () => {
  it("a badge's PIN answers the agent's challenge, is never echoed, and registers only the badge's owner", async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = path.join(t.dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ timezone: 'America/Sao_Paulo', pin: { requiredFor: ['badge'] } }));
    const env = {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
      TIMECLOCK_CONFIG: config,
    };
    expect((await runCli(['roster', 'sync'], env)).code).toBe(0);
    expect((await runCli(['enroll', 'badge', '0004817263', '1001'], env)).code).toBe(0);
    // Ana's PIN is João's external id: the trap.
    expect((await runCli(['pin', 'set', '1001'], env, '1002\n')).code).toBe(0);

    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --headless`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TZ: 'UTC', TERM: 'dumb', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    await waitFor(() => screen.includes('ready: type or scan'), 'the console ready', 20_000);

    child.stdin.write('0004817263\r'); // a keyboard-wedge reader: the whole burst at once
    await waitFor(() => /pin: .*type your PIN/.test(screen), 'asked for the PIN', 10_000);
    const before = screen.length;
    for (const ch of '1002') {
      child.stdin.write(ch); // a person: one key at a time
      await sleep(80);
    }
    child.stdin.write('\r');
    await waitFor(
      () => /registered Ana Paula Ferreira da Silva \d\d:\d\d/.test(screen),
      'registered the badge owner',
      10_000,
    );
    const typed = screen.slice(before);
    expect(typed).toContain('****');
    expect(typed).not.toMatch(/1002/);
    expect(screen).not.toMatch(/João Carlos/);
    await waitFor(() => mock.records().length === 1, 'delivered');
    expect(mock.records()[0]?.employee_external_id).toBe('1001');
    child.stdin.write('\x04'); // Ctrl-D ends the console
    await waitFor(() => child.exitCode !== null, 'the console stopped', 30_000);
  });

  it('issue 29: 1001 types the ID and walks away; 1002 types 1002 and the PIN: 1002 is registered, 1001 gets no wrong-PIN strike', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = path.join(t.dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ timezone: 'America/Sao_Paulo', pin: { requiredFor: ['id'] } }));
    const env = {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
      TIMECLOCK_CONFIG: config,
    };
    expect((await runCli(['roster', 'sync'], env)).code).toBe(0);
    expect((await runCli(['pin', 'set', '1001'], env, '4826\n')).code).toBe(0);
    expect((await runCli(['pin', 'set', '1002'], env, '5937\n')).code).toBe(0);
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} start --headless`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', TZ: 'UTC', TERM: 'dumb', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let screen = '';
    child.stdout.on('data', (d: Buffer) => (screen += d.toString()));
    child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
    await waitFor(() => screen.includes('ready: type or scan'), 'the console ready', 20_000);
    /** A person at the keyboard: one key at a time (a reader's burst would be a badge). */
    const type = async (line: string): Promise<void> => {
      for (const ch of line) {
        child.stdin.write(ch);
        await sleep(80);
      }
      child.stdin.write('\r');
    };
    await type('1001');
    await waitFor(() => /pin: Ana Paula Ferreira da Silva, type your PIN/.test(screen), "asked for Ana's PIN", 10_000);
    await type('1002');
    await waitFor(() => /pin: João Carlos[^\n]*, type your PIN/.test(screen), "asked for João's PIN", 10_000);
    expect(screen).not.toMatch(/wrong PIN/i);
    await type('5937');
    await waitFor(() => /registered João Carlos[^\n]* \d\d:\d\d/.test(screen), 'registered João', 10_000);
    await waitFor(() => mock.records().length === 1, 'delivered');
    expect(mock.records()[0]?.employee_external_id).toBe('1002');
    // Ana comes back: her allowance is whole (a wrong PIN leaves 4 of 5 tries).
    await type('1001');
    await waitFor(() => (screen.match(/pin: Ana Paula/g) ?? []).length === 2, "asked for Ana's PIN again", 10_000);
    await type('9999');
    await waitFor(() => /Wrong PIN \(\d tries? left\)/.test(screen), 'the wrong PIN answered', 10_000);
    expect(screen).toMatch(/Wrong PIN \(4 tries left\)/);
    child.stdin.write('\x04');
    await waitFor(() => child.exitCode !== null, 'the console stopped', 30_000);
  });
});
