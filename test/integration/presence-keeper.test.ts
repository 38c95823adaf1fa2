/**
 * The presence keeper driven round by round (issue 30): real SQLite files, a real redis-server, an
 * injected clock the test steps; the read loop is never started, each round is `tick()`, so what a
 * terminal has read is exactly what the test let it read. The board is built without reading the
 * roster (the names are refreshed by the round), and a terminal that learns of a roll call late
 * turns the badges it took since its start into marks, shared with the others.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PresenceKeeper } from '../../src/agent/presence/presence-keeper.js';
import type { PunchAnswer } from '../../src/agent/receipts/receipts.js';
import type { PersonPresence } from '../../src/domain/punch/presence.js';
import { silentLogger } from '../../src/log.js';
import { openDatabase, type DurableDb } from '../../src/store/database.js';
import { PresenceTables } from '../../src/store/punches/presence-tables.js';
import { presenceStreamKey, RedisPresenceStream } from '../../src/sync/fleet/presence-stream.js';
import { startRedis, type RedisProcess } from '../helpers/redis-server.js';
import { tempDir, waitFor } from '../helpers/temp.js';

/** 08:00 in São Paulo on 2026-11-27. */
const T0 = Date.UTC(2026, 10, 27, 11, 0);
const ZONE = 'America/Sao_Paulo';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** The presence tables, counting every read of the roster's names. */
class CountedTables extends PresenceTables {
  rosterReads = 0;
  override names(): ReturnType<PresenceTables['names']> {
    this.rosterReads++;
    return super.names();
  }
  override namesPage(afterId: string, limit: number): ReturnType<PresenceTables['namesPage']> {
    this.rosterReads++;
    return super.namesPage(afterId, limit);
  }
}

type Row = {
  employee_key: string;
  employee_external_id: string;
  captured_at: number;
  local_date: string;
  local_time: string;
};

type Terminal = {
  keeper: PresenceKeeper;
  db: DurableDb;
  tables: CountedTables;
  /** A committed punch of `person` at the clock's instant, handed to the keeper as the agent does. */
  punch: (person: number) => Promise<void>;
};

const keyOf = (i: number) => `emp-${i}`;
const wall = (at: number) => {
  const d = new Date(at - 3 * 3_600_000);
  return { date: d.toISOString().slice(0, 10), time: d.toISOString().slice(11, 19) };
};

function terminal(
  id: string,
  clock: { now: () => number },
  stream: RedisPresenceStream | null,
  people = 0,
  known: PersonPresence[] = [],
): Terminal {
  const dir = tempDir(`timeclock-presence-keeper-${id}-`);
  cleanups.push(dir.cleanup);
  const db = openDatabase(dir.dir);
  cleanups.push(() => {
    db.close();
  });
  const insert = db.prepare('INSERT INTO roster_employees (id, external_id, full_name) VALUES (?, ?, ?)');
  for (let i = 0; i < people; i++) insert.run(keyOf(i), String(100000 + i), `Pessoa ${i}`);
  const tables = new CountedTables(db);
  // What the terminal knew before this start (its presence table).
  tables.saveAll(known);
  const rows = new Map<number, Row>();
  const keeper = new PresenceKeeper({
    tables,
    punchRow: (n) => rows.get(n),
    stream,
    streamKey: () => (stream ? presenceStreamKey('acct', 'site-1') : null),
    terminal: id,
    gate: `portão ${id}`,
    siteTimeZone: () => ZONE,
    siteName: () => 'Obra',
    dataDir: dir.dir,
    readDay: null,
    clock,
    sleep: () => Promise.resolve(),
    log: silentLogger,
    changed: () => {},
    opts: { maxShiftMs: 16 * 3_600_000, pollMs: 50, fallbackEveryMs: 120_000, fallbackPeople: 200 },
  });
  cleanups.push(() => keeper.stop());
  let next = 1;
  return {
    keeper,
    db,
    tables,
    punch: async (person) => {
      const n = next++;
      const w = wall(clock.now());
      rows.set(n, {
        employee_key: keyOf(person),
        employee_external_id: String(100000 + person),
        captured_at: clock.now(),
        local_date: w.date,
        local_time: w.time,
      });
      keeper.punched({ ok: true, punchId: n, repeat: false } as unknown as PunchAnswer);
      // The keeper takes the punch a moment after its answer (setImmediate), then starts a round: let both run.
      await new Promise<void>((r) => setImmediate(r));
      await keeper.tick();
    },
  };
}

describe('the board a manager waits for', () => {
  it('never reads the roster: the names are refreshed by the background round once they are 30 s old', async () => {
    let now = T0;
    const clock = { now: () => now };
    const inside: PersonPresence[] = Array.from({ length: 300 }, (_, i) => ({
      id: `A:${i}`,
      employeeKey: keyOf(i),
      employeeExternalId: String(100000 + i),
      at: T0 - i * 1_000,
      localDate: '2026-11-27',
      localTime: '07:59',
      direction: 'entry',
      terminal: 'A',
      gate: 'portão A',
      source: 'own',
      entryAt: T0 - i * 1_000,
      entryGate: 'portão A',
    }));
    const t = terminal('A', clock, null, 300, inside);
    const keeper = t.keeper;
    const readsAtStart = t.tables.rosterReads;
    expect(keeper.board().counts.onSite).toBe(300);
    expect(keeper.board().onSite.find((p) => p.employeeKey === keyOf(7))?.name).toBe('Pessoa 7');

    now += 31_000;
    t.db.prepare('UPDATE roster_employees SET full_name = ? WHERE id = ?').run('Pessoa Sete', keyOf(7));
    // The names are stale, and still the builds read nothing: the manager waits for none of it.
    for (let i = 0; i < 5; i++)
      expect(keeper.board().onSite.find((p) => p.employeeKey === keyOf(7))?.name).toBe('Pessoa 7');
    expect(t.tables.rosterReads).toBe(readsAtStart);

    await keeper.tick();
    expect(t.tables.rosterReads).toBeGreaterThan(readsAtStart);
    const readsAfterRound = t.tables.rosterReads;
    expect(keeper.board().onSite.find((p) => p.employeeKey === keyOf(7))?.name).toBe('Pessoa Sete');
    expect(keeper.board().onSite.every((p) => p.name !== null)).toBe(true);
    expect(t.tables.rosterReads).toBe(readsAfterRound);
  });
});

describe('a roll call learnt late', () => {
  let redis: RedisProcess;
  beforeEach(async () => {
    redis = await startRedis();
    cleanups.push(() => redis.stop());
  });

  it('the badges a terminal took since the roll call began, by people on its list, become marks, shared with the others', async () => {
    let now = T0;
    const clock = { now: () => now };
    const streams = ['A', 'C'].map((id) => new RedisPresenceStream({ url: redis.url, terminalId: id, maxLen: 50_000 }));
    cleanups.push(() => Promise.all(streams.map((s) => s.close())).then(() => {}));
    await waitFor(() => streams.every((s) => s.reachable), 'both connected to Redis', 5_000);
    const a = terminal('A', clock, streams[0] as RedisPresenceStream, 10);
    const c = terminal('C', clock, streams[1] as RedisPresenceStream, 10);
    for (const i of [1, 2, 3]) await a.punch(i);
    await c.keeper.tick();
    expect(c.keeper.board().counts.onSite).toBe(3);

    // Person 3 leaves through C before the roll call; A does not read it before it starts.
    now += 60_000;
    await c.punch(3);
    now += 60_000;
    const started = a.keeper.startRollCall();
    await a.keeper.tick();
    expect(started.counts).toEqual({ listed: 3, safe: 0, missing: 3 });

    // C has not read the stream since: person 2's badge there is taken before C knows of the roll call.
    now += 30_000;
    const badgeAt = now;
    await c.punch(2);
    // That punch's round read the roll call: the badge is a mark now.
    await c.keeper.tick();
    const atC = c.keeper.rollCall();
    expect(atC?.id).toBe(started.id);
    expect(atC?.counts).toEqual({ listed: 3, safe: 1, missing: 2 });
    expect(atC?.people.find((p) => p.employeeKey === keyOf(2))).toMatchObject({
      safe: true,
      how: 'badge',
      terminal: 'C',
      markedAt: badgeAt,
    });
    // Person 3's punch at C came before the start: not a mark.
    expect(atC?.people.find((p) => p.employeeKey === keyOf(3))?.safe).toBe(false);

    await c.keeper.tick();
    await a.keeper.tick();
    expect(a.keeper.rollCall()?.counts).toEqual({ listed: 3, safe: 1, missing: 2 });
    expect(a.keeper.rollCall()?.people.find((p) => p.safe)).toMatchObject({
      employeeKey: keyOf(2),
      how: 'badge',
      terminal: 'C',
    });
  });
});
