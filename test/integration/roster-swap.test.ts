import { TO_HOLD_SQL } from '../../src/store/punches/held-rows.js';
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DB_FILE_NAME, openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { Identities } from '../../src/store/roster/identities.js';
import { Outbox } from '../../src/store/punches/outbox.js';
import { reclaimStep, retiredTables } from '../../src/store/roster/roster-tables.js';
import { Roster, type RosterEmployee } from '../../src/store/roster/roster.js';
import { rosterRig } from '../helpers/roster-rig.js';
import { tempDir } from '../helpers/temp.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

function fresh(): { dir: string; db: Db } {
  const t = tempDir();
  const db = openDatabase(t.dir);
  cleanups.push(t.cleanup, () => void (db.open && db.close()));
  return { dir: t.dir, db };
}

/** Generation `g` of a site: employee i's name and fitness change with it, so each swap is visible. */
function employee(i: number, g: number): RosterEmployee {
  return {
    id: `emp-${i}`,
    external_id: String(10_000 + i),
    full_name: `Employee ${String(i).padStart(5, '0')} g${g}`,
    cpf: String(10_000_000_000 + i * 7),
    registration_number: `R${i}`,
    timezone: 'America/Sao_Paulo',
    work_schedule: (i + g) % 7 === 0 ? null : 'ws-1',
    payment_source: (i + g) % 11 === 0 ? null : 'ps-1',
    allow_api_record: (i + g) % 13 === 0 ? 0 : 1,
    timezone_invalid: (i + g) % 17 === 0 ? 'Mars/Olympus' : null,
  };
}
const site = (n: number, g: number, from = 0) => Array.from({ length: n }, (_, i) => employee(from + i, g));

/** Stages `list` in pages of 100, as a sync does. */
function stage(roster: Roster, list: RosterEmployee[]): void {
  roster.beginStaging();
  for (let i = 0; i < list.length; i += 100) roster.stagePage(list.slice(i, i + 100));
}

async function reclaimAll(roster: Roster, db: Db): Promise<void> {
  await roster.reclaim();
  expect(retiredTables(db)).toEqual([]);
}

const indexesOf = (db: Db, table: string) =>
  (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name`)
      .all(table) as { name: string }[]
  ).map((r) => r.name.replace(/^roster_(g\d+_)?/, ''));

describe('roster swap by renaming tables', () => {
  it('keeps lookups by badge, id, external_id, registration and CPF working across several swaps, on statements prepared before the first', async () => {
    const { db } = fresh();
    const roster = new Roster(db);
    const ids = new Identities(db);
    const outbox = new Outbox(db);
    ids.enroll('BADGE-7', 'emp-7', 1, 'test');
    for (let g = 1; g <= 4; g++) {
      // Each generation drops the first g employees and adds g new ones at the end.
      stage(roster, site(300, g, g));
      expect(roster.commitStaging()).toBe(300);
      const first = employee(g, g);
      expect(ids.lookups.external_id(first.external_id as string)?.full_name).toBe(first.full_name);
      expect(ids.lookups.registration_number(`R${g + 10}`).map((e) => e.full_name)).toEqual([
        employee(g + 10, g).full_name,
      ]);
      expect(ids.lookups.cpf(employee(g + 20, g).cpf as string)).toHaveLength(1);
      expect(ids.employee(`emp-${g + 299}`)?.full_name).toBe(employee(g + 299, g).full_name);
      // Gone from this generation: nobody answers.
      expect(ids.employee(`emp-${g - 1}`)).toBeNull();
      expect(ids.lookups.badge('BADGE-7')?.full_name).toBe(employee(7, g).full_name);
      expect(roster.size()).toBe(300);
      // The outbox's statements on roster_employees follow the swap too.
      expect(() => outbox.applyApiPermissions(1)).not.toThrow();
      await reclaimAll(roster, db);
    }
    // Every index the roster had, on the table in use (under this generation's names).
    const all = [
      'by_cpf',
      'by_external_id',
      'by_payment_source',
      'by_registration',
      'by_source_name',
      'no_cpf',
      'not_allowed',
      'unfit',
    ];
    expect(indexesOf(db, 'roster_employees')).toEqual(all);
    expect(indexesOf(db, 'roster_staging')).toEqual(all);
    for (const sql of [
      'SELECT * FROM roster_employees WHERE external_id = ?',
      'SELECT * FROM roster_employees WHERE cpf = ?',
      'SELECT * FROM roster_employees WHERE registration_number = ?',
    ]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[])
        .map((r) => r.detail)
        .join(' / ');
      expect(plan).toMatch(/USING INDEX roster_g\d+_by_/);
    }
  });

  it("after a sync, the pending punches to hold are found from the unsent punches' index, not by reading every punch", () => {
    const { db } = fresh();
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${TO_HOLD_SQL}`).all() as { detail: string }[]).map((r) => r.detail);
    expect(plan).toEqual([
      'SCAN p USING INDEX punches_unsent_by_id',
      'SEARCH r EXISTS USING INDEX sqlite_autoindex_roster_employees_1 (id=?)',
    ]);
  });

  it('stores a summary equal to a full recount, and lists unfit employees from an index, not a pass', async () => {
    const { db } = fresh();
    const roster = new Roster(db);
    for (let g = 1; g <= 3; g++) {
      stage(roster, site(1_000 + g * 37, g));
      roster.commitStaging();
      expect(roster.summary()).toEqual(roster.computeSummary());
      expect(roster.summary().health.missingWorkSchedule).toBeGreaterThan(0);
      expect(roster.summary().notAllowed).toBeGreaterThan(0);
      await reclaimAll(roster, db);
    }
    // A page the server repeats adds nothing, and is not counted twice.
    stage(roster, site(250, 9));
    roster.stagePage(site(100, 9));
    roster.commitStaging();
    expect(roster.summary()).toEqual(roster.computeSummary());
    // Staged pages commit without an fsync, the connection is as it was after each.
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const plan = (
      db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id FROM roster_staging WHERE work_schedule IS NULL OR payment_source IS NULL OR timezone_invalid IS NOT NULL ORDER BY full_name LIMIT 50`,
        )
        .all() as { detail: string }[]
    ).map((r) => r.detail);
    expect(plan.join(' / ')).toMatch(/^SCAN roster_staging USING INDEX roster_g\d+_unfit$/);
  });

  it('a reader in a transaction sees the old roster whole while the new one is staged and swapped, then the new one whole', () => {
    const { dir, db } = fresh();
    const roster = new Roster(db);
    roster.replace(site(500, 1));
    const reader = new Database(path.join(dir, DB_FILE_NAME), { readonly: true });
    cleanups.push(() => void reader.close());
    const names = () =>
      reader.prepare("SELECT COUNT(*) AS n, SUM(full_name LIKE '% g1') AS g1 FROM roster_employees").get() as {
        n: number;
        g1: number;
      };
    reader.prepare('BEGIN').run();
    expect(names()).toEqual({ n: 500, g1: 500 });
    stage(roster, site(700, 2));
    expect(names()).toEqual({ n: 500, g1: 500 });
    roster.commitStaging();
    // Its snapshot predates the swap: still the old roster, all of it.
    expect(names()).toEqual({ n: 500, g1: 500 });
    reader.prepare('COMMIT').run();
    expect(names()).toEqual({ n: 700, g1: 0 });
  });

  it('a sync that fails or is cancelled leaves the roster in use untouched, and its pages are freed by the next', async () => {
    const { db } = fresh();
    const roster = new Roster(db);
    roster.replace(site(400, 1));
    const before = roster.summary();
    stage(roster, site(250, 2));
    // The next sync begins: what the failed one staged is retired, not deleted in one go.
    roster.beginStaging();
    expect(roster.stagedSize()).toBe(0);
    expect(retiredTables(db).length).toBeGreaterThan(0);
    await reclaimAll(roster, db);
    expect(roster.size()).toBe(400);
    expect(roster.summary()).toEqual(before);
    expect(new Identities(db).employee('emp-3')?.full_name).toBe(employee(3, 1).full_name);
  });

  it('frees a retired roster in small steps (indexes first), drops it, and reuses its pages: the file stops growing', async () => {
    const { db } = fresh();
    const roster = new Roster(db);
    roster.replace(site(3_000, 1));
    await reclaimAll(roster, db);
    const pages: number[] = [];
    for (let g = 2; g <= 5; g++) {
      stage(roster, site(3_000, g));
      roster.commitStaging();
      const [retired] = retiredTables(db);
      expect(retired).toBeDefined();
      const steps: string[] = [];
      while (retiredTables(db).length > 0) {
        const idx = indexesOf(db, retired as string).length;
        reclaimStep(db, 500);
        steps.push(indexesOf(db, retired as string).length < idx ? 'index' : 'rows');
      }
      // Eight indexes, one a step, then 3,000 rows in six steps and the empty table's drop.
      expect(steps.slice(0, 8)).toEqual(Array(8).fill('index'));
      expect(steps.length).toBe(8 + 6 + 1);
      expect(db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name GLOB 'roster_retired_*'").get()).toEqual({
        n: 0,
      });
      expect(db.pragma('freelist_count', { simple: true }) as number).toBeGreaterThan(0);
      pages.push(db.pragma('page_count', { simple: true }) as number);
    }
    // The next staging reuses what the last one freed: no growth from the third swap on.
    expect(pages[3]).toBeLessThanOrEqual(pages[1] as number);
    await reclaimAll(roster, db);
  });
});

describe('a crash between the steps of a sync leaves a usable roster on the next open', () => {
  function reopen(dir: string, db: Db): { db: Db; roster: Roster; ids: Identities } {
    db.close();
    const again = openDatabase(dir);
    cleanups.push(() => void (again.open && again.close()));
    return { db: again, roster: new Roster(again), ids: new Identities(again) };
  }

  it('while staging: the old roster, and the next sync starts clean', async () => {
    const { dir, db } = fresh();
    new Roster(db).replace(site(300, 1));
    stage(new Roster(db), site(500, 2).slice(0, 200));
    const r = reopen(dir, db);
    expect(r.roster.size()).toBe(300);
    expect(r.roster.summary()).toEqual(r.roster.computeSummary());
    expect(r.ids.lookups.external_id('10005')?.full_name).toBe(employee(5, 1).full_name);
    stage(r.roster, site(500, 2));
    expect(r.roster.commitStaging()).toBe(500);
    expect(r.roster.summary()).toEqual(r.roster.computeSummary());
    await reclaimAll(r.roster, r.db);
  });

  it('inside the swap: all or nothing (a failure after the renames rolls them back)', () => {
    const { db } = fresh();
    const roster = new Roster(db);
    roster.replace(site(300, 1));
    stage(roster, site(400, 2));
    const exec = db.exec.bind(db);
    db.exec = (sql: string) => {
      if (/^CREATE TABLE roster_staging/.test(sql)) throw new Error('power cut');
      return exec(sql);
    };
    expect(() => roster.commitStaging()).toThrow('power cut');
    db.exec = exec;
    expect(roster.size()).toBe(300);
    expect(roster.stagedSize()).toBe(400);
    expect(roster.summary().size).toBe(300);
    expect(roster.commitStaging()).toBe(400);
    expect(roster.summary()).toEqual(roster.computeSummary());
  });

  it('after the swap, before or while the old roster is freed: the new roster, and the freeing resumes', async () => {
    const { dir, db } = fresh();
    const roster = new Roster(db);
    roster.replace(site(300, 1));
    stage(roster, site(2_000, 2));
    roster.commitStaging();
    for (let i = 0; i < 9; i++) reclaimStep(db, 500); // indexes gone (seven), some rows deleted
    const r = reopen(dir, db);
    expect(r.roster.size()).toBe(2_000);
    expect(r.roster.summary()).toEqual(r.roster.computeSummary());
    expect(r.ids.lookups.cpf(employee(1_500, 2).cpf as string)).toHaveLength(1);
    expect(retiredTables(r.db)).toHaveLength(1);
    await reclaimAll(r.roster, r.db);
    expect(r.ids.employee('emp-1999')?.full_name).toBe(employee(1_999, 2).full_name);
  });
});

describe('the agent across roster syncs', () => {
  it('punches by id after each of three full syncs, each swapping the roster', async () => {
    const { agent, mock } = await rosterRig(cleanups, { employees: 250, siteId: null });
    await agent.start({ awaitRosterIfEmpty: true });
    const people = mock.employees().slice(0, 3);
    for (let round = 0; round < 3; round++) {
      if (round > 0) expect((await agent.syncRoster()).ok).toBe(true);
      const p = people[round];
      const r = await agent.punch({ kind: 'id', value: p?.external_id ?? '?' });
      expect(r).toMatchObject({ ok: true });
      expect(agent.status().roster.size).toBe(250);
    }
  });
});

describe('enrolled badges', () => {
  it('are counted by triggers: the count status reads always equals a recount', () => {
    const { db } = fresh();
    const ids = new Identities(db);
    const recount = () => (db.prepare('SELECT COUNT(*) AS n FROM badge_enrollments').get() as { n: number }).n;
    for (let i = 0; i < 50; i++) ids.enroll(`B${i}`, `emp-${i}`, 1, 'test');
    ids.enroll('B3', 'emp-40', 2, 'test'); // the badge changes hands: still one badge
    ids.unenroll('B7');
    ids.unenroll('nobody');
    db.prepare('DELETE FROM badge_enrollments WHERE code IN (?, ?)').run('B8', 'B9');
    expect(ids.enrollmentCount()).toBe(recount());
    expect(ids.enrollmentCount()).toBe(47);
  });
});
