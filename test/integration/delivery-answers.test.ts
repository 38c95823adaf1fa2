/**
 * Delivery against every answer the specification leaves open (issue 11): success codes, error
 * bodies, a 403 for one employee, redirects and pages that are not the API, 409, Retry-After as a
 * date. Capture → upload → what payroll and the manager see, against the mock's variants.
 */
import http from 'node:http';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { recordCounts, testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function rig(
  variants: ServerVariants = {},
  mockClockOffsetMs = 0,
  retry: { baseMs?: number } = {},
): Promise<{ mock: MockServer; agent: Agent }> {
  const mock = await startMockServer({
    seed: demoSeed(),
    rateLimit: { limit: 60, windowMs: 1_000 },
    variants,
    ...(mockClockOffsetMs ? { clock: { now: () => Date.now() + mockClockOffsetMs } } : {}),
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    retry: { inDoubtGraceMs: 50, ...retry, ...(retry.baseMs ? { maxMs: retry.baseMs * 4 } : {}) },
    settings: { roster: { retryBaseMs: 100, retryMaxMs: 300 } },
  });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  return { mock, agent };
}

async function punch(agent: Agent, ...ids: string[]) {
  const out = [];
  for (const id of ids) {
    const r = await agent.punch({ kind: 'id', value: id });
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r)}`);
    out.push(r);
  }
  return out;
}

const others = ['1002', '1003', '1004', '1005', '1006', '1007', '1008', '1009', '1010', '1011'];
const recordsOf = (mock: MockServer, ext: string) => mock.records().filter((r) => r.employee_external_id === ext);

describe('a 403 on one employee is about that employee, not the token', () => {
  it('their punch is held with the service reason after one probe; everyone else is delivered; a roster sync retries it', async () => {
    const { mock, agent } = await rig({ forbiddenPunches: ['1001'] });
    await punch(agent, '1001', ...others);
    await waitFor(() => others.every((e) => recordsOf(mock, e).length === 1), 'the other ten delivered', 15_000);
    await waitFor(() => agent.status().queue.held === 1, 'the refused punch held');
    const st = agent.status();
    expect(st).toMatchObject({ sendingPaused: null, authRefused: null, queue: { rejected: 0, pending: 0 } });
    expect(agent.listHeld()).toEqual([
      expect.objectContaining({
        employee_external_id: '1001',
        held_reason: 'forbidden',
        last_error: expect.stringMatching(/403 this employee may not record by API/),
      }),
    ]);
    // One cheap read told the token was fine; the punch was not sent again and again.
    expect(mock.requests().filter((r) => r.method === 'POST' && r.status === 403)).toHaveLength(1);
    expect(
      mock
        .requests()
        .filter(
          (r) =>
            r.method === 'GET' &&
            r.path.endsWith('/employees') &&
            r.query.max_results === '1' &&
            r.query.where === undefined,
        ),
    ).toHaveLength(1);

    mock.setVariants({});
    await agent.syncRoster();
    await waitFor(() => recordsOf(mock, '1001').length === 1, 'the held punch delivered after the roster sync');
  });
});

describe('a punch held for a 403 is tried again on its own slow schedule', () => {
  it('retried after retry.heldRetryMs without a roster sync, and delivered once the service accepts it', async () => {
    const mock = await startMockServer({
      seed: demoSeed(),
      rateLimit: { limit: 60, windowMs: 1_000 },
      variants: { forbiddenPunches: ['1001'] },
    });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({ dataDir: t.dir, mock, retry: { heldRetryMs: 300 } });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });
    await punch(agent, '1001');
    const refusals = () => mock.requests().filter((r) => r.method === 'POST' && r.status === 403).length;
    await waitFor(() => refusals() >= 2, 'tried again while held', 5_000);
    // Held in between, and one probe answered for the retries of the next minute.
    expect(
      mock
        .requests()
        .filter((r) => r.query.max_results === '1' && r.query.where === undefined && r.path.endsWith('/employees')),
    ).toHaveLength(1);
    mock.setVariants({});
    // The service's record comes a moment before the terminal writes its answer down: wait for both.
    await waitFor(
      () => recordsOf(mock, '1001').length === 1 && agent.status().queue.sent >= 1,
      'delivered at the next slow retry',
      5_000,
    );
    expect(agent.status().queue).toMatchObject({ held: 0, sent: 1 });
  });
});

describe('answers that are not the API pause sending; nothing is rejected', () => {
  it.each<[string, ServerVariants, RegExp]>([
    [
      'a redirect (http → https, another gateway)',
      { redirect: { status: 301, location: 'https://elsewhere.example/v2.1/times' } },
      /another address: https:\/\/elsewhere\.example/,
    ],
    [
      'a proxy 404 page (a wrong base path)',
      { nonApi: 'html-404' },
      /does not look like the API \(HTTP 404, text\/html/,
    ],
    ['a captive portal page', { nonApi: 'html' }, /does not look like the API \(HTTP 200, text\/html/],
  ])(
    '%s: punches wait, status says why, flush is blocked; delivered once the address answers right',
    async (_what, variants, why) => {
      const { mock, agent } = await rig();
      mock.setVariants(variants);
      await punch(agent, '1001', '1002');
      await waitFor(() => agent.status().setupProblem !== null, 'the set-up problem in status');
      expect(agent.status().setupProblem?.reason).toMatch(why);
      const out = await agent.flush({ maxWaitMs: 5_000 });
      expect(out).toMatchObject({ done: false, blockedBy: expect.stringMatching(/set-up problem/) });
      expect(agent.status().queue).toMatchObject({ rejected: 0, sent: 0 });
      expect(mock.records()).toHaveLength(0);

      mock.setVariants({});
      await waitFor(() => mock.records().length === 2, 'both delivered once the address is right', 15_000);
      await waitFor(() => agent.status().setupProblem === null, 'the set-up problem cleared');
    },
  );
});

describe('a redirect is never followed with the token', () => {
  it('the address it points to gets no request at all (the token stays with the configured host)', async () => {
    let seen = 0;
    const elsewhere = http.createServer((req, res) => {
      seen++;
      res.end('{}');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => elsewhere.close(() => r())));
    const { port } = elsewhere.address() as { port: number };
    const { mock, agent } = await rig();
    mock.setVariants({ redirect: { status: 307, location: `http://127.0.0.1:${port}/v2.1/times` } });
    await punch(agent, '1001');
    // The punch's request (the roster's employer read meets the redirect too, and may come first).
    await waitFor(
      () => mock.requests().filter((r) => r.status === 307 && r.method === 'POST').length >= 2,
      'the redirect answered the punch twice (tried again on the back-off)',
    );
    expect(seen).toBe(0);
    expect(agent.status().setupProblem?.location).toBe(`http://127.0.0.1:${port}/v2.1/times`);
  });
});

describe('what a 2xx and a 409 really say', () => {
  it('a 200 whose body says ERR is rejected with its reason, not counted as delivered; all rejected are retried at once', async () => {
    const { mock, agent } = await rig({ errorBodyOn2xx: true });
    await punch(agent, '1001', '1002');
    await waitFor(() => agent.status().queue.rejected === 2, 'both rejected');
    expect(agent.listRejected()[0]?.reject_reason).toMatch(/200 time outside the employee's schedule/);
    mock.setVariants({});
    expect(agent.retryAllRejected()).toBe(2);
    await waitFor(() => mock.records().length === 2, 'both delivered after the bulk retry');
  });

  it('a 409 (the service already has it) is reconciled, not rejected: one record, punch sent', async () => {
    // The agent's retry comes a second or two after the 500: time for the record to arrive another way.
    const { mock, agent } = await rig({ conflictOnDuplicate: true }, 0, { baseMs: 2_000 });
    mock.setFaults({ serverError: 1, only: { method: 'POST', pathPrefix: '/times' } });
    const [r] = await punch(agent, '1003');
    if (!r?.ok) throw new Error('not registered');
    const time = `${r.localDate}T${r.localTime}`;
    await waitFor(() => mock.requests().some((q) => q.fault === 'server_error'), 'the first attempt failed');
    // Meanwhile the record reaches the service another way (another terminal, a retried request).
    mock.setFaults(null);
    const direct = await request(`${mock.url}/times`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('public:demo-token').toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ employee_external_id: '1003', time }),
    });
    expect(direct.statusCode).toBe(201);
    await direct.body.dump();
    await waitFor(() => agent.status().queue.sent === 1, 'sent after the 409 and a reconciliation', 10_000);
    expect(mock.requests().some((q) => q.method === 'POST' && q.status === 409)).toBe(true);
    expect(recordCounts(mock.records()).get(`1003|${time}`)).toBe(1);
    expect(agent.status().queue.rejected).toBe(0);
  });
});

describe('Retry-After as an HTTP date', () => {
  it("is measured against the answer's own Date header: a service clock an hour ahead does not pause sending for 15 minutes", async () => {
    const { mock, agent } = await rig({ retryAfterDate: true }, 3_600_000);
    mock.setFaults({ always429: true, only: { method: 'POST' } });
    await punch(agent, '1004');
    await waitFor(() => agent.status().sendingPaused?.reason === 'retry_after', 'paused by the 429');
    const pause = agent.status().sendingPaused;
    expect((pause?.until ?? 0) - Date.now()).toBeLessThan(5_000);
    mock.setFaults(null);
    await waitFor(() => recordsOf(mock, '1004').length === 1, 'delivered within seconds', 10_000);
  });
});
