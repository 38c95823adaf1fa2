import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export type Line = { check: string; status: 'ok' | 'warn' | 'fail'; detail: string };

/** The order `timeclock doctor` promises (no readers configured). */
export const CHECKS = [
  'configuration',
  'data directory',
  'disk space',
  'database',
  'proxy',
  'trust',
  'service',
  'site',
  'roster',
  'roster evidence',
  'clock',
  'time sync',
  'readers',
  'admin PIN',
  'browser',
  'versions',
  'USB drives',
  'time zone',
  'NSR numbering',
  'journal archives',
];

/** `ok   name: detail` lines back into records; any other line fails the test. */
export function parseLines(stdout: string): Line[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((l) => {
      const m = /^(ok|warn|fail) +(.+?): (.*)$/.exec(l);
      if (!m) throw new Error(`not a doctor line: ${l}`);
      return { status: m[1] as Line['status'], check: m[2] as string, detail: m[3] as string };
    });
}

export function byCheck(lines: Line[]): Record<string, Line> {
  return Object.fromEntries(lines.map((l) => [l.check, l]));
}

/** The status of every check, in order: what a test pins down exactly. */
export const statuses = (lines: Line[]): Array<[string, string]> => lines.map((l) => [l.check, l.status]);

/**
 * A directory for PATH holding a `timedatectl` that prints `answer` (none when null), and an
 * executable stand-in for Chromium: what the box has no longer depends on the machine running the tests.
 */
export function fakeTools(dir: string, answer: string | null): { bin: string; chromium: string } {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  if (answer !== null) {
    fs.writeFileSync(path.join(bin, 'timedatectl'), `#!/bin/sh\necho ${answer}\n`, { mode: 0o755 });
  }
  const chromium = path.join(dir, 'chromium');
  fs.writeFileSync(chromium, '#!/bin/sh\n', { mode: 0o755 });
  return { bin, chromium };
}

/** A loopback port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * sha256 and mtime of every file in `dir` but SQLite's -shm index and an empty -wal (a read-only
 * connection creates both when absent); compared before and after, it shows nothing was written.
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, f);
    if (f.endsWith('-shm') || (f.endsWith('-wal') && fs.statSync(p).size === 0)) continue;
    out[f] = `${crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex')} ${fs.statSync(p).mtimeMs}`;
  }
  return out;
}

/** The snapshot once it has stayed the same for `quietMs` (a starting agent's writes are over). */
export async function settled(dir: string, quietMs = 1_000, timeoutMs = 15_000): Promise<Record<string, string>> {
  const end = Date.now() + timeoutMs;
  let last = snapshot(dir);
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    const cur = snapshot(dir);
    if (JSON.stringify(cur) !== JSON.stringify(last)) {
      last = cur;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return cur;
    }
  }
  throw new Error(`files in ${dir} kept changing for ${timeoutMs} ms`);
}

/**
 * The environment a doctor run gets: the mock API and its token, the site, the data directory, the stand-in tools first
 * on PATH.
 */
export function doctorEnv(
  o: { apiUrl: string; siteId: string; dataDir: string; tools: { bin: string; chromium: string } },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    TIMECLOCK_API_URL: o.apiUrl,
    TIMECLOCK_API_TOKEN: 'demo-token',
    TIMECLOCK_SITE_ID: o.siteId,
    TIMECLOCK_DATA_DIR: o.dataDir,
    TIMECLOCK_LOG_LEVEL: 'error',
    PATH: `${o.tools.bin}:${process.env.PATH ?? ''}`,
    TIMECLOCK_CHROMIUM: o.tools.chromium,
    ...extra,
  };
}
