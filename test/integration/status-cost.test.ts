/**
 * Status costs the same after a year of punches as on day one (issue 14, item 5): every statement
 * a status read (and the agent's start) runs is shown by SQLite's own planner to seek an index, a
 * counter or a stored summary, on a database of 200,000 delivered punches and a 500-employee
 * roster. The statements are the ones really executed, caught by better-sqlite3's trace.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSettingsView } from '../../src/agent/settings/stored-settings.js';
import { readStatus } from '../../src/agent/status/status.js';
import { DB_FILE_NAME, openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { Identities } from '../../src/store/roster/identities.js';
import { Outbox, type NewPunch } from '../../src/store/punches/outbox.js';
import { RateSlots } from '../../src/store/settings/rate-slots.js';
import { Roster } from '../../src/store/roster/roster.js';
import { UnresolvedPunches } from '../../src/store/punches/unresolved.js';
import { fillDelivered, siteEmployee, type History } from '../helpers/history.js';
import { tempDir } from '../helpers/temp.js';

const HISTORY = 200_000;
const EMPLOYEES = 500;

let dir: { dir: string; cleanup: () => void };
let history: History;
let now: number;

const punch = (e: number, at: number, extra: Partial<NewPunch> = {}): NewPunch => ({
  capturedAt: at,
  localDate: '2026-03-02',
  localTime: new Date(at).toISOString().slice(11, 16),
  timeZone: 'America/Sao_Paulo',
  employeeKey: `emp-${e}`,
  employeeExternalId: String(10_000 + e),
  employeeName: `Employee ${e}`,
  credentialKind: 'badge',
  clockFlag: null,
  ...extra,
});

beforeAll(() => {
  dir = tempDir();
  const db = openDatabase(dir.dir);
  new Roster(db).replace(Array.from({ length: EMPLOYEES }, (_, i) => siteEmployee(i)));
  history = fillDelivered(db, { punches: HISTORY, employees: EMPLOYEES, journal: false });
  // Today's work on top, in every state status counts.
  const outbox = new Outbox(db);
  now = history.lastCapturedAt + 86_400_000;
  const ids = Array.from({ length: 8 }, (_, i) => {
    const r = outbox.insert(punch(i, now - 3_600_000 + i * 60_000));
    if (!r.inserted) throw new Error('not inserted');
    return r.id;
  });
  outbox.markSending(ids[0] as number, now);
  outbox.markInDoubt(ids[1] as number, now, now + 1_000, 'timeout');
  outbox.markRejected(ids[2] as number, now, 'employee unknown');
  outbox.markHeld(ids[3] as number, now, 'forbidden', '403', now + 60_000);
  outbox.markSent(ids[4] as number, now, 'srv-x', 'created');
  outbox.insert(punch(101, now - 7_200_000, { heldReason: 'not_allowed' }));
  db.close();
}, 60_000);

afterAll(() => dir.cleanup());

/** Runs `fn` on a connection that records every statement it executes, then asks the planner about each. */
function plansOf(fn: (db: Db) => void): { sql: string; plan: string[] }[] {
  const seen = new Set<string>();
  let recording = true;
  // Opened by hand to record the SQL; the file was opened and migrated as the durable connection before.
  const db = new Database(path.join(dir.dir, DB_FILE_NAME), {
    verbose: (sql) => recording && seen.add(String(sql)),
  }) as Db;
  try {
    fn(db);
    recording = false;
    return [...seen]
      .filter((sql) => !/^\s*PRAGMA/i.test(sql))
      .map((sql) => ({
        sql: sql.replace(/\s+/g, ' ').trim(),
        plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail),
      }));
  } finally {
    db.close();
  }
}

/**
 * A pass over a table whose size grows with history or with the site. Allowed: tables that stay
 * small (the six counters, the badge count, the rate window's slots, unmatched codes) and the partial
 * indexes that hold only the queue (unsent punches) or what status lists (colliding and held
 * punches, not-allowed employees).
 */
function fullPasses(plans: { sql: string; plan: string[] }[]): string[] {
  // journal_archives: one row per monthly archive (about 60 in the five years they are kept).
  const small = /^SCAN (punch_counts|badge_count|rate_slots|unresolved_punches|settings|journal_archives)\b/;
  // The roster's indexes carry a generation once a roster has been swapped in (roster_g<n>_…).
  // Partial indexes of the few they list (not_allowed, no_cpf: migration 12), and the skip scan's
  // own rows (one per distinct payment source).
  const listed =
    /USING (COVERING )?INDEX (punches_unsent_by_id|punches_due|punches_colliding|punches_held|roster_(g\d+_)?(not_allowed|no_cpf))\b|^SCAN sources$/;
  return plans.flatMap(({ sql, plan }) =>
    plan.filter((d) => d.startsWith('SCAN ') && !small.test(d) && !listed.test(d)).map((d) => `${d}   <- ${sql}`),
  );
}

describe(`status on ${HISTORY.toLocaleString('en')} delivered punches and ${EMPLOYEES} employees`, () => {
  it('reads counters, index seeks and stored summaries only: no pass over punches or the roster', () => {
    const plans = plansOf((db) => {
      const config = { siteId: undefined, rateLimit: { limit: 60, windowMs: 60_000 } };
      const settings = storedSettingsView(db, config, false);
      readStatus({
        db,
        outbox: new Outbox(db),
        roster: new Roster(db),
        rateSlots: new RateSlots(db),
        identities: new Identities(db),
        unresolved: new UnresolvedPunches(db),
        rule: settings.rateLimit,
        settings,
        now,
        terminalId: 'door-1',
        rosterRefreshMs: 86_400_000,
      });
    });
    if (process.env.SHOW_PLANS) console.log(plans.map((p) => `${p.sql}\n    ${p.plan.join(' / ')}`).join('\n'));
    expect(fullPasses(plans)).toEqual([]);
    const planOf = (re: RegExp) => plans.find((p) => re.test(p.sql))?.plan.join(' / ');
    expect(planOf(/FROM punch_counts/)).toMatch(/punch_counts/);
    // MIN over an index: one seek to its first entry.
    expect(planOf(/MIN\(captured_at\)/)).toMatch(/^SEARCH punches USING (COVERING )?INDEX punches_unsent_at$/);
    expect(plans.some((p) => /roster_summary/.test(p.sql))).toBe(true);
    expect(plans.some((p) => /GROUP BY/i.test(p.sql))).toBe(false);
  });

  it('says what a full pass would say: counts, oldest unsent and roster health agree with the tables', () => {
    const db = openDatabase(dir.dir);
    try {
      const config = { siteId: undefined, rateLimit: { limit: 60, windowMs: 60_000 } };
      const settings = storedSettingsView(db, config, false);
      const roster = new Roster(db);
      const s = readStatus({
        db,
        outbox: new Outbox(db),
        roster,
        rateSlots: new RateSlots(db),
        identities: new Identities(db),
        unresolved: new UnresolvedPunches(db),
        rule: settings.rateLimit,
        settings,
        now,
        terminalId: 'door-1',
        rosterRefreshMs: 86_400_000,
      });
      const grouped = Object.fromEntries(
        (
          db.prepare('SELECT state, COUNT(*) AS n FROM punches GROUP BY state').all() as { state: string; n: number }[]
        ).map((r) => [r.state, r.n]),
      );
      expect(s.queue).toEqual({ pending: 0, sending: 0, in_doubt: 0, sent: 0, rejected: 0, held: 0, ...grouped });
      expect(s.queue.sent).toBe(HISTORY + 1);
      const oldest = (
        db
          .prepare(
            `SELECT MIN(captured_at) AS t FROM punches NOT INDEXED WHERE state IN ('pending','sending','in_doubt')`,
          )
          .get() as { t: number }
      ).t;
      expect(s.oldestUnsentAgeMs).toBe(now - oldest);
      const live = db
        .prepare(
          `SELECT COUNT(*) AS n, SUM(work_schedule IS NULL) AS ws, SUM(payment_source IS NULL) AS ps, SUM(allow_api_record = 0) AS na,
             SUM(work_schedule IS NULL OR payment_source IS NULL) AS unfit FROM roster_employees`,
        )
        .get() as Record<string, number>;
      expect(s.roster.size).toBe(live['n']);
      expect(s.roster.health).toMatchObject({
        missingWorkSchedule: live['ws'],
        missingEmployer: live['ps'],
        badTimeZone: 0,
      });
      expect(s.roster.health.employees).toHaveLength(Math.min(20, live['unfit'] as number));
      expect(s.roster.notAllowed.count).toBe(live['na']);
      expect(s.roster.notAllowed.employees.find((e) => e.id === 'emp-101')?.heldPunches).toBe(1);
    } finally {
      db.close();
    }
  });

  it("the agent's start reads the latest capture and the retry queue from indexes, not from the history", () => {
    const plans = plansOf((db) => {
      const outbox = new Outbox(db);
      new Roster(db).ensureSummary();
      outbox.latestCaptureAt();
      outbox.recoverInterrupted(now);
      outbox.clampDeadlines(now, 3_600_000);
      outbox.earliestDueAt();
      outbox.hasDue(now);
      outbox.dueBatch(now, 10);
    });
    expect(fullPasses(plans)).toEqual([]);
    expect(plans.find((p) => /MAX\(captured_at\)/.test(p.sql))?.plan.join(' / ')).toMatch(
      /^SEARCH punches USING (COVERING )?INDEX punches_captured_at$/,
    );
  });
});
