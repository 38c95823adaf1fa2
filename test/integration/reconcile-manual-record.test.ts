/**
 * An in-doubt punch whose minute holds only a manager's record (issue 28 item 6): the service's
 * list shows an 'ajuste manual' of this employee at this minute and no 'registro externo'. That
 * record is not the punch (spec rule 2: the API stores its records as 'registro externo'), so
 * reconciliation finds the punch absent and sends it again; it must not mark it sent on the
 * manual record, which would leave the service without the punch's own record.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/domain/time/clock.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { demoSeed } from '../../src/mock/seed.js';
import { DB_FILE_NAME } from '../../src/store/database.js';
import { testAgent } from '../helpers/agent.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** A clock that runs from a fixed instant (a weekday afternoon in São Paulo), for the terminal and the service. */
function runningFrom(iso: string): Clock {
  const from = Date.parse(iso);
  const t0 = Date.now();
  return { now: () => from + (Date.now() - t0) };
}

const posts = (mock: MockServer) => mock.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/times'));
const gets = (mock: MockServer) => mock.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/times'));

function punchRows(dir: string): { state: string; remote_id: string | null }[] {
  const db = new Database(path.join(dir, DB_FILE_NAME), { readonly: true });
  try {
    return db.prepare('SELECT state, remote_id FROM punches ORDER BY id').all() as {
      state: string;
      remote_id: string | null;
    }[];
  } finally {
    db.close();
  }
}

describe('reconciliation when only a manual record holds the punch’s minute', () => {
  it('the punch is sent again and settled on its own external record, not marked sent on the manual one', async () => {
    const clock = runningFrom('2026-11-25T17:10:05Z');
    const mock = await startMockServer({ seed: demoSeed(), rateLimit: { limit: 60, windowMs: 1_000 }, clock });
    cleanups.push(() => mock.close());
    const t = tempDir();
    cleanups.push(t.cleanup);
    const agent = testAgent({ dataDir: t.dir, mock, clock, retry: { inDoubtGraceMs: 50, maxChecks: 3 } });
    cleanups.push(() => agent.stop());
    await agent.start({ awaitRosterIfEmpty: true });

    // The first POST is stored and its answer lost: the punch is in doubt.
    mock.setFaults({ dropAfterStore: 1, only: { method: 'POST', pathPrefix: '/times' } });
    const r = await agent.punch({ kind: 'id', value: '1001' });
    if (!r.ok) throw new Error(JSON.stringify(r));
    const minute = `${r.localDate}T${r.localTime}`;
    await waitFor(() => mock.records().length === 1, 'stored by the service, the answer lost');
    // The service lost it after all; a manager's adjustment of the same employee and minute is all it holds.
    expect(mock.deleteRecord(mock.records()[0]?._id ?? '')).toBe(true);
    const manual = mock.addRecord({ employee: '1001', time: minute, type: 'ajuste manual' });
    mock.setFaults(null);

    await waitFor(() => agent.status().queue.sent === 1, 'settled', 15_000);
    // The list was asked and said absent; the punch went again and the service made its record.
    expect(gets(mock).length).toBeGreaterThanOrEqual(1);
    expect(posts(mock)).toHaveLength(2);
    const external = mock.records().filter((x) => x.type === 'registro externo');
    expect(external).toHaveLength(1);
    expect(external[0]).toMatchObject({ time: minute });
    expect(
      mock
        .records()
        .map((x) => x._id)
        .sort(),
    ).toEqual([manual._id, external[0]!._id].sort());
    // The punch carries the id of its own record, never the manual one's.
    expect(punchRows(t.dir)).toEqual([{ state: 'sent', remote_id: external[0]!._id }]);
  });
});
