/**
 * Issue 28, item 9: the work of a roster swap that could stop the event loop is done in bounded
 * steps. A retired roster is freed over many turns of the loop, lookups answer between them, and
 * with a checkpoint worker the log is copied off the loop between two steps (the steps' own commits
 * never checkpoint); roster health's list of workers of an unnamed employer reads an index in name
 * order instead of sorting every worker of the source.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DurableDb as Db } from '../../src/store/database.js';
import { Identities } from '../../src/store/roster/identities.js';
import { rosterGaps } from '../../src/store/roster/roster-gaps.js';
import { relaxedCommits, retiredTables, STAGING_CHECKPOINT_PAGES } from '../../src/store/roster/roster-tables.js';
import { Roster, type RosterEmployee, type WalCheckpoints } from '../../src/store/roster/roster.js';
import { checkpointInWorker } from '../../src/store/upkeep/checkpoint-worker.js';
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

/** Employee i of generation g; three payment sources, none of them read from the service. */
const employee = (i: number, g: number): RosterEmployee => ({
  id: `emp-${i}`,
  external_id: String(10_000 + i),
  full_name: `Employee ${String((i * 7_919) % 3_000).padStart(5, '0')} g${g}`,
  cpf: String(10_000_000_000 + i * 7),
  registration_number: `R${i}`,
  timezone: 'America/Sao_Paulo',
  work_schedule: 'ws-1',
  payment_source: `ps-${i % 3}`,
  allow_api_record: 1,
  timezone_invalid: null,
});
const site = (n: number, g: number) => Array.from({ length: n }, (_, i) => employee(i, g));

function swapIn(roster: Roster, list: RosterEmployee[]): void {
  roster.beginStaging();
  for (let i = 0; i < list.length; i += 100) roster.stagePage(list.slice(i, i + 100));
  roster.commitStaging();
}

const retiredRows = (db: Db): number => {
  const t = retiredTables(db)[0];
  return t === undefined ? -1 : (db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n;
};

describe('freeing a retired roster', () => {
  it('takes many turns of the loop, lookups answer the new roster between them, and the log is checkpointed by the worker between steps', async () => {
    const { dir, db } = fresh();
    /** Each checkpointer opened (staging's, each freeing's) by number, with what it was asked. */
    const seen: { by: number; retiredRows: number; autoCheckpoint: number }[] = [];
    const closed: number[] = [];
    let opened = 0;
    const roster = new Roster(db, {
      checkpoints: () => {
        const by = ++opened;
        const worker = checkpointInWorker(dir);
        return {
          checkpoint: () => {
            // What the main connection has between two steps: its own setting back, the step's 0 gone.
            seen.push({
              by,
              retiredRows: retiredRows(db),
              autoCheckpoint: db.pragma('wal_autocheckpoint', { simple: true }) as number,
            });
            return worker.checkpoint();
          },
          close: () => {
            closed.push(by);
            return worker.close();
          },
        };
      },
    });
    const ids = new Identities(db);
    swapIn(roster, site(3_000, 1));
    await roster.reclaim();
    swapIn(roster, site(3_000, 2));
    expect(retiredTables(db)).toHaveLength(1);
    // The swap closed the staging's checkpointer; the freeing opens the next one.
    const freeing = opened + 1;
    // One lookup a turn of the loop while the freeing runs.
    let turns = 0;
    let wrong = 0;
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      turns++;
      const i = turns % 3_000;
      if (ids.employee(`emp-${i}`)?.full_name !== employee(i, 2).full_name) wrong++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await roster.reclaim();
    ticking = false;
    const steps = seen.filter((s) => s.by === freeing);

    expect(retiredTables(db)).toEqual([]);
    expect(wrong).toBe(0);
    // Eight index drops, 3,000 rows in six deletions, the empty table's drop: a checkpoint after each, and a last one
    // when nothing is left.
    expect(steps.length).toBe(8 + 6 + 1 + 1);
    expect(turns).toBeGreaterThanOrEqual(steps.length);
    const rows = steps.map((s) => s.retiredRows);
    expect(rows.slice(8, 14)).toEqual([2_500, 2_000, 1_500, 1_000, 500, 0]);
    expect(rows.slice(0, 8)).toEqual(Array(8).fill(3_000));
    expect(rows.slice(14)).toEqual([-1, -1]);
    expect(new Set(seen.map((s) => s.autoCheckpoint))).toEqual(new Set([1_000]));
    expect(closed).toContain(freeing);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('goes on with SQLite checkpointing inside the steps when the worker fails', async () => {
    const { db } = fresh();
    let calls = 0;
    const failing: WalCheckpoints = {
      checkpoint: () => {
        calls++;
        return Promise.reject(new Error('the checkpoint worker stopped'));
      },
      close: async () => {},
    };
    const roster = new Roster(db, { checkpoints: () => failing });
    const stager = new Roster(db);
    swapIn(stager, site(1_000, 1));
    swapIn(stager, site(1_000, 2));
    await roster.reclaim();
    expect(retiredTables(db)).toEqual([]);
    expect(calls).toBe(1);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });

  it("a sync's staged pages take no checkpoint in their commits: the worker checkpoints after them and goes at the swap", async () => {
    const { dir, db } = fresh();
    const seen: number[] = [];
    let opened = 0;
    const closed: number[] = [];
    const roster = new Roster(db, {
      checkpoints: () => {
        const id = ++opened;
        const worker = checkpointInWorker(dir);
        return {
          checkpoint: () => {
            seen.push(db.pragma('wal_autocheckpoint', { simple: true }) as number);
            return worker.checkpoint();
          },
          close: () => {
            closed.push(id);
            return worker.close();
          },
        };
      },
    });
    roster.beginStaging();
    const list = site(2_000, 1);
    for (let i = 0; i < list.length; i += 100) {
      // A page a turn of the loop, as a sync's pages come.
      roster.stagePage(list.slice(i, i + 100));
      await new Promise((r) => setImmediate(r));
    }
    expect(opened).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([1_000]));
    expect(roster.commitStaging()).toBe(2_000);
    // The staging's worker (the first opened) is closed; the freeing of the old roster opens one of its own.
    await vi.waitFor(() => expect(closed).toContain(1));
    expect(new Identities(db).employee('emp-1999')?.full_name).toBe(employee(1_999, 1).full_name);
    await roster.reclaim();
  });

  it('opens no worker when there is nothing to free', async () => {
    const { db } = fresh();
    let opened = 0;
    const roster = new Roster(db, {
      checkpoints: () => {
        opened++;
        return { checkpoint: async () => {}, close: async () => {} };
      },
    });
    await roster.reclaim();
    expect(opened).toBe(0);
  });
});

describe("the roster's close, before the database closes", () => {
  it('waits for a checkpoint worker whose close was only asked for (a swap does not wait), and opens none after', async () => {
    const { db } = fresh();
    let release: () => void = () => {};
    const opened: string[] = [];
    const roster = new Roster(db, {
      checkpoints: () => {
        opened.push('worker');
        return {
          checkpoint: () => Promise.resolve(),
          close: () => new Promise<void>((resolve) => (release = resolve)),
        };
      },
    });
    swapIn(roster, site(300, 1));
    let closed = false;
    const closing = roster.close().then(() => (closed = true));
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    release();
    await closing;
    expect(closed).toBe(true);
    const before = opened.length;
    swapIn(roster, site(300, 2));
    await roster.reclaim();
    expect(opened.length).toBe(before);
  });

  it('with the real worker: nothing touches the data directory once the database is closed', async () => {
    const { dir, db } = fresh();
    const roster = new Roster(db, { checkpoints: () => checkpointInWorker(dir) });
    swapIn(roster, site(300, 1));
    await roster.close();
    db.close();
    // A worker still starting would open the database again: its log files come and go (what
    // made a test's directory removal fail with ENOTEMPTY).
    const touched: string[] = [];
    const watcher = fs.watch(dir, (_event, file) => touched.push(String(file)));
    await new Promise((r) => setTimeout(r, 500));
    watcher.close();
    expect(touched).toEqual([]);
  });
});

describe('relaxed commits (staged pages, freeing steps)', () => {
  it('run with synchronous NORMAL and their checkpoint threshold every time, not only the first, and put both back', () => {
    const { db } = fresh();
    const relaxed = relaxedCommits(db);
    const state = () => [db.pragma('synchronous', { simple: true }), db.pragma('wal_autocheckpoint', { simple: true })];
    for (let run = 0; run < 3; run++) {
      expect(relaxed(state)).toEqual([1, STAGING_CHECKPOINT_PAGES]);
      expect(state()).toEqual([2, 1_000]);
      expect(relaxed(state, true)).toEqual([1, 0]);
      expect(state()).toEqual([2, 1_000]);
    }
  });
});

describe("roster health's workers of an unnamed employer", () => {
  it('are listed by name from an index, on the roster of every swap, without sorting the source', async () => {
    const { db } = fresh();
    const roster = new Roster(db);
    for (let g = 1; g <= 3; g++) {
      swapIn(roster, site(3_000, g));
      await roster.reclaim();
      const gaps = rosterGaps(db, 5);
      expect(gaps.noEmployer.count).toBe(3_000);
      const expected = site(3_000, g)
        .filter((e) => e.payment_source === 'ps-0')
        .map((e) => e.full_name)
        .sort()
        .slice(0, 5);
      expect(gaps.noEmployer.employees.map((e) => e.name)).toEqual(expected);
      const plan = (
        db
          .prepare(
            'EXPLAIN QUERY PLAN SELECT id, external_id, full_name FROM roster_employees WHERE payment_source = ? ORDER BY full_name LIMIT ?',
          )
          .all('ps-0', 5) as { detail: string }[]
      ).map((r) => r.detail);
      expect(plan.join(' / ')).toMatch(/USING INDEX roster_(g\d+_)?by_source_name/);
      expect(plan.join(' / ')).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('are counted from the summary kept at the swap and moved by a refresh by changes, as a recount finds them', () => {
    const { db } = fresh();
    const roster = new Roster(db);
    swapIn(roster, site(3_000, 1));
    // ps-1 is read from the service: only ps-0, ps-2 and the new ps-9 are unnamed.
    db.prepare("INSERT INTO employers (id, name, fetched_at, missing) VALUES ('ps-1', 'Employer One', 1, 0)").run();
    const moved = Array.from({ length: 40 }, (_, i) => ({ ...employee(i * 3 + 1, 1), payment_source: 'ps-9' }));
    const added = Array.from({ length: 7 }, (_, i) => ({ ...employee(5_000 + i, 1), payment_source: 'ps-0' }));
    roster.applyChanges([...moved, ...added]);
    const recount = (
      db.prepare("SELECT COUNT(*) AS n FROM roster_employees WHERE payment_source <> 'ps-1'").get() as {
        n: number;
      }
    ).n;
    expect(recount).toBe(2_000 + 40 + 7);
    expect(rosterGaps(db).noEmployer.count).toBe(recount);
    expect(roster.summary().sources).toEqual({ 'ps-0': 1_007, 'ps-1': 960, 'ps-2': 1_000, 'ps-9': 40 });
    expect(roster.summary()).toEqual(roster.computeSummary());
  });
});
