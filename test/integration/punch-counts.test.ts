/**
 * The counters status reads (punch_counts, kept by triggers: migration 8) say what a GROUP BY over
 * every punch would say, after any sequence of the outbox's real transitions — on the durable and
 * the bookkeeping connection alike, through roll-backs, holds and releases, and retention deletes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PunchState } from '../../src/domain/punch/punch.js';
import {
  DB_FILE_NAME,
  openBookkeepingConnection,
  openDatabase,
  type BookkeepingDb,
  type DurableDb as Db,
} from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations.js';
import { Outbox, type HeldReason } from '../../src/store/punches/outbox.js';
import { RetentionStore } from '../../src/store/upkeep/retention.js';
import { Roster } from '../../src/store/roster/roster.js';
import { siteEmployee } from '../helpers/history.js';
import { tempDir } from '../helpers/temp.js';

const STATES: PunchState[] = ['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held'];
const T0 = Date.UTC(2026, 2, 2, 11, 0);

function grouped(db: Db): Record<PunchState, number> {
  const out = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<PunchState, number>;
  for (const r of db.prepare('SELECT state, COUNT(*) AS n FROM punches GROUP BY state').all() as {
    state: PunchState;
    n: number;
  }[])
    out[r.state] = r.n;
  return out;
}

type Op =
  | { kind: 'insert'; employee: number; minute: number; held: boolean }
  | { kind: 'sending' | 'pending' | 'in_doubt' | 'check_failed' | 'sent' | 'rejected' | 'retry_rejected'; pick: number }
  | { kind: 'held'; pick: number; reason: HeldReason }
  | { kind: 'decide'; pick: number; decision: 'resend' | 'delivered' | 'dispute' }
  | { kind: 'recover' | 'permissions' | 'release_forbidden' | 'release_due' | 'retry_all' | 'prune_sent' }
  | { kind: 'rolled_back'; pick: number };

const pick = fc.nat(1_000);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      employee: fc.nat(7),
      minute: fc.nat(40),
      held: fc.boolean(),
    }),
    weight: 5,
  },
  fc.record({
    kind: fc.constantFrom(
      'sending' as const,
      'pending' as const,
      'in_doubt' as const,
      'check_failed' as const,
      'sent' as const,
      'rejected' as const,
      'retry_rejected' as const,
    ),
    pick,
  }),
  fc.record({
    kind: fc.constant('held' as const),
    pick,
    reason: fc.constantFrom<HeldReason>('not_allowed', 'forbidden', 'unverified', 'pin_unverified', 'disputed'),
  }),
  fc.record({
    kind: fc.constant('decide' as const),
    pick,
    decision: fc.constantFrom('resend' as const, 'delivered' as const, 'dispute' as const),
  }),
  fc.record({
    kind: fc.constantFrom(
      'recover' as const,
      'permissions' as const,
      'release_forbidden' as const,
      'release_due' as const,
      'retry_all' as const,
      'prune_sent' as const,
    ),
  }),
  fc.record({ kind: fc.constant('rolled_back' as const), pick }),
);

let dir: { dir: string; cleanup: () => void };
let db: Db;
let lazy: BookkeepingDb;
beforeAll(() => {
  dir = tempDir();
  db = openDatabase(dir.dir);
  lazy = openBookkeepingConnection(dir.dir);
  // Employees 0..7; emp-0 may not record by API (101 divides 0): its pending punches get held.
  new Roster(db).replace(Array.from({ length: 8 }, (_, i) => siteEmployee(i)));
});
afterAll(() => {
  lazy.close();
  db.close();
  dir.cleanup();
});

function apply(outbox: Outbox, ids: number[], o: Op, now: number): void {
  if ('pick' in o && ids.length === 0) return;
  const id = 'pick' in o ? (ids[o.pick % ids.length] as number) : 0;
  switch (o.kind) {
    case 'insert': {
      const at = T0 + o.minute * 60_000;
      const r = outbox.insert({
        capturedAt: at,
        localDate: '2026-03-02',
        localTime: new Date(at - 3 * 3_600_000).toISOString().slice(11, 16),
        timeZone: 'America/Sao_Paulo',
        employeeKey: `emp-${o.employee}`,
        employeeExternalId: String(10_000 + o.employee),
        employeeName: `E${o.employee}`,
        credentialKind: 'badge',
        clockFlag: null,
        heldReason: o.held ? 'forbidden' : null,
      });
      if (r.inserted) ids.push(r.id);
      return;
    }
    case 'sending':
      return outbox.markSending(id, now);
    case 'pending':
      return outbox.markPending(id, now, now, 'retry', true);
    case 'in_doubt':
      return outbox.markInDoubt(id, now, now, 'timeout');
    case 'check_failed':
      return outbox.markCheckFailed(id, now, now, '404');
    case 'sent':
      return outbox.markSent(id, now, 'srv', 'created');
    case 'rejected':
      return outbox.markRejected(id, now, '422');
    case 'retry_rejected':
      return void outbox.retryRejected(id, now);
    case 'held':
      return outbox.markHeld(id, now, o.reason, 'why', now);
    case 'decide':
      return void outbox.decideHeld(id, now, o.decision, 'test');
    case 'recover':
      return void outbox.recoverInterrupted(now);
    case 'permissions':
      return void outbox.applyApiPermissions(now);
    case 'release_forbidden':
      return void outbox.releaseForbidden(now);
    case 'release_due':
      return void outbox.releaseDueForbidden(now + 1);
    case 'retry_all':
      return void outbox.retryAllRejected(now);
    case 'prune_sent': {
      // Retention (store/upkeep/retention.ts): every punch delivered by now goes with its journal, in batches of three.
      const store = new RetentionStore(db);
      for (let more = true; more;) more = store.pruneDelivered(now + 1, 3).more;
      expect((db.prepare(`SELECT COUNT(*) AS n FROM punches WHERE state = 'sent'`).get() as { n: number }).n).toBe(0);
      ids.splice(
        0,
        ids.length,
        ...(db.prepare('SELECT id FROM punches ORDER BY id').all() as { id: number }[]).map((r) => r.id),
      );
      return;
    }
    case 'rolled_back':
      // A change undone by its transaction takes its count with it.
      try {
        db.transaction(() => {
          outbox.markSent(id, now, 'srv', 'created');
          throw new Error('undo');
        })();
      } catch {
        /* rolled back */
      }
      return;
  }
}

describe('punch counters', () => {
  it('equal a GROUP BY over the punches after every step of random transitions through the outbox', () => {
    const outbox = new Outbox(db, lazy);
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        // Each run from nothing (the counters too), so a counterexample is the run's own.
        db.exec('DELETE FROM punch_journal; DELETE FROM punches; DELETE FROM punch_counts;');
        const ids: number[] = [];
        ops.forEach((o, i) => {
          apply(outbox, ids, o, T0 + 3_600_000 + i * 1_000);
          expect(outbox.counts(), `after step ${i}: ${JSON.stringify(o)}`).toEqual(grouped(db));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('are seeded from the punches already there when migration 8 runs', () => {
    const d = tempDir();
    try {
      const raw = new Database(path.join(d.dir, DB_FILE_NAME));
      for (let v = 0; v < 7; v++) raw.exec(migrations[v] as string);
      raw.pragma('user_version = 7');
      const insert = raw.prepare(
        `INSERT INTO punches (captured_at, local_date, local_time, time_zone, employee_key, employee_name, credential_kind, state,
           next_attempt_at, updated_at, utc_minute) VALUES (?, '2026-03-02', ?, 'UTC', 'e', 'E', 'id', ?, 0, 0, ?)`,
      );
      STATES.forEach((state, k) => {
        for (let i = 0; i <= k * 3; i++)
          insert.run(i, `${String(k).padStart(2, '0')}:${String(i).padStart(2, '0')}`, state, k * 100 + i);
      });
      raw.close();
      const migrated = openDatabase(d.dir);
      try {
        const outbox = new Outbox(migrated);
        expect(outbox.counts()).toEqual({ pending: 1, sending: 4, in_doubt: 7, sent: 10, rejected: 13, held: 16 });
        expect(outbox.counts()).toEqual(grouped(migrated));
      } finally {
        migrated.close();
      }
    } finally {
      d.cleanup();
    }
  });
});
