/**
 * A real terminal process whose system clock is stepped back 2 h while punches wait (issue 12):
 * libfaketime (Debian's, installed by .ci/run) shifts the process's wall clock from a file the
 * test rewrites; the monotonic clock stays real, as under NTP. Before, nothing was sent for the
 * length of the step although the service was up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localDateTime } from '../../src/domain/time/local-time.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { lineMatching, spawnCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function libfaketime(): string {
  const found = fs
    .readdirSync('/usr/lib')
    .map((d) => path.join('/usr/lib', d, 'faketime', 'libfaketime.so.1'))
    .find((p) => fs.existsSync(p));
  if (!found) throw new Error('libfaketime is not installed (Debian package faketime; .ci/run installs it)');
  return found;
}

describe('the system clock stepped back under a running terminal (libfaketime)', () => {
  it('2 h fast, then NTP steps it back: waiting punches go within the normal back-off, at the true local time', async () => {
    const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const shift = path.join(t.dir, 'faketime');
    fs.writeFileSync(shift, '+2h\n');
    const config = path.join(t.dir, 'config.json');
    // The faked clock is 2 h off though the box may be NTP-synchronised: say it is not, so the service's clock wins on
    // any box.
    fs.writeFileSync(
      config,
      JSON.stringify({
        timezone: 'America/Sao_Paulo',
        retry: { baseMs: 300, maxMs: 600 },
        clock: { ntpSynchronized: 'no' },
      }),
    );
    const child = spawnCli(['start', '--headless', '--json', '--config', config], {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
      LD_PRELOAD: libfaketime(),
      FAKETIME_TIMESTAMP_FILE: shift,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    await lineMatching(child.stderr, /ready: type or scan/, 20_000);
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    const before = localDateTime(Date.now(), 'America/Sao_Paulo');
    child.stdin.write('1001\n');
    const line = JSON.parse(await lineMatching(child.stdout, /^\{/, 10_000)) as {
      ok: boolean;
      local_date: string;
      local_time: string;
    };
    const after = localDateTime(Date.now(), 'America/Sao_Paulo');
    expect(line.ok).toBe(true);
    await waitFor(() => mock.requests().some((r) => r.fault === 'server_error'), 'the first attempt failed', 10_000);

    fs.writeFileSync(shift, '+0\n'); // NTP steps the clock back by 2 h
    mock.setFaults(null);
    await waitFor(() => mock.records().length === 1, 'sent within seconds of the step, not 2 h later', 8_000);
    // Anchored on the service's clock at start: the true local time, shown and sent.
    const shown = `${line.local_date}T${line.local_time}`;
    expect([`${before.date}T${before.time}`, `${after.date}T${after.time}`]).toContain(shown);
    expect(mock.records()[0]?.time).toBe(shown);
    child.stdin.end();
    await waitFor(() => child.exitCode !== null, 'stopped', 30_000);
  });
});
