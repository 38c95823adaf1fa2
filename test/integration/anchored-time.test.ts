/**
 * Service-anchored time (issue 12): with the system clock 2 h fast or slow, punches reach the
 * service at the true local time once any answer has been seen, and the first punch of a boot —
 * taken before any answer — is recomputed before it is sent. The wall clock is the real one plus
 * an offset; the mock's clock is the real one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { localDateTime } from '../../src/domain/local-time.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const HOUR = 3_600_000;
const trueLocal = (at: number) => localDateTime(at, 'America/Sao_Paulo');

describe('service-anchored time', () => {
  it.each([
    ['2 h fast', 2 * HOUR],
    ['2 h slow', -2 * HOUR],
  ])('clock %s: the first punch of a boot is recomputed before it is sent; later ones are anchored at capture', async (_what, offset) => {
    const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const make = (bootId: string) => testAgent({ dataDir: t.dir, mock, clock: { now: () => Date.now() + offset }, mono: () => performance.now(), bootId });
    // An earlier boot synced the roster; this boot has heard nothing from the service yet.
    const earlier = make('boot-1');
    await earlier.start({ awaitRosterIfEmpty: true });
    await earlier.stop();
    const agent = make('boot-2');
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });

    const before = trueLocal(Date.now());
    const first = await agent.punch({ kind: 'id', value: '1001' });
    const after = trueLocal(Date.now());
    // Shown on the wall clock (nothing better was known), marked to be recomputed…
    expect(first).toMatchObject({ ok: true, localTime: trueLocal(Date.now() + offset).time });
    // …and sent at the true local time: one probe fetched the service's clock first.
    await waitFor(() => mock.records().length === 1, 'delivered');
    expect([`${before.date}T${before.time}`, `${after.date}T${after.time}`]).toContain(mock.records()[0]?.time);
    const order = mock.requests().map((r) => `${r.method} ${r.path.split('/').pop()}${r.query.max_results === '1' ? ' (probe)' : ''}`);
    expect(order.slice(-2)).toEqual(['GET employees (probe)', 'POST times']);

    // From now on a punch is anchored when it is taken: the screen shows the true time too.
    const second = await agent.punch({ kind: 'id', value: '1002' });
    const now = trueLocal(Date.now());
    expect(second).toMatchObject({ ok: true, localTime: now.time });
    await waitFor(() => mock.records().length === 2, 'second delivered');
    expect(agent.status().clockSkewMs).toBeGreaterThan(-offset - 2_000);
    expect(agent.status().clockSkewMs).toBeLessThan(-offset + 2_000);
    expect(agent.status().lastError?.message).toMatch(/system clock is -?7200 s off the service's \((fast|slow)\)/);
  });
});
