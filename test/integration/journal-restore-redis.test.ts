/**
 * Issue 26 item 7, the fleet's Redis: the data directory AND the NSR mirror put back from copies
 * (both rolled back), while Redis still holds the journal's mark. The next punch follows every NSR
 * ever given, and a fact names the gap; without Redis the same restore gives NSR 5 again (what
 * docs/evidence-journal.md says cannot be detected).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { readFleetNsr } from '../../src/agent/journal/fleet-nsr.js';
import { statusText } from '../../src/cli/status/format.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { silentLogger } from '../../src/log.js';
import { testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { startRedis } from '../helpers/redis-server.js';
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

function putBack(copy: string, into: string): void {
  for (const f of fs.readdirSync(into)) fs.rmSync(path.join(into, f), { recursive: true, force: true });
  fs.cpSync(copy, into, { recursive: true });
}

describe("a restore of the data directory and of the NSR mirror, with the fleet's Redis", () => {
  it('continues after every NSR ever given, with a gap fact naming Redis; without Redis NSR 5 would be given again', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.stop());
    const time = new FakeTime(Date.UTC(2026, 10, 23, 13, 0, 0));
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 600, windowMs: 1_000 },
      clock: time.clock,
    });
    cleanups.push(() => mock.close());
    const data = dir();
    const mirror = path.join(dir(), 'nsr');
    const make = async (dataDir: string, mirrorDir: string, redisUrl: string | null) => {
      const rateLimit = { limit: 600, windowMs: 1_000, ...(redisUrl ? { redisUrl, accountLimit: 600 } : {}) };
      // As openAgent does: the mark read before the journal opens.
      const fleetNsr = redisUrl
        ? await readFleetNsr({ dataDir, rateLimit } as Parameters<typeof readFleetNsr>[0], silentLogger)
        : null;
      return testAgent({
        dataDir,
        mock,
        clock: time.clock,
        sleep: time.sleep,
        settings: { journal: { nsrMirrorPath: mirrorDir }, rateLimit },
        fleetNsr,
      });
    };
    const punches = async (n: number) => {
      const a = await make(data, mirror, redis.url);
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
    const dataCopy = dir();
    const mirrorCopy = dir();
    fs.cpSync(data, dataCopy, { recursive: true });
    fs.cpSync(mirror, mirrorCopy, { recursive: true });
    expect((await punches(6)).at(-1)).toBe(10);

    // Redis holds the journal's mark: the last NSR given and the reservation.
    const journalId = (
      JSON.parse(fs.readFileSync(path.join(data, 'journal-nsr.json'), 'utf8')) as { journalId: string }
    ).journalId;
    const client = new Redis(redis.url);
    cleanups.push(() => void client.disconnect());
    const [reserved, given] = await client.hmget(`timeclock:nsr:${journalId}`, 'reserved', 'given');
    expect(Number(given)).toBe(10);
    expect(Number(reserved)).toBeGreaterThanOrEqual(10);

    // The control first, on copies of the copies: without Redis the restore is not seen.
    const blindData = dir();
    const blindMirror = dir();
    fs.cpSync(dataCopy, blindData, { recursive: true });
    fs.cpSync(mirrorCopy, blindMirror, { recursive: true });
    const blind = await make(blindData, blindMirror, null);
    await blind.start({ roster: false });
    const repeated = await blind.punch({ kind: 'id', value: '1001' });
    await blind.stop();
    expect(repeated.ok && repeated.nsr).toBe(5);

    // Both put back: the database, journal-nsr.json and the mirror all say NSR 4 was the last.
    putBack(dataCopy, data);
    putBack(mirrorCopy, mirror);
    const agent = await make(data, mirror, redis.url);
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    const r = await agent.punch({ kind: 'id', value: '1001' });
    expect(r.ok && r.nsr).toBeGreaterThan(Math.max(10, Number(reserved)));
    const s = agent.status();
    expect(s.journal?.lastRestore).toMatchObject({ from: 5, where: `the fleet's Redis (timeclock:nsr:${journalId})` });
    expect(s.journal?.guard).toMatchObject({ mirror, fleet: `the fleet's Redis (timeclock:nsr:${journalId})` });
    expect(statusText(s)).toMatch(
      /JOURNAL RESTORED .*: the data directory was put back from an older copy; NSRs 5-\d+ are skipped/,
    );
    await agent.stop();
    const db = new Database(path.join(data, 'timeclock.sqlite'), { readonly: true });
    cleanups.push(() => void db.close());
    const facts = db.prepare("SELECT nsr, detail FROM journal_facts WHERE event = 'restored'").all() as {
      nsr: number;
      detail: string;
    }[];
    expect(facts).toEqual([
      {
        nsr: 5,
        detail: expect.stringMatching(
          new RegExp(
            `^gap 5-${(r.ok ? (r.nsr as number) : 0) - 1}: the database is older than the NSR reservation in the fleet's Redis`,
          ),
        ),
      },
    ]);
  });
});
