/**
 * The agent's retention (issue 14, item 5): passes in the background on the agent's clock, what
 * status and `timeclock status` say about them, and a stop in the middle of one. Real SQLite files,
 * a real agent against the mock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/facade/agent.js';
import { buildAgent, realRuntime } from '../../src/agent/build-agent.js';
import { statusText } from '../../src/cli/status/format.js';
import { configSchema, type Config } from '../../src/config.js';
import { statusSchema } from '../../src/contract.js';
import type { PunchState } from '../../src/domain/punch/punch.js';
import { silentLogger } from '../../src/log.js';
import { startMockServer } from '../../src/mock/mock-server.js';
import { AuditLog } from '../../src/store/roster/audit-log.js';
import { openDatabase, type Db } from '../../src/store/database.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { DAY_MS, RetentionStore } from '../../src/store/upkeep/retention.js';
import { runCli } from '../helpers/cli.js';
import { fillDelivered } from '../helpers/history.js';
import { tempDir, waitFor } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});
function data(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function grouped(db: Db): Record<PunchState, number> {
  const out: Record<PunchState, number> = { pending: 0, sending: 0, in_doubt: 0, sent: 0, rejected: 0, held: 0 };
  for (const r of db.prepare('SELECT state, COUNT(*) AS n FROM punches GROUP BY state').all() as {
    state: PunchState;
    n: number;
  }[])
    out[r.state] = r.n;
  return out;
}

describe('the agent', () => {
  it('prunes in the background with its clock, says what it kept in status and `timeclock status`, and stops cleanly', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const dir = data();
    const seed = openDatabase(dir);
    const h = fillDelivered(seed, { punches: 20_000, employees: 500, journal: true });
    new AuditLog(seed).record(h.lastCapturedAt - 500 * DAY_MS, 'pin_ok', 'emp-1');
    const clockNow = h.lastCapturedAt + 30 * DAY_MS;
    const expected = (
      seed
        .prepare(`SELECT COUNT(*) AS n FROM punches WHERE state = 'sent' AND sent_at < ?`)
        .get(clockNow - 90 * DAY_MS) as { n: number }
    ).n;
    // The delivery log (3 lines a punch) goes 7 days after delivery (migration 17), the punches after 90.
    const loggedOut = (
      seed
        .prepare(`SELECT COUNT(*) AS n FROM punches WHERE state = 'sent' AND sent_at < ?`)
        .get(clockNow - 7 * DAY_MS) as { n: number }
    ).n;
    seed.close();
    const config = configSchema.parse({
      dataDir: dir,
      api: { baseUrl: mock.url, token: 'demo-token', timeoutMs: 1_000 },
      timezone: 'America/Sao_Paulo',
      rateLimit: { limit: 60, windowMs: 1_000 },
      retention: { deliveredDays: 90 },
    }) as Config & { api: NonNullable<Config['api']> };
    const offset = clockNow - Date.now();
    const agent: Agent = buildAgent(
      config,
      { ...realRuntime(silentLogger), clock: { now: () => Date.now() + offset } },
      { retention: { firstAfterMs: 0 } },
    );
    cleanups.push(() => agent.stop());
    await agent.start({ roster: false });
    await waitFor(() => agent.status().retention.lastPass !== null, 'the first retention pass');
    const s = agent.status();
    expect(s.retention.lastPass).toMatchObject({
      outcome: 'done',
      deleted: { punches: expected, journal: 3 * loggedOut, audit: 1 },
      error: null,
    });
    expect(s.retention.lastPass?.at).toBeGreaterThanOrEqual(clockNow);
    expect(s.queue.sent).toBe(20_000 - expected);
    expect(s.retention).toMatchObject({
      deliveredDays: 90,
      auditDays: 400,
      deliveryLogDays: 7,
      deliveredEver: 20_000,
      deletedEver: { punches: expected, audit: 1 },
    });
    expect(s.retention.file.autoVacuum).toBe('incremental');
    expect(statusSchema.parse(s).retention).toEqual(s.retention);
    expect(statusText(s)).toMatch(
      new RegExp(`^delivered: +20000 in all: ${20_000 - expected} kept here, ${expected} deleted after 90 days`, 'm'),
    );
    await agent.stop();
    const cli = await runCli(['status'], { TIMECLOCK_DATA_DIR: dir });
    expect(cli.stdout).toMatch(
      new RegExp(`^last pruned: .*: ${expected} punches, ${3 * loggedOut} journal rows, 1 audit lines`, 'm'),
    );
  });

  it('a stop while a pass runs leaves counts and references whole', async () => {
    const mock = await startMockServer({ rateLimit: { limit: 60, windowMs: 1_000 } });
    cleanups.push(() => mock.close());
    const dir = data();
    const seed = openDatabase(dir);
    fillDelivered(seed, { punches: 30_000, employees: 500, journal: true });
    seed.close();
    const config = configSchema.parse({
      dataDir: dir,
      api: { baseUrl: mock.url, token: 'demo-token' },
      timezone: 'UTC',
    }) as Config & { api: NonNullable<Config['api']> };
    const agent = buildAgent(config, realRuntime(silentLogger), { retention: { firstAfterMs: 0 } });
    await agent.start({ roster: false });
    await new Promise((r) => setTimeout(r, 30));
    await agent.stop();
    const db = openDatabase(dir);
    cleanups.push(() => void db.close());
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(new Outbox(db).counts()).toEqual(grouped(db));
    const total = (db.prepare('SELECT COUNT(*) AS n FROM punches').get() as { n: number }).n;
    expect(total + new RetentionStore(db).deletedEver().punches).toBe(30_000);
  });
});
