import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { maxInAnyWindow } from '../../src/domain/rate/sliding-window.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { generatedSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { FakeTime } from '../helpers/fake-time.js';
import { tempDir, waitFor } from '../helpers/temp.js';
import { punchText } from '../../src/messages/punch-text.js';

/** The agent on injected time: its clocks and its waits (the mock shares `time.clock`). */
const injected = (time: FakeTime) => ({ clock: time.clock, mono: time.mono, sleep: time.sleep });

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function mockWith(opts: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> {
  const m = await startMockServer({
    seed: generatedSeed({ employees: 800, sites: 1 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
    ...opts,
  });
  cleanups.push(() => m.close());
  return m;
}

async function agentOn(
  mock: { url: string },
  dataDir: string,
  extra: Partial<Parameters<typeof testAgent>[0]> = {},
): Promise<Agent> {
  const agent = testAgent({ dataDir, mock, ...extra });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return agent;
}

function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

const code = (i: number) => String(100000 + i);

describe('punch pipeline against the mock API', () => {
  it('delivers a punch within a second of the commit, as a registro externo at the local minute', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data());
    const r = await agent.punch({ kind: 'badge', value: code(1) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    await waitFor(() => mock.records().length === 1, 'the record on the mock', 1_000);
    const rec = mock.records()[0];
    expect(rec?.employee_external_id).toBe(code(1));
    expect(rec?.time).toBe(`${r.localDate}T${r.localTime}`);
    expect(rec?.type).toBe('registro externo');
    await waitFor(() => agent.status().queue.sent === 1, 'the punch marked sent');
  });

  it('a second punch in the same minute creates no new record and says when the first was', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data());
    const first = await agent.punch({ kind: 'badge', value: code(2) });
    const again = await agent.punch({ kind: 'badge', value: code(2) });
    expect(first.ok && again.ok && again.repeat).toBe(true);
    if (!first.ok || !again.ok) return;
    expect(again.localTime).toBe(first.localTime);
    expect(punchText('en', again)).toMatch(/already registered at/);
    await agent.flush({ maxWaitMs: 5_000 });
    expect(mock.records()).toHaveLength(1);
  });

  it('an unknown code is refused with a clear message and nothing is queued', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data());
    const r = await agent.punch({ kind: 'badge', value: 'NOPE-123' });
    expect(r).toMatchObject({ ok: false, reason: 'unknown_credential' });
    expect(punchText('en', r)).toMatch(/not recognised/i);
    expect(agent.status().queue.pending).toBe(0);
  });

  it('600 punches captured offline are delivered exactly once when the API is back, never over 60 per sliding window and with no 429', async () => {
    const time = new FakeTime(Date.now());
    const first = await mockWith({ clock: time.clock });
    const port = first.port;
    const agent = await agentOn(first, data(), { retry: { baseMs: 50, maxMs: 300 }, ...injected(time) });
    expect(agent.status().roster.size).toBe(800);
    await first.close();

    for (let i = 0; i < 600; i++) expect((await agent.punch({ kind: 'badge', value: code(i) })).ok).toBe(true);
    await time.advance(300); // the uploader meets a closed port meanwhile
    expect(agent.status().queue.sent).toBe(0);
    expect(agent.status().online).toBe(false);

    const back = await mockWith({ port, clock: time.clock });
    await time.advanceUntil(() => agent.status().queue.sent === 600, '600 punches sent', 60_000, 50);

    const counts = recordCounts(back.records());
    expect(counts.size).toBe(600);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const reqs = back.requests();
    expect(reqs.filter((r) => r.status === 429)).toHaveLength(0);
    expect(
      maxInAnyWindow(
        reqs.filter((r) => r.counted).map((r) => r.at),
        1_000,
      ),
    ).toBeLessThanOrEqual(60);
  });

  it('with every fault kind injected on a share of requests, each punch ends sent exactly once or rejected with a reason', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data(), {
      timeoutMs: 300,
      retry: { baseMs: 20, maxMs: 100, inDoubtGraceMs: 100 },
    });
    mock.setActive(code(7), false); // the service will refuse this one
    mock.setFaults({ dropAfterStore: 0.15, serverError: 0.15, slowResponse: 0.15, slowDelayMs: 600 });

    const n = 120;
    for (let i = 0; i < n; i++) expect((await agent.punch({ kind: 'badge', value: code(i) })).ok).toBe(true);
    await waitFor(
      () => {
        const q = agent.status().queue;
        return q.sent + q.rejected === n;
      },
      'every punch sent or rejected',
      50_000,
      50,
    );

    const q = agent.status().queue;
    expect(q.rejected).toBe(1);
    expect(agent.listRejected()[0]).toMatchObject({ employee_external_id: code(7) });
    expect(agent.listRejected()[0]?.reject_reason).toMatch(/404/);
    const counts = recordCounts(mock.records());
    expect(counts.size).toBe(n - 1);
    expect([...counts.values()].filter((c) => c !== 1)).toEqual([]);
    const faults = new Set(mock.requests().map((r) => r.fault));
    expect(faults).toEqual(new Set([null, 'drop_after_store', 'server_error', 'slow_response']));
    expect(mock.requests().some((r) => r.method === 'GET' && r.path.endsWith('/times'))).toBe(true); // reconciliation ran
  });

  it('status listeners (the screens) hear of each punch waiting and of its delivery, without asking', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data());
    const unsent: number[] = [];
    agent.on('status', (s) => unsent.push(s.unsent));
    mock.setFaults({ serverError: 1 });
    await agent.punch({ kind: 'badge', value: code(3) });
    await waitFor(() => unsent.includes(1), 'a status event with the punch waiting', 5_000);
    mock.setFaults(null);
    await waitFor(
      () => unsent[unsent.length - 1] === 0 && agent.status().queue.sent === 1,
      'a status event after delivery',
      10_000,
    );
  });

  it('a rejected punch is kept, listed with its reason, and delivered when retried after the fix', async () => {
    const mock = await mockWith();
    const agent = await agentOn(mock, data());
    mock.setActive(code(9), false);
    const r = await agent.punch({ kind: 'badge', value: code(9) });
    expect(r.ok).toBe(true);
    await waitFor(() => agent.status().queue.rejected === 1, 'the punch rejected');
    const [row] = agent.listRejected();
    expect(row?.reject_reason).toMatch(/^404 /);
    expect(agent.status().lastError?.message).toMatch(/rejected/);

    mock.setActive(code(9), true);
    expect(agent.retryRejected(row?.id ?? -1)).toBe(true);
    await waitFor(() => agent.status().queue.sent === 1, 'the retried punch sent');
    expect(mock.records()).toHaveLength(1);
  });

  it('429 regardless of the window pauses all sending (Retry-After honoured) and loses nothing', async () => {
    const time = new FakeTime(Date.now());
    const mock = await mockWith({ clock: time.clock });
    const agent = await agentOn(mock, data(), injected(time));
    mock.setFaults({ always429: true });
    for (let i = 0; i < 5; i++) await agent.punch({ kind: 'badge', value: code(i) });
    await time.advance(3_500);
    // Retry-After is 1 s. Before the first 429 up to maxInFlight (4) requests may be out at once;
    // after it, one probe at a time, each at least the Retry-After later than the last answer.
    // The punches' requests (an employer read the roster sync queued may go first and meet its 429
    // too; after the first 429 nothing but the punches' probes goes out).
    const refused = mock
      .requests()
      .filter((r) => r.status === 429 && r.method === 'POST')
      .map((r) => r.at);
    expect(mock.requests().filter((r) => r.method !== 'POST' && r.at > (refused[0] ?? 0))).toEqual([]);
    const firstBurst = refused.filter((t) => t - (refused[0] ?? 0) < 500);
    expect(firstBurst.length).toBeGreaterThan(0);
    expect(firstBurst.length).toBeLessThanOrEqual(4);
    const probes = refused.slice(firstBurst.length);
    expect(probes.length).toBeGreaterThanOrEqual(2);
    expect(probes.length).toBeLessThanOrEqual(3);
    const gaps = probes.map((t, i) => t - (i === 0 ? (firstBurst[firstBurst.length - 1] ?? 0) : (probes[i - 1] ?? 0)));
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(950);
    expect(agent.status().queue.pending).toBe(5);
    mock.setFaults(null);
    await time.advanceUntil(() => agent.status().queue.sent === 5, 'all sent after the 429s stop', 10_000);
    expect(recordCounts(mock.records()).size).toBe(5);
  });

  it('a refused token pauses sending, keeps capturing, says so, and flush reports it as blocked', async () => {
    const mock = await mockWith({ tokens: ['right-token'] });
    const dir = data();
    // Roster first with the right token, then the token is "revoked".
    const good = testAgent({ dataDir: dir, mock, token: 'right-token' });
    await good.start({ awaitRosterIfEmpty: true });
    await good.stop();
    const time = new FakeTime(Date.now());
    const agent = await agentOn(mock, dir, {
      token: 'revoked-token',
      retry: { authRetryMs: 60_000 },
      ...injected(time),
    });
    for (let i = 0; i < 3; i++) expect((await agent.punch({ kind: 'badge', value: code(i) })).ok).toBe(true);
    // Up to maxInFlight requests were out when the first 401 came back: wait for all their answers.
    await waitFor(
      () => agent.status().authRefused !== null && agent.status().queue.sending === 0,
      'the token refusal on status',
    );
    const s = agent.status();
    expect(s.sendingPaused?.reason).toBe('auth');
    expect(s.queue.pending).toBe(3);
    const unauthorised = mock.requests().filter((r) => r.status === 401).length;
    expect((await agent.punch({ kind: 'badge', value: code(10) })).ok).toBe(true); // capture goes on
    await time.advance(30_000, 500); // half the pause: not one more request
    expect(mock.requests().filter((r) => r.status === 401).length).toBe(unauthorised); // no hammering
    const flushed = await agent.flush({ maxWaitMs: 2_000 });
    expect(flushed).toMatchObject({ done: false, blockedBy: expect.stringMatching(/token/) });
    expect(mock.records()).toHaveLength(0);
  });

  it('an agent restarted right after using the whole window does not send before the window allows', async () => {
    const mock = await mockWith({ rateLimit: { limit: 10, windowMs: 2_000 } });
    const dir = data();
    const a = testAgent({ dataDir: dir, mock, rateLimit: { limit: 10, windowMs: 2_000 } });
    // 8 roster pages and the probe of the `_updated` filter = 9 requests; one punch fills the window.
    await a.start({ awaitRosterIfEmpty: true });
    await a.punch({ kind: 'badge', value: code(0) });
    await waitFor(() => a.status().queue.sent === 1, 'first punch sent');
    await a.stop();
    const usedBefore = mock.requests().filter((r) => r.counted).length;
    expect(usedBefore).toBe(10);

    const b = await agentOn(mock, dir, { rateLimit: { limit: 10, windowMs: 2_000 } });
    for (let i = 1; i < 7; i++) await b.punch({ kind: 'badge', value: code(i) });
    await waitFor(() => b.status().queue.sent === 7, 'the rest sent after the window', 15_000);

    const reqs = mock.requests();
    expect(reqs.filter((r) => r.status === 429)).toHaveLength(0);
    expect(
      maxInAnyWindow(
        reqs.filter((r) => r.counted).map((r) => r.at),
        2_000,
      ),
    ).toBeLessThanOrEqual(10);
    const firstOfB = reqs[usedBefore];
    const firstOfA = reqs[0];
    expect(firstOfB && firstOfA && firstOfB.at - firstOfA.at).toBeGreaterThanOrEqual(2_000);
  });
});
