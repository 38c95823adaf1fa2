/**
 * The API client against the mock's wire variants (issue 23): compressed answers read whatever was
 * asked, and one deadline for a whole request, so a trickled body cannot hold it for minutes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { requestDeadlineMs } from '../../src/api/deadline.js';
import { defaultApiDialect } from '../../src/api/shapes.js';
import { demoSeed } from '../../src/mock/seed.js';
import type { MockServer } from '../../src/mock/mock-server.js';
import { mockServers } from '../helpers/mock-http.js';
import { waitFor } from '../helpers/temp.js';

const start = mockServers();
const clients: ApiClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});
const clientOf = (srv: MockServer, timeoutMs: number): ApiClient => {
  const c = new ApiClient({ baseUrl: srv.url, token: 'demo-token', timeoutMs, dialect: defaultApiDialect });
  clients.push(c);
  return c;
};
const SITE = demoSeed().sites[0]!._id;
const EMP = { kind: 'external_id', value: '1001' } as const;

describe('compressed answers', () => {
  it.each(['gzip', 'deflate', 'br'] as const)(
    '%s: reads, a create and an error body are read as the API wrote them',
    async (how) => {
      const srv = await start({ variants: { compress: how } });
      const api = clientOf(srv, 5_000);
      expect(await api.getSite(SITE)).toMatchObject({
        kind: 'ok',
        value: { id: SITE, name: 'Obra Centro — São Paulo' },
      });
      expect(await api.getEmployeesPage(1, 5, null)).toMatchObject({ kind: 'ok', value: { items: expect.any(Array) } });
      const created = await api.postTime(EMP, '2026-11-21', '08:03');
      expect(created).toMatchObject({ kind: 'ok', value: { remoteId: srv.records()[0]?._id } });
      expect(await api.postTime({ kind: 'external_id', value: '9999' }, '2026-11-21', '08:03')).toMatchObject({
        kind: 'refused',
        status: 404,
        reason: "404 no active employee with employee_external_id '9999'",
      });
      expect(await api.getTimes(EMP, '2026-11-20', '2026-11-22')).toMatchObject({
        kind: 'ok',
        value: { times: [expect.objectContaining({ text: '2026-11-21T08:03' })] },
      });
    },
  );
});

describe('one deadline for the whole request', () => {
  it('the formula: connect + headers + body, from api.timeoutMs', () => {
    expect(requestDeadlineMs(10_000)).toBe(30_000);
    expect(requestDeadlineMs(500)).toBe(1_500);
    expect(requestDeadlineMs(60_000)).toBe(130_000);
  });

  it('a trickled answer to POST /times ends at the deadline, in doubt; the socket is closed and the server stops sending', async () => {
    // ~70 bytes at 5 a second: 14 s of body, each byte well inside the idle body timeout.
    const srv = await start({
      variants: { trickle: { bytesPerSecond: 5, only: { method: 'POST', pathPrefix: '/times' } } },
    });
    const api = clientOf(srv, 500);
    const t0 = performance.now();
    const res = await api.postTime(EMP, '2026-11-21', '08:03');
    const took = performance.now() - t0;
    expect(res).toMatchObject({
      kind: 'unknown',
      error: expect.stringMatching(
        /^the HTTP 201 answer to POST \/times could not be read: the request timed out: no complete answer within 1500 ms .*the record may be stored$/,
      ),
    });
    expect(took).toBeGreaterThanOrEqual(1_450);
    expect(took).toBeLessThan(10_000);
    expect(srv.records()).toHaveLength(1);
    const post = () => srv.requests().find((r) => r.method === 'POST');
    await waitFor(() => srv.requests().length === 1 && post()?.trickled !== undefined, 'the trickle logged');
    const sent = post()?.trickled?.sent;
    await new Promise((r) => setTimeout(r, 700));
    expect(post()?.trickled?.sent).toBe(sent);
    expect(sent).toBeLessThan(post()?.trickled?.of ?? 0);
  });

  it('a trickled read is a failed read that names the deadline', async () => {
    const srv = await start({ variants: { trickle: { bytesPerSecond: 5, only: { pathPrefix: '/employees' } } } });
    const api = clientOf(srv, 500);
    const res = await api.getEmployeesPage(1, 5, null);
    expect(res).toMatchObject({
      kind: 'server_error',
      status: 200,
      error: expect.stringMatching(
        /^the HTTP 200 answer to GET \/employees could not be read: the request timed out: no complete answer within 1500 ms/,
      ),
    });
    // Other routes are not held up.
    expect(await api.getSite(SITE)).toMatchObject({ kind: 'ok' });
  });

  it('requests that end in time leave no deadline timer behind', async () => {
    const srv = await start();
    const api = clientOf(srv, 2_000);
    await api.getSite(SITE);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    for (let i = 0; i < 20; i++) expect((await api.getSite(SITE)).kind).toBe('ok');
    // Each deadline would run 6 s: left behind, 20 of them would still be here.
    expect(timers() - before).toBeLessThan(5);
  });
});
