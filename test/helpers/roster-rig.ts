import type { Agent } from '../../src/agent/facade/agent.js';
import { startMockServer, type MockServer, type ServerVariants } from '../../src/mock/mock-server.js';
import { generatedSeed, objectIdFor, type MockSeed } from '../../src/mock/seed.js';
import { testAgent, type TestAgentOptions } from './agent.js';
import { tempDir, waitFor } from './temp.js';

/** The first site of `generatedSeed`. */
export const GEN_SITE = objectIdFor('gen-site', 0);

export type RosterRig = { mock: MockServer; agent: Agent; dataDir: string };

type Cleanup = () => Promise<void> | void;

/**
 * A mock serving `variants` (one site, `employees` of it) and an agent of that site with test-sized
 * roster timings: a failed sync is retried after ~100 ms, a shrink re-checked after 300 ms.
 */
export async function rosterRig(
  cleanups: Cleanup[],
  o: {
    employees?: number;
    variants?: ServerVariants;
    seed?: MockSeed;
    siteId?: string | null;
    agent?: Partial<TestAgentOptions>;
    roster?: Record<string, unknown>;
  } = {},
): Promise<RosterRig> {
  const mock = await startMockServer({
    seed: o.seed ?? generatedSeed({ employees: o.employees ?? 130, sites: 1 }),
    rateLimit: { limit: 60, windowMs: 1_000 },
    ...(o.variants ? { variants: o.variants } : {}),
  });
  cleanups.push(() => mock.close());
  const t = tempDir();
  cleanups.push(t.cleanup);
  const agent = testAgent({
    dataDir: t.dir,
    mock,
    siteId: o.siteId === null ? undefined : (o.siteId ?? GEN_SITE),
    ...o.agent,
    settings: {
      roster: { pageSize: 100, retryBaseMs: 100, retryMaxMs: 400, shrinkRecheckMs: 300, ...o.roster },
      ...(o.agent?.settings ?? {}),
    },
  });
  cleanups.push(() => agent.stop());
  return { mock, agent, dataDir: t.dir };
}

/** Punches each external id by typing it, expecting each to be registered. */
export async function punchAll(agent: Agent, externalIds: readonly string[]): Promise<void> {
  for (const id of externalIds) {
    const r = await agent.punch({ kind: 'id', value: id });
    if (!r.ok) throw new Error(`punch of ${id} refused: ${JSON.stringify(r)}`);
  }
}

/** Waits until the service holds a record for each of these external ids (or `_id`s). */
export async function deliveredFor(mock: MockServer, keys: readonly string[], timeoutMs = 20_000): Promise<void> {
  const want = new Set(keys);
  await waitFor(
    () => {
      const have = new Set(mock.records().flatMap((r) => [r.employee_external_id ?? '', r.employee_id]));
      return [...want].every((k) => have.has(k));
    },
    `records on the service for ${keys.length} employees`,
    timeoutMs,
  );
}
