/**
 * Issue 26 item 7 through the agent: the data directory (database and journal-nsr.json together)
 * put back from a copy is recognised against the mirror outside it; the next punch follows every
 * NSR ever given, and status and `timeclock status` say so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statusText } from '../../src/cli/status/format.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const dir = () => {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
};

describe('a data directory put back from a copy, through the agent', () => {
  it('continues after every NSR given, with the gap in status', async () => {
    const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 0));
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 600, windowMs: 1_000 },
      clock: time.clock,
    });
    cleanups.push(() => mock.close());
    const data = dir();
    const mirror = path.join(dir(), 'nsr');
    const make = () =>
      testAgent({
        dataDir: data,
        mock,
        clock: time.clock,
        sleep: time.sleep,
        settings: { journal: { nsrMirrorPath: mirror } },
      });
    const punches = async (n: number) => {
      const a = make();
      await a.start({ awaitRosterIfEmpty: true });
      const nsrs: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = await a.punch({ kind: 'id', value: ['1001', '1002', '1003'][i % 3] as string });
        if (r.ok && !r.repeat && r.nsr !== null) nsrs.push(r.nsr);
        await time.advance(61_000, 61_000);
      }
      await a.stop();
      return nsrs;
    };
    expect(await punches(4)).toEqual([1, 2, 3, 4]);
    const copy = dir();
    fs.cpSync(data, copy, { recursive: true });
    expect((await punches(6)).at(-1)).toBe(10);
    for (const f of fs.readdirSync(data)) fs.rmSync(path.join(data, f), { recursive: true, force: true });
    fs.cpSync(copy, data, { recursive: true });

    const agent = make();
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    const r = await agent.punch({ kind: 'id', value: '1001' });
    expect(r.ok && r.nsr).toBeGreaterThan(10);
    const s = agent.status();
    expect(s.journal?.lastRestore).toMatchObject({ from: 5, where: `the NSR mirror ${mirror}` });
    expect(s.journal?.guard).toMatchObject({ mirror, mirrorProblem: null });
    expect(statusText(s)).toMatch(
      /JOURNAL RESTORED .*: the data directory was put back from an older copy; NSRs 5-\d+ are skipped/,
    );
  });
});
