/**
 * Reconciliation against a service that stores instants (issue 23, item 2): `GET /times` writes
 * `time` in UTC (`…Z`, `+00:00`) or as an HTTP date, and may hold a record no client can read.
 * Capture → roster → delivery → lost answer → `GET /times` on the real mock: never a second
 * record, never a loop; across a DST fall-back two punches of one wall minute need two records.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import type { Clock } from '../../src/domain/time/clock.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed, generatedSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MAX_CHECKS = 3;
type Form = NonNullable<ServerVariants['timesTimeFormat']>;
const FORMS: Form[] = ['minutes', 'seconds', 'offset', 'utc-z', 'utc-offset', 'rfc1123'];

async function rig(
  variants: ServerVariants,
  o: { seed?: ReturnType<typeof demoSeed>; clock?: Clock } = {},
): Promise<{ mock: MockServer; agent: Agent; dir: string }> {
  const mock = await startMockServer({
    seed: o.seed ?? demoSeed(),
    rateLimit: { limit: 60, windowMs: 1_000 },
    variants,
    ...(o.clock ? { clock: o.clock } : {}),
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    retry: { inDoubtGraceMs: 50, maxChecks: MAX_CHECKS },
    ...(o.clock ? { clock: o.clock } : {}),
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return { mock, agent, dir: t.dir };
}

async function punch(agent: Agent, id: string): Promise<string> {
  const r = await agent.punch({ kind: 'id', value: id });
  if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r)}`);
  return `${r.localDate}T${r.localTime}`;
}

const gets = (mock: MockServer) => mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/times'));
const posts = (mock: MockServer) => mock.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/times'));

/** The punch journal's events of each punch, in order. */
function journal(dir: string): Map<number, string[]> {
  const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true });
  try {
    const out = new Map<number, string[]>();
    for (const r of db.prepare('SELECT punch_id, event FROM punch_journal ORDER BY id').all() as {
      punch_id: number;
      event: string;
    }[]) {
      out.set(r.punch_id, [...(out.get(r.punch_id) ?? []), r.event]);
    }
    return out;
  } finally {
    db.close();
  }
}

/** Each answer to the first POST of 1001 and 1002 is lost after the service stored the record. */
async function twoLostAnswers(mock: MockServer, agent: Agent): Promise<string[]> {
  mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
  const times = [await punch(agent, '1001'), await punch(agent, '1002')];
  await waitFor(() => mock.records().length === 2 && posts(mock).length === 2, 'both stored, both answers lost');
  mock.setFaults(null);
  return times;
}

describe('a lost answer, then GET /times in every form of `time`', () => {
  it.each(FORMS)('%s: 2 of 2 punches found by their instant, one record each, sent as reconciled', async (form) => {
    const { mock, agent, dir } = await rig({ timesTimeFormat: form });
    await twoLostAnswers(mock, agent);
    await waitFor(() => agent.status().queue.sent === 2, 'both reconciled as sent', 10_000);
    expect(mock.records()).toHaveLength(2);
    expect(posts(mock)).toHaveLength(2);
    expect(gets(mock)).toHaveLength(2);
    for (const events of journal(dir).values())
      expect(events).toEqual(['captured', 'sending', 'in_doubt', 'found_on_server']);
  });

  it.each<Form>(['utc-z', 'rfc1123'])(
    '%s with a 409 for a duplicate (the loop of the issue): found with one GET, never posted again',
    async (form) => {
      const { mock, agent } = await rig({ timesTimeFormat: form, conflictOnDuplicate: true });
      await twoLostAnswers(mock, agent);
      await waitFor(() => agent.status().queue.sent === 2, 'both reconciled as sent', 10_000);
      await new Promise((r) => setTimeout(r, 300));
      expect({ posts: posts(mock).length, gets: gets(mock).length, records: mock.records().length }).toEqual({
        posts: 2,
        gets: 2,
        records: 2,
      });
    },
  );
});

describe('a list with a record whose time cannot be read', () => {
  it.each<Form>(['minutes', 'utc-z', 'rfc1123'])('%s: the punch’s own record still settles it', async (form) => {
    const { mock, agent } = await rig({ timesTimeFormat: form, timesGarbageRecord: true });
    await twoLostAnswers(mock, agent);
    await waitFor(() => agent.status().queue.sent === 2, 'both reconciled as sent', 10_000);
    expect(mock.records()).toHaveLength(2);
    expect(posts(mock)).toHaveLength(2);
  });

  it('without the punch’s record it proves nothing: never sent again by itself, handed to a person after maxChecks', async () => {
    const { mock, agent } = await rig({ timesTimeFormat: 'utc-z', timesGarbageRecord: true });
    mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
    await punch(agent, '1001');
    await waitFor(() => mock.records().length === 1, 'stored, the answer lost');
    // The service lost it after all (a gateway gave up before it was kept): only a readable list could say so.
    expect(mock.deleteRecord(mock.records()[0]?._id ?? '')).toBe(true);
    mock.setFaults(null);
    await waitFor(() => agent.status().queue.held === 1, 'handed to a person', 15_000);
    expect(gets(mock)).toHaveLength(MAX_CHECKS);
    expect(posts(mock)).toHaveLength(1);
    expect(agent.listHeld()).toEqual([
      expect.objectContaining({
        held_reason: 'unverified',
        last_error: expect.stringMatching(
          /\(3 checks, last: no record at .+, and 1 record\(s\) of the list have a time that cannot be read\)/,
        ),
      }),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(gets(mock)).toHaveLength(MAX_CHECKS);
    expect(mock.records()).toHaveLength(0);
  });
});

describe('a 409 after a list that says the punch is not there', () => {
  it('counts toward the checks: handed to a person after maxChecks, the requests bounded', async () => {
    // The service holds a manager's adjustment at the punch's minute and answers 409 to the punch;
    // its list shows only records of other types there: the two answers disagree for good.
    const { mock, agent } = await rig({ conflictOnDuplicate: true });
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    const time = await punch(agent, '1003');
    await waitFor(() => posts(mock).some((q) => q.fault === 'server_error'), 'the first attempt failed');
    mock.addRecord({ employee: '1003', time, type: 'ajuste manual' });
    mock.setFaults(null);
    await waitFor(() => agent.status().queue.held === 1, 'handed to a person', 15_000);
    expect(agent.listHeld()).toEqual([
      expect.objectContaining({
        held_reason: 'unverified',
        last_error: expect.stringMatching(
          /answers 409 .* but its list of records does not show this punch \(3 checks\)/,
        ),
      }),
    ]);
    // After the 500s: a 409 (in doubt), then per round a GET that says absent and a 409 that counts, 3 rounds.
    const answered = () => [...posts(mock), ...gets(mock)].filter((q) => q.status !== 500);
    expect({
      conflicts: posts(mock).filter((q) => q.status === 409).length,
      gets: gets(mock).length,
      all: answered().length,
    }).toEqual({ conflicts: 4, gets: 3, all: 7 });
    await new Promise((r) => setTimeout(r, 500));
    expect(answered()).toHaveLength(7);
    expect(mock.records().filter((r) => r.type === 'registro externo')).toHaveLength(0);

    // A person who knows the adjustment is this punch takes it as delivered.
    const id = agent.listHeld()[0]?.id ?? 0;
    expect(agent.decideHeld(id, 'delivered', 'the test')).toBe(true);
    expect(agent.status().queue).toMatchObject({ sent: 1, held: 0 });
  });
});

describe('two punches of one wall minute across a DST fall-back (America/New_York, 2026-11-01)', () => {
  /**
   * A clock that runs from `base`, moved by the test: one for the terminal and the service (its Date anchors the
   * terminal).
   */
  function movingClock(base: number): Clock & { set(at: number): void } {
    let from = base;
    let t0 = Date.now();
    return {
      now: () => from + (Date.now() - t0),
      set(at: number) {
        from = at;
        t0 = Date.now();
      },
    };
  }

  it.each<Form>(['minutes', 'utc-z', 'rfc1123'])(
    '%s: the second 01:30, its answer lost and its record not kept, is sent again, not taken for the first',
    async (form) => {
      const seed = generatedSeed({ employees: 2, sites: 1 });
      for (const e of seed.employees) e.timezone = 'America/New_York';
      const clock = movingClock(Date.UTC(2026, 10, 1, 5, 29, 0)); // 01:29 EDT; clocks fall back at 06:00 UTC
      const { mock, agent, dir } = await rig({ timesTimeFormat: form }, { seed, clock });
      clock.set(Date.UTC(2026, 10, 1, 5, 30, 5)); // 01:30 EDT
      expect(await punch(agent, '100000')).toBe('2026-11-01T01:30');
      await waitFor(() => mock.records().length === 1 && agent.status().queue.sent === 1, 'the first 01:30 delivered');

      clock.set(Date.UTC(2026, 10, 1, 6, 30, 5)); // 01:30 EST
      mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
      expect(await punch(agent, '100000')).toBe('2026-11-01T01:30');
      await waitFor(() => mock.records().length === 2, 'stored, the answer lost');
      // …and not kept after all: the list holds only the first 01:30's record.
      expect(mock.deleteRecord(mock.records()[1]?._id ?? '')).toBe(true);
      mock.setFaults(null);
      await waitFor(() => agent.status().queue.sent === 2, 'both sent', 10_000);
      expect(mock.records().map((r) => r.time)).toEqual(['2026-11-01T01:30', '2026-11-01T01:30']);
      const events = [...journal(dir).values()];
      expect(events[1]).toEqual([
        'captured',
        'local_minute_collision',
        'sending',
        'in_doubt',
        'absent_on_server',
        'sending',
        'sent',
      ]);
    },
  );

  it('utc-z: both answers lost and both records kept: two records found, none sent again', async () => {
    const seed = generatedSeed({ employees: 2, sites: 1 });
    for (const e of seed.employees) e.timezone = 'America/New_York';
    const clock = movingClock(Date.UTC(2026, 10, 1, 5, 29, 0));
    const { mock, agent } = await rig({ timesTimeFormat: 'utc-z' }, { seed, clock });
    mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
    clock.set(Date.UTC(2026, 10, 1, 5, 30, 5));
    await punch(agent, '100000');
    await waitFor(() => mock.records().length === 1, 'the first stored');
    clock.set(Date.UTC(2026, 10, 1, 6, 30, 5));
    await punch(agent, '100000');
    await waitFor(() => mock.records().length === 2, 'the second stored');
    mock.setFaults(null);
    await waitFor(() => agent.status().queue.sent === 2, 'both reconciled', 10_000);
    expect(mock.records()).toHaveLength(2);
    expect(posts(mock)).toHaveLength(2);
  });
});
