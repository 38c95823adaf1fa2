/**
 * The repeat check compares instants, not wall minutes (issue 12): at a DST fall-back one local
 * minute comes twice, an hour apart. Brazil has no DST today, but terminals also run in zones that
 * do, and Brazil had it until 2019. Driven by an injected clock stepped by the test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe('repeat check by instant', () => {
  it('two punches an hour apart at the same local minute (DST fall-back) are two punches, both sent and listed; a second in the same minute is a repeat', async () => {
    const seed = generatedSeed({ employees: 3, sites: 1 });
    for (const e of seed.employees) e.timezone = 'America/New_York';
    let now = Date.UTC(2026, 10, 1, 5, 29, 0); // 2026-11-01 01:29 EDT; clocks fall back at 06:00 UTC
    const clock = { now: () => now };
    // One clock for the terminal and the service (whose Date headers anchor the terminal's time).
    const mock = await startMockServer({ seed, rateLimit: { limit: 60, windowMs: 1_000 }, clock });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({ dataDir: t.dir, mock, clock });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });

    now = Date.UTC(2026, 10, 1, 5, 30, 10); // 01:30 EDT
    const first = await agent.punch({ kind: 'id', value: '100000' });
    now += 20_000; // the same minute again: a repeat
    const again = await agent.punch({ kind: 'id', value: '100000' });
    now = Date.UTC(2026, 10, 1, 6, 30, 10); // an hour later: 01:30 EST
    const second = await agent.punch({ kind: 'id', value: '100000' });

    expect(first).toMatchObject({ ok: true, repeat: false, localDate: '2026-11-01', localTime: '01:30' });
    expect(again).toMatchObject({ ok: true, repeat: true, localTime: '01:30' });
    expect(second).toMatchObject({ ok: true, repeat: false, localDate: '2026-11-01', localTime: '01:30' });
    await waitFor(() => mock.records().length === 2, 'both sent');
    expect(mock.records().map((r) => r.time)).toEqual(['2026-11-01T01:30', '2026-11-01T01:30']);
    expect(agent.status().collisions).toEqual({
      count: 1,
      punches: [expect.objectContaining({ externalId: '100000', localDate: '2026-11-01', localTime: '01:30' })],
    });
  });
});
