/**
 * Issue 14 items 6 and 8 on the real command line (`node dist/src/cli.js start --headless`, the
 * embedded demo API): JSON log lines on a piped stderr, journald priorities when JOURNAL_STREAM
 * names that stderr, the human format on a terminal (a pty from script(1)), the terminal id in
 * every line and in status, and metrics served by the running terminal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, spawnCli } from '../helpers/cli.js';
import { httpGet, sample, scrape } from '../helpers/prom-text.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});
function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}
function track(child: ChildProcess): void {
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}
async function takenPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => s.close(() => r())));
  return (s.address() as net.AddressInfo).port;
}
const exited = (child: ChildProcess) =>
  new Promise<number | null>((r) =>
    child.exitCode !== null ? r(child.exitCode) : child.once('close', (code) => r(code)),
  );

type Line = { t: string; level: string; msg: string; terminal: string } & Record<string, unknown>;
/** Every line parsed as JSON (an unparsable line fails the test, naming it). */
function jsonLines(text: string, prefixed = false): Line[] {
  const lines = text.split('\n').filter((l) => l !== '');
  return lines.map((l) => {
    const body = prefixed ? l.replace(/^<\d>/, '') : l;
    try {
      return JSON.parse(body) as Line;
    } catch {
      throw new Error(`not a JSON log line: ${JSON.stringify(l)}`);
    }
  });
}

describe('timeclock start with stderr piped', () => {
  it('writes only JSON lines naming the terminal, serves metrics while it runs, and status names the terminal', async () => {
    const dir = data();
    const env = {
      TIMECLOCK_DATA_DIR: dir,
      TIMECLOCK_TERMINAL_ID: 'door-7',
      TIMECLOCK_METRICS_LISTEN: '127.0.0.1:0',
      TIMECLOCK_LOG_LEVEL: 'debug',
    };
    const child = spawnCli(['start', '--headless'], env);
    track(child);
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    await waitFor(() => stderr.includes('ready: type or scan'), 'the terminal ready', 20_000);
    const served = jsonLines(stderr).find((l) => l.msg === 'metrics served');
    const origin = String(served?.metrics).replace(/\/metrics$/, '');
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const before = await scrape(origin);
    expect(sample(before, 'timeclock_build_info', { terminal: 'door-7' })).toBe(1);
    expect(sample(before, 'timeclock_roster_employees')).toBe(36);
    expect(before.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(await httpGet(`${origin}/healthz`)).toMatchObject({ status: 200, text: 'ok\n' });

    child.stdin.write('1001\n');
    await waitFor(() => /^registered /m.test(stdout), 'the punch registered');
    const end = Date.now() + 10_000;
    while (sample(await scrape(origin), 'timeclock_punches', { state: 'sent' }) !== 1) {
      if (Date.now() > end) throw new Error('the punch never showed as sent in /metrics');
      await new Promise((r) => setTimeout(r, 50));
    }
    child.stdin.end();
    expect(await exited(child)).toBe(0);
    // Stopped with the agent.
    await expect(httpGet(`${origin}/healthz`)).rejects.toThrow(/ECONNREFUSED/);

    const lines = jsonLines(stderr);
    expect(lines.length).toBeGreaterThan(8);
    for (const l of lines) {
      expect(l).toMatchObject({
        t: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        level: expect.stringMatching(/^(debug|info|notice|warn|error)$/),
        msg: expect.any(String),
      });
      expect(l.terminal).toBe('door-7');
    }
    expect(lines.map((l) => l.level)).toEqual(expect.arrayContaining(['info', 'notice']));
    expect(lines.find((l) => l.msg.startsWith('ready:'))?.level).toBe('notice');

    const text = await runCli(['status'], { TIMECLOCK_DATA_DIR: dir, TIMECLOCK_TERMINAL_ID: 'door-7' });
    expect(text.stdout).toMatch(new RegExp(`^terminal: +door-7 on host ${os.hostname()}$`, 'm'));
    const json = await runCli(['status', '--json'], { TIMECLOCK_DATA_DIR: dir, TIMECLOCK_TERMINAL_ID: 'door-7' });
    expect(JSON.parse(json.stdout)).toMatchObject({ terminalId: 'door-7', queue: { sent: 1 } });
  });

  it('without a configured id, a random id made at the first start and kept in the data directory names the terminal in logs and status, with the host name', async () => {
    const dir = data();
    const res = await runCli(['start', '--headless'], { TIMECLOCK_DATA_DIR: dir }, '');
    expect(res.code).toBe(0);
    const id = fs.readFileSync(path.join(dir, 'terminal-id'), 'utf8').trim();
    expect(id).toMatch(/^tc-[a-z2-7]{8}$/);
    for (const l of jsonLines(res.stderr)) expect(l.terminal).toBe(id);
    expect(jsonLines(res.stderr).find((l) => l.msg === 'timeclock-kiosk starting')).toMatchObject({
      host: os.hostname(),
    });
    expect((await runCli(['status'], { TIMECLOCK_DATA_DIR: dir })).stdout).toContain(
      `\nterminal:      ${id} on host ${os.hostname()}\n`,
    );
    // The next start keeps it.
    const again = await runCli(['start', '--headless'], { TIMECLOCK_DATA_DIR: dir }, '');
    for (const l of jsonLines(again.stderr)) expect(l.terminal).toBe(id);
  });

  it('a metrics port already taken is one error line; the terminal takes and delivers punches without metrics', async () => {
    const port = await takenPort();
    const res = await runCli(
      ['start', '--headless'],
      { TIMECLOCK_DATA_DIR: data(), TIMECLOCK_METRICS_LISTEN: `127.0.0.1:${port}`, TIMECLOCK_LOG_LEVEL: 'warn' },
      '1001\n',
    );
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^registered Ana Paula Ferreira da Silva \d\d:\d\d — NSR \d{9} — entry$/m);
    const errors = jsonLines(res.stderr).filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual([
      `metrics not served: 127.0.0.1:${port} is already in use (another program, or another terminal, listens there); the terminal runs on without metrics and /healthz`,
    ]);
  });

  it('why it could not start is a JSON line too (a person at a terminal gets text from other commands)', async () => {
    const res = await runCli(['start', '--headless'], {
      TIMECLOCK_DATA_DIR: data(),
      TIMECLOCK_RATE_LIMIT: '0',
      TIMECLOCK_TERMINAL_ID: 'door-9',
    });
    expect(res.code).toBe(2);
    const [line, ...rest] = jsonLines(res.stderr);
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 'error',
      terminal: 'door-9',
      msg: expect.stringMatching(/^invalid configuration:\n.*rateLimit\.limit \(from TIMECLOCK_RATE_LIMIT\)/s),
    });
    const status = await runCli(['status'], { TIMECLOCK_DATA_DIR: data(), TIMECLOCK_RATE_LIMIT: '0' });
    expect(status.stderr).toMatch(/^timeclock: invalid configuration/);
  });
});

describe('under systemd (JOURNAL_STREAM)', () => {
  /** The CLI with stderr on a file, as journald's stream would be; JOURNAL_STREAM names that file, or `journal`. */
  async function startWithStderrFile(env: Record<string, string>, journal?: string): Promise<string> {
    const file = path.join(data(), 'stderr');
    const fd = fs.openSync(file, 'w');
    const st = fs.fstatSync(fd, { bigint: true });
    const child = spawn(process.execPath, [CLI, 'start', '--headless'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.tmpdir(),
        TZ: 'UTC',
        JOURNAL_STREAM: journal ?? `${st.dev}:${st.ino}`,
        ...env,
      },
      stdio: ['pipe', 'pipe', fd],
    });
    fs.closeSync(fd);
    track(child);
    child.stdin?.end('1001\n');
    expect(await exited(child)).toBe(0);
    return fs.readFileSync(file, 'utf8');
  }

  it('prefixes every line with its journald priority when JOURNAL_STREAM names stderr', async () => {
    const port = await takenPort();
    const text = await startWithStderrFile({
      TIMECLOCK_DATA_DIR: data(),
      TIMECLOCK_LOG_LEVEL: 'debug',
      TIMECLOCK_METRICS_LISTEN: `127.0.0.1:${port}`,
    });
    const raw = text.split('\n').filter((l) => l !== '');
    const priority: Record<string, string> = { error: '3', warn: '4', notice: '5', info: '6', debug: '7' };
    const lines = jsonLines(text, true);
    raw.forEach((l, i) => expect(l.slice(0, 3), l).toBe(`<${priority[lines[i]?.level ?? '']}>`));
    // (Every level's number, debug's among them: test/unit/log.test.ts.)
    expect(new Set(lines.map((l) => l.level))).toEqual(new Set(['error', 'notice', 'info']));
  });

  it('no prefix when JOURNAL_STREAM is inherited but stderr goes elsewhere', async () => {
    const text = await startWithStderrFile({ TIMECLOCK_DATA_DIR: data() }, '1:2');
    expect(
      text
        .split('\n')
        .filter((l) => l !== '')
        .every((l) => l.startsWith('{')),
    ).toBe(true);
    expect(jsonLines(text).length).toBeGreaterThan(3);
  });
});

describe('on a terminal', () => {
  it('keeps the human format (script(1) gives the CLI a pty)', async () => {
    const dir = data();
    const cmd = `${process.execPath} ${CLI} start --headless`;
    const child = spawn('script', ['-qfc', cmd, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.tmpdir(),
        TZ: 'UTC',
        TERM: 'dumb',
        TIMECLOCK_DATA_DIR: dir,
        TIMECLOCK_TERMINAL_ID: 'door-7',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    track(child);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('ready: type or scan'), 'the terminal ready on the pty', 20_000);
    child.stdin?.write('\x04'); // Ctrl-D: the raw-mode terminal ends
    expect(await exited(child)).toBe(0);
    const lines = out.split(/\r*\n/).filter((l) => l.trim() !== '');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^timeclock \[info\] timeclock-kiosk starting version=\S+ terminal=door-7 /),
        expect.stringMatching(/^timeclock: ready: type or scan/),
      ]),
    );
    expect(lines.filter((l) => /^\s*[{<]/.test(l))).toEqual([]);
  });
});
