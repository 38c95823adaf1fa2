/**
 * The command line for punches a person must look at (issue 11): rejected ones retried one by one
 * or all at once, held ones sent again or marked delivered (audit-logged), and `flush` blocked, not
 * "queue empty", while the service answers from another address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('timeclock rejected / held / flush', () => {
  it('lists, retries in bulk and decides held punches from the command line; flush exits 3 on a set-up problem', async () => {
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 60, windowMs: 1_000 },
      variants: { errorBodyOn2xx: true },
    });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({ dataDir: t.dir, mock });
    await agent.start({ awaitRosterIfEmpty: true });
    for (const id of ['1001', '1002']) expect((await agent.punch({ kind: 'id', value: id })).ok).toBe(true);
    await waitFor(() => agent.status().queue.rejected === 2, 'two rejected');
    mock.setVariants({ forbiddenPunches: ['1003'] });
    expect((await agent.punch({ kind: 'id', value: '1003' })).ok).toBe(true);
    await waitFor(() => agent.status().queue.held === 1, 'one held');
    await agent.stop();

    const env = {
      TIMECLOCK_DATA_DIR: t.dir,
      TIMECLOCK_API_URL: mock.url,
      TIMECLOCK_API_TOKEN: 'demo-token',
      TIMECLOCK_RETRY_BASE_MS: '50',
      TIMECLOCK_LOG_LEVEL: 'error',
    };
    const rejected = await runCli(['rejected', 'list'], env);
    expect(rejected.stdout).toMatch(/Ana Paula Ferreira da Silva \(1001\)\t200 time outside the employee's schedule/);
    const held = JSON.parse((await runCli(['held', 'list', '--json'], env)).stdout) as {
      id: number;
      held_reason: string;
    }[];
    expect(held).toEqual([expect.objectContaining({ held_reason: 'forbidden' })]);

    const delivered = await runCli(['held', 'delivered', String(held[0]?.id)], env);
    expect(delivered).toMatchObject({ code: 0, stdout: `punch ${held[0]?.id} marked as delivered\n` });
    expect((await runCli(['held', 'delivered', String(held[0]?.id)], env)).code).toBe(1);
    expect((await runCli(['held', 'resend', 'x1'], env)).code).toBe(2);

    expect((await runCli(['rejected', 'retry', '--all'], env)).stdout).toBe('2 rejected punches queued again\n');
    mock.setVariants({ redirect: { status: 308, location: 'https://new.example/v2.1/times' } });
    const flush = await runCli(['flush', '--max-wait-ms', '20000'], env, '', 40_000);
    expect(flush.code).toBe(3);
    expect(flush.stdout).toMatch(
      /flush: stopped, a set-up problem: the service answered from another address: https:\/\/new\.example\/v2\.1\/times/,
    );
    expect(mock.records()).toHaveLength(0);

    mock.setVariants({});
    const ok = await runCli(['flush'], env, '', 40_000);
    expect(ok).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/queue empty \(sent 3, pending 0, in doubt 0, rejected 0, held 0\)/),
    });
    expect(mock.records()).toHaveLength(2);
  });
});
