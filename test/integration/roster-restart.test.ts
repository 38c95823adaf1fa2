/**
 * A restart costs no roster traffic (issue 14, item 4): the last complete sync, for this site and
 * younger than `roster.refreshMs`, is used as it is, and the next sync is planned for when it ages
 * out. An older one, one for another site, or a failed last attempt still syncs at start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/mock-server.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { generatedSeed, objectIdFor } from '../../src/mock/seed.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const SITE = objectIdFor('gen-site', 0);
const OTHER = objectIdFor('gen-site', 1);
const HOUR = 3_600_000;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const employeeGets = (mock: MockServer) =>
  mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/employees')).length;

async function rig() {
  const mock = await startMockServer({
    seed: generatedSeed({ employees: 250, sites: 2 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  let now = Date.now();
  const clock = { now: () => now };
  const said: string[] = [];
  const log = {
    debug: () => {},
    info: (m: string) => void said.push(m),
    warn: (m: string) => void said.push(m),
    error: (m: string) => void said.push(m),
  };
  const start = async (siteId = SITE) => {
    said.length = 0;
    const agent = testAgent({
      dataDir: t.dir,
      mock,
      siteId,
      clock,
      log,
      settings: { roster: { pageSize: 100, refreshMs: 6 * HOUR } },
    });
    await agent.start({ awaitRosterIfEmpty: true });
    return agent;
  };
  return { mock, start, said, advance: (ms: number) => (now += ms) };
}

describe('the roster at start', () => {
  it('a restart within the refresh interval syncs nothing and is ready at once with the roster it had', async () => {
    const r = await rig();
    const first = await r.start();
    const size = first.status().roster.size;
    expect(size).toBeGreaterThan(0);
    const fetched = employeeGets(r.mock);
    expect(fetched).toBeGreaterThan(0);
    await first.stop();

    r.advance(5 * HOUR);
    const second = await r.start();
    // Decided at start, before any request: no sync was begun (and so none can arrive later).
    expect(r.said).toContain('roster: the last sync is recent, none at start');
    expect(second.status().roster.progress).toBeNull();
    expect(employeeGets(r.mock)).toBe(fetched);
    expect(second.status().roster.size).toBe(size);
    // The next sync is planned for when the roster reaches its refresh interval: one hour from now.
    expect(second.status().roster.lastSync?.nextAt).toBe(second.status().now + HOUR);
    await second.stop();
  });

  it('a roster older than the refresh interval is synced again at start', async () => {
    const r = await rig();
    await (await r.start()).stop();
    const fetched = employeeGets(r.mock);
    r.advance(6 * HOUR + 1);
    const again = await r.start();
    expect(r.said).not.toContain('roster: the last sync is recent, none at start');
    await waitFor(() => employeeGets(r.mock) > fetched, 'a sync at start');
    await again.stop();
  });

  it("a roster synced for another site is not this site's: synced at start", async () => {
    const r = await rig();
    await (await r.start(SITE)).stop();
    const fetched = employeeGets(r.mock);
    const other = await r.start(OTHER);
    await waitFor(() => employeeGets(r.mock) > fetched, 'a sync at start');
    await other.stop();
  });

  it('a last sync "in the future" (the clock was stepped back since) is not trusted: synced at start', async () => {
    const r = await rig();
    await (await r.start()).stop();
    const fetched = employeeGets(r.mock);
    r.advance(-2 * HOUR);
    const stepped = await r.start();
    await waitFor(() => employeeGets(r.mock) > fetched, 'a sync at start');
    await stepped.stop();
  });
});
