/**
 * Reconciliation of an in-doubt punch against every `GET /times` the specification allows (issue
 * 11): parameter names and interval semantics are not shown, so records may carry seconds or an
 * offset, the end date may be exclusive, and a gateway may answer 404 or 400. Never a duplicate,
 * never a loop: only a list that lacks the record proves absence, and after `retry.maxChecks`
 * answers that prove nothing the punch goes to a person.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

const MAX_CHECKS = 3;

/** An agent whose first POST of 1001 is stored by the service but its answer lost: in doubt. */
async function inDoubt(
  variants: ServerVariants,
): Promise<{ mock: MockServer; agent: Agent; dataDir: string; time: string }> {
  const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, variants });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({ dataDir: t.dir, mock, retry: { inDoubtGraceMs: 50, maxChecks: MAX_CHECKS } });
  cleanups.push(() => agent.stop());
  await agent.start({ awaitRosterIfEmpty: true });
  mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
  const r = await agent.punch({ kind: 'id', value: '1001' });
  if (!r.ok) throw new Error(JSON.stringify(r));
  await waitFor(() => mock.records().length === 1, 'stored by the service, the answer lost');
  mock.setFaults(null);
  return { mock, agent, dataDir: t.dir, time: `${r.localDate}T${r.localTime}` };
}

const checks = (mock: MockServer) => mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/times'));
const posts = (mock: MockServer) => mock.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/times'));

function audit(dataDir: string): { event: string; detail: string }[] {
  const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
  try {
    return db.prepare('SELECT event, detail FROM audit_log ORDER BY id').all() as { event: string; detail: string }[];
  } finally {
    db.close();
  }
}

describe('reconciliation that can neither duplicate nor loop', () => {
  it.each<[string, ServerVariants]>([
    ['records as the spec shows them', {}],
    ['records with seconds (…T07:31:00)', { timesTimeFormat: 'seconds' }],
    ['records with seconds and an offset (…T07:31:00-03:00)', { timesTimeFormat: 'offset' }],
    ['an end date the server treats as exclusive', { timesEndExclusive: true }],
  ])('%s: found with one request, marked sent, never sent twice', async (_what, variants) => {
    const { mock, agent } = await inDoubt(variants);
    await waitFor(() => agent.status().queue.sent === 1, 'reconciled as sent', 10_000);
    expect(mock.records()).toHaveLength(1);
    expect(posts(mock)).toHaveLength(1);
    // One check: the day before to the day after, matched here by minute.
    expect(checks(mock)).toHaveLength(1);
    const q = checks(mock)[0]?.query ?? {};
    expect(q.start_date! < q.end_date!).toBe(true);
  });

  it.each<[string, ServerVariants, 'delivered' | 'resend']>([
    ['a 404 to GET /times (a gateway without the route)', { timesAnswer: 404 }, 'delivered'],
    ['a 400 to GET /times (other parameter names)', { timesAnswer: 400 }, 'resend'],
  ])(
    '%s: stays in doubt with back-off, never resent by itself, handed to a person after the bounded checks',
    async (_what, variants, decision) => {
      const { mock, agent, dataDir } = await inDoubt(variants);
      await waitFor(() => agent.status().queue.held === 1, 'handed to a person', 15_000);
      expect(checks(mock)).toHaveLength(MAX_CHECKS);
      expect(posts(mock)).toHaveLength(1);
      expect(agent.listHeld()).toEqual([
        expect.objectContaining({
          held_reason: 'unverified',
          last_error: expect.stringMatching(/would not say whether it has this punch \(3 checks/),
        }),
      ]);
      // The checks backed off (20 ms doubling, equal jitter): no request storm, and none after the hand-over.
      const at = checks(mock).map((r) => r.at);
      expect((at[2] as number) - (at[0] as number)).toBeGreaterThanOrEqual(30);
      await new Promise((r) => setTimeout(r, 300));
      expect(checks(mock)).toHaveLength(MAX_CHECKS);

      const id = agent.listHeld()[0]?.id ?? 0;
      expect(agent.decideHeld(id, decision, 'the test')).toBe(true);
      expect(agent.decideHeld(id, decision, 'the test')).toBe(false);
      if (decision === 'delivered') {
        expect(agent.status().queue).toMatchObject({ sent: 1, held: 0 });
        expect(mock.records()).toHaveLength(1);
      } else {
        // A person chose to send it again: it goes out (and the service may now hold it twice).
        await waitFor(() => posts(mock).length === 2 && agent.status().queue.sent === 1, 'sent again');
      }
      expect(audit(dataDir).at(-1)).toMatchObject({
        event: decision === 'delivered' ? 'held_marked_delivered' : 'held_resend',
        detail: expect.stringMatching(/by the test/),
      });
    },
  );
});
