/**
 * A big roster: credential lookup latency with 100,000 employees and 100,000 enrolled badges, the
 * agent process's peak RSS with that roster, and the time of a full roster sync.
 *
 * One bench, one result, its measurements run one after another in this order:
 * 1. lookups (roster-lookups.ts): resolveCredential against a real SQLite roster, each call timed
 *    on its own, beside a bare primary-key SELECT;
 * 2. peak RSS (roster-memory.ts): a child node process builds a real agent, syncs, enrolls and
 *    punches, beside a child that only builds an agent;
 * 3. sync time (roster-sync.ts): agent.syncRoster() of 10,000 employees, beside a plain undici page
 *    loop;
 * 4. page cap (roster-sync.ts): a site's sync against a server capping its pages, beside one that
 *    does not.
 * What they share (sizes, rates, limits): roster-setup.ts.
 */
import type { Result } from './report.js';
import { rosterLookups } from './roster-lookups.js';
import { rosterMemory } from './roster-memory.js';
import { CHILD_LIMIT_MS, EMPLOYEES, SYNC_EMPLOYEES, SYNC_LIMIT_MS } from './roster-setup.js';
import { rosterSync } from './roster-sync.js';

export async function benchRoster(): Promise<Result> {
  const lookups = await rosterLookups();
  const memory = await rosterMemory();
  const sync = await rosterSync();
  const parts = [lookups, memory, sync];
  return {
    name: 'roster',
    title: `roster: lookups among ${EMPLOYEES} employees, agent memory with them, full sync of ${SYNC_EMPLOYEES}`,
    tables: parts.flatMap((p) => p.tables),
    targets: parts.flatMap((p) => p.targets),
    notes: [
      ...parts.flatMap((p) => p.notes),
      `each child is bounded by ${CHILD_LIMIT_MS / 1000} s, each sync by ${SYNC_LIMIT_MS / 1000} s; temp dirs removed`,
    ],
    raw: { employees: EMPLOYEES, ...lookups.raw, ...memory.raw, ...sync.raw },
  };
}
