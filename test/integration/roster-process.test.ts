/**
 * The terminal as a process against a server whose roster page is cut mid-body (issue 10): it used
 * to crash at every start (an exception escaped the sync), a crash loop under systemd. Now the
 * punch typed before any roster arrived is kept, the sync is retried, and the punch is delivered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { lineMatching, spawnCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('the terminal process', () => {
  it('survives roster pages cut mid-body: keeps the punch, retries the roster, delivers at the capture time', async () => {
    const mock = await startMockServer({
      rateLimit: { limit: 60, windowMs: 1_000 },
      variants: { cutBody: { page: 1, times: 3 } },
    });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const config = path.join(t.dir, 'config.json');
    // The terminal's zone is the site's (the demo's São Paulo): an unknown worker's time is shown in it.
    fs.writeFileSync(
      config,
      JSON.stringify({ timezone: 'America/Sao_Paulo', roster: { retryBaseMs: 200, retryMaxMs: 500 } }),
    );
    const child = spawnCli(['start', '--headless', '--json', '--config', config], {
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_DATA_DIR: path.join(t.dir, 'data'),
      TIMECLOCK_LOG_LEVEL: 'error',
    });
    cleanups.push(() => void child.kill('SIGKILL'));
    let exited: number | null = null;
    child.on('exit', (code) => (exited = code ?? -1));
    await lineMatching(child.stderr, /ready: type or scan/, 20_000);
    child.stdin.write('1001\n');
    const line = JSON.parse(await lineMatching(child.stdout, /^\{/, 10_000)) as {
      ok: boolean;
      note: string | null;
      local_date: string;
      local_time: string;
    };
    expect(line).toMatchObject({ ok: true, note: 'awaiting_roster' });
    await waitFor(
      () => mock.records().some((r) => r.employee_external_id === '1001'),
      'the kept punch delivered',
      15_000,
    );
    expect(mock.records().find((r) => r.employee_external_id === '1001')?.time).toBe(
      `${line.local_date}T${line.local_time}`,
    );
    expect(mock.requests().filter((r) => r.fault === 'cut_body')).toHaveLength(3);
    expect(exited).toBeNull();
    child.stdin.end();
    await waitFor(() => exited !== null, 'the terminal stops at end of input', 30_000);
    expect(exited).toBe(0);
  });
});
