/**
 * Issue 25 item 8: a child process of ours gets no secret it has no use for. The real CLI runs
 * with every secret the configuration reads from the environment (the API token, the AFD signing
 * password, proxy credentials, a Redis URL with its password) and stand-ins first on PATH for the
 * programs it starts (systemd-notify under a service, timedatectl for the clock check and doctor,
 * openssl for `afd verify`); each stand-in writes down its own environment, which is then read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const SECRETS = {
  TIMECLOCK_API_TOKEN: 'tok-CHILD-MUST-NOT-SEE',
  TIMECLOCK_AFD_SIGNING_PASSWORD: 'pw-CHILD-MUST-NOT-SEE',
  HTTPS_PROXY: 'http://kiosk:proxy-CHILD-MUST-NOT-SEE@127.0.0.1:9',
  TIMECLOCK_RATE_REDIS_URL: 'redis://:redis-CHILD-MUST-NOT-SEE@127.0.0.1:9',
};
const MARK = 'CHILD-MUST-NOT-SEE';
const SOCKET = '/run/systemd/notify-child-env-test';

const tmp = tempDir('timeclock-child-env-');
const bin = path.join(tmp.dir, 'bin');
const dumps = path.join(tmp.dir, 'dumps');
let mock: MockServer;
let closedPort: number;

/**
 * A stand-in that appends its environment (NUL-separated, then a record separator) to dumps/<name>, then says `out`.
 */
function standIn(name: string, out = ''): void {
  fs.writeFileSync(
    path.join(bin, name),
    `#!/bin/sh\nenv -0 >> '${path.join(dumps, name)}'\nprintf '\\036' >> '${path.join(dumps, name)}'\n${out ? `printf '%s\\n' '${out}'\n` : ''}`,
    { mode: 0o755 },
  );
}

/** Every environment `name` was started with, as maps. */
function envsOf(name: string): Array<Map<string, string>> {
  const file = path.join(dumps, name);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\x1e')
    .filter((r) => r.length > 0)
    .map(
      (r) =>
        new Map(
          r
            .split('\0')
            .filter(Boolean)
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as [string, string]),
        ),
    );
}

function baseEnv(dataDir: string): Record<string, string> {
  return {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    HOME: tmp.dir,
    TZ: 'UTC',
    TIMECLOCK_DATA_DIR: dataDir,
    TIMECLOCK_LOG_LEVEL: 'warn',
    TIMECLOCK_API_URL: `${mock.url}`,
    NO_PROXY: '127.0.0.1,localhost',
    ...SECRETS,
  };
}

beforeAll(async () => {
  fs.mkdirSync(bin);
  fs.mkdirSync(dumps);
  standIn('systemd-notify');
  standIn('timedatectl', 'yes');
  standIn('openssl');
  mock = await startMockServer({ seed: demoSeed(), tokens: [SECRETS.TIMECLOCK_API_TOKEN] });
  // A port nothing listens on: the Redis of the URL is unreachable (the terminal keeps its own budget).
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closedPort = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  SECRETS.TIMECLOCK_RATE_REDIS_URL = `redis://:redis-${MARK}@127.0.0.1:${closedPort}`;
});
afterAll(async () => {
  await mock?.close();
  tmp.cleanup();
});

const leaks = (env: Map<string, string>): string[] =>
  [...env].filter(([k, v]) => k.includes(MARK) || v.includes(MARK)).map(([k]) => k);

describe('children of the terminal get no secret', () => {
  it('systemd-notify and the clock check, started by the running service, see neither the token, the signing password, proxy credentials nor the Redis URL', async () => {
    let child: ChildProcess | null = null;
    let code: number | null = null;
    let stderr = '';
    try {
      child = spawn(process.execPath, [CLI, 'start', '--headless'], {
        env: { ...baseEnv(path.join(tmp.dir, 'data')), NOTIFY_SOCKET: SOCKET, WATCHDOG_USEC: '400000' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (c) => (code = c ?? -1));
      // READY=1, then watchdog pings: several systemd-notify children; the clock check at start.
      await waitFor(
        () => {
          if (code !== null) throw new Error(`the terminal exited (${code}):\n${stderr}`);
          return envsOf('systemd-notify').length >= 3 && envsOf('timedatectl').length >= 1;
        },
        'three systemd-notify and one timedatectl run',
        30_000,
      );
    } finally {
      child?.kill('SIGTERM');
      await waitFor(() => code !== null, 'the terminal stops', 20_000);
    }
    const notify = envsOf('systemd-notify');
    for (const env of notify) {
      expect(leaks(env)).toEqual([]);
      // What it needs is there.
      expect(env.get('NOTIFY_SOCKET')).toBe(SOCKET);
      expect(env.get('PATH')).toContain(bin);
    }
    for (const env of envsOf('timedatectl')) {
      expect(leaks(env)).toEqual([]);
      expect(env.get('TIMECLOCK_API_URL')).toBe(mock.url); // not a secret: the rest of the environment is passed on
    }
    // The terminal itself had them: it reached the API with the token.
    expect(mock.requests().some((r) => r.path.includes('/employees'))).toBe(true);
  });

  it('timeclock doctor (timedatectl) and timeclock afd verify (openssl) start theirs without secrets too', async () => {
    const env = baseEnv(path.join(tmp.dir, 'data-2'));
    const before = envsOf('timedatectl').length;
    const doctor = await runCli(['doctor'], env);
    expect(doctor.stdout + doctor.stderr).toMatch(/NTP|clock|time/i);
    const afd = path.join(tmp.dir, 'some.afd');
    fs.writeFileSync(afd, 'not an AFD\r\n');
    fs.writeFileSync(`${afd}.p7s`, 'not a signature');
    await runCli(['afd', 'verify', afd], env);
    const ran = [...envsOf('timedatectl').slice(before), ...envsOf('openssl')];
    expect(envsOf('timedatectl').length).toBeGreaterThan(before);
    expect(envsOf('openssl').length).toBeGreaterThanOrEqual(1);
    for (const e of ran) expect(leaks(e)).toEqual([]);
  });
});
