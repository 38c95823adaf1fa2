import type { Db, WritableDb } from '../database.js';
import type { RosterEmployee } from './roster-employee.js';
import { reclaimStep, relaxedCommits, retiredTables, retireStaging, swapTables } from './roster-tables.js';
import {
  addSources,
  countFitness,
  countSource,
  NO_COUNTS,
  sourcesOf,
  SUMMARY_KEY,
  summaryOf,
  type Counts,
  type NotAllowed,
  type RosterHealth,
  type RosterSummary,
} from './roster-summary.js';
import { upsertEmployees } from './roster-upsert.js';
import { CheckpointWorkers, type OffLoopCheckpoints, type RosterOptions } from './roster-checkpoints.js';
import { readSetting, writeSetting } from '../settings/settings.js';

export type { NotAllowed, RosterHealth, RosterSummary } from './roster-summary.js';

/** One employee of the cached roster (src/sync/roster/roster-rows.ts makes them from the service's records). */
export type { RosterEmployee } from './roster-employee.js';

/** The staged roster's counts, kept page by page so the swap need not count 100,000 rows. */
const STAGED_KEY = 'roster_staged_counts';

const COLUMNS =
  'id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source, allow_api_record, timezone_invalid';
/** Employees roster health lists (migration 10 indexes them by name, so the list costs 50 steps). */
const UNFIT = 'work_schedule IS NULL OR payment_source IS NULL OR timezone_invalid IS NOT NULL';

export type { RosterOptions, WalCheckpoints } from './roster-checkpoints.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The cached roster of the site. A sync stages it page by page and swaps it in whole by renaming
 * tables (roster-tables.ts): readers never see half of one, a failed sync leaves the old one in
 * use, and the swap costs the same at 100 employees as at 100,000.
 */
export class Roster {
  private readonly stmts;
  private reclaiming: Promise<void> | null = null;
  /** The checkpoints of the sync staging now (opened at its first page, closed by endStaging). */
  private staging: OffLoopCheckpoints | null = null;
  /** Staged pages and reclaim steps commit without an fsync (see relaxedCommits). */
  private readonly relaxed: <T>(fn: () => T, elsewhere?: boolean) => T;
  private readonly workers: CheckpointWorkers;
  private closed = false;

  constructor(
    private readonly db: WritableDb,
    opts: RosterOptions = {},
  ) {
    const unfit = (table: string) =>
      db.prepare(
        `SELECT id, external_id, full_name, work_schedule IS NULL AS no_schedule, payment_source IS NULL AS no_employer,
           timezone_invalid IS NOT NULL AS bad_zone
         FROM ${table} WHERE ${UNFIT} ORDER BY full_name LIMIT ?`,
      );
    const counts = (table: string) =>
      db.prepare(
        `SELECT COUNT(*) AS size, COALESCE(SUM(work_schedule IS NULL), 0) AS schedule, COALESCE(SUM(payment_source IS NULL), 0) AS employer,
           COALESCE(SUM(timezone_invalid IS NOT NULL), 0) AS zone, COALESCE(SUM(allow_api_record = 0), 0) AS notAllowed FROM ${table}`,
      );
    this.stmts = {
      stageHasExternal: db.prepare('SELECT 1 FROM roster_staging WHERE external_id = ?'),
      stageInsert: db.prepare(
        `INSERT INTO roster_staging (${COLUMNS})
         VALUES (@id, @external_id, @full_name, @cpf, @registration_number, @timezone, @work_schedule, @payment_source,
           @allow_api_record, @timezone_invalid)
         ON CONFLICT (id) DO NOTHING`,
      ),
      stageAny: db.prepare('SELECT 1 FROM roster_staging LIMIT 1'),
      // Read and written on every page: prepared once, unlike readSetting's.
      stagedRead: db.prepare('SELECT value FROM settings WHERE key = ?').pluck(),
      stagedWrite: db.prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      unfit: unfit('roster_employees'),
      stagedUnfit: unfit('roster_staging'),
      counts: counts('roster_employees'),
      stagedRecount: counts('roster_staging'),
      notAllowed: db.prepare(
        `SELECT r.id, r.external_id, r.full_name,
           (SELECT COUNT(*) FROM punches p INDEXED BY punches_held WHERE p.employee_key = r.id AND p.state = 'held') AS held
         FROM roster_employees r WHERE r.allow_api_record = 0 ORDER BY r.full_name LIMIT ?`,
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM roster_employees'),
      sources: db.prepare(
        'SELECT payment_source AS id, COUNT(*) AS n FROM roster_employees WHERE payment_source IS NOT NULL GROUP BY payment_source',
      ),
    };
    this.relaxed = relaxedCommits(db);
    this.workers = new CheckpointWorkers(opts.checkpoints);
  }

  /** Before the database closes: the reclaim pass stops at its step, the checkpoint workers are gone. */
  async close(): Promise<void> {
    this.closed = true;
    this.endStaging();
    await this.reclaiming;
    await this.workers.stop();
  }

  /**
   * Starts a new roster: staging emptied, the roster in use untouched. What an earlier sync left
   * staged is renamed aside and reclaimed in the background rather than deleted at once.
   */
  beginStaging(): void {
    this.endStaging();
    const retired = this.db.transaction(() => {
      const left = this.stmts.stageAny.get() !== undefined;
      if (left) retireStaging(this.db);
      this.stmts.stagedWrite.run(STAGED_KEY, JSON.stringify(NO_COUNTS));
      return left;
    })();
    if (retired) void this.reclaim();
  }

  /**
   * Adds a page to the staged roster; returns how many of its employees were new to it (a page the
   * server repeats adds none). A duplicated external_id from the server would break the unique
   * index; the first keeps it, the rest stay reachable by their other keys.
   */
  stagePage(employees: readonly RosterEmployee[]): number {
    const ckpt = this.db.inTransaction ? null : (this.staging ??= this.workers.start());
    const added = this.relaxed(
      this.db.transaction(() => {
        const c = { ...this.stagedCounts() };
        let added = 0;
        for (const e of employees) {
          const taken = e.external_id !== null && this.stmts.stageHasExternal.get(e.external_id) !== undefined;
          if (this.stmts.stageInsert.run({ ...e, external_id: taken ? null : e.external_id }).changes === 0) continue;
          added++;
          countFitness(c, e);
          countSource(c, e.payment_source);
        }
        c.size += added;
        this.stmts.stagedWrite.run(STAGED_KEY, JSON.stringify(c));
        return added;
      }),
      ckpt?.active,
    );
    ckpt?.soon();
    return added;
  }

  /** The sync's staging is over (swapped, failed, held or cancelled): its checkpoint worker goes. */
  endStaging(): void {
    void this.workers.end(this.staging);
    this.staging = null;
  }

  /** Employees staged so far (a sync held for confirmation keeps its roster here): kept by stagePage, not counted. */
  stagedSize(): number {
    return this.stagedCounts().size;
  }

  /** Counts of the staged roster as kept by stagePage; a full count when none are kept (staged by an older version). */
  private stagedCounts(): Counts {
    const kept = this.stmts.stagedRead.get(STAGED_KEY) as string | undefined;
    return kept === undefined ? (this.stmts.stagedRecount.get() as Counts) : (JSON.parse(kept) as Counts);
  }

  /**
   * Swaps the staged roster in, whole: its summary is made first (kept counts, an index walk of 50),
   * then one transaction renames the tables and stores the summary, so readers see the old roster
   * or the new one, each with its own summary. The old rows are freed afterwards, in steps.
   */
  commitStaging(): number {
    const summary = summaryOf(this.stagedCounts(), this.stmts.stagedUnfit);
    this.db.transaction(() => {
      swapTables(this.db);
      writeSetting(this.db, SUMMARY_KEY, summary);
      this.stmts.stagedWrite.run(STAGED_KEY, JSON.stringify(NO_COUNTS));
    })();
    this.endStaging();
    void this.reclaim();
    return summary.size;
  }

  /**
   * Frees the retired rosters a bounded step per event-loop turn, then drops them; joins a pass
   * under way. Started by each swap; the agent starts one at start for what a stop or crash left.
   * Stops quietly when the database closes or a step fails (the next swap or start resumes).
   */
  reclaim(): Promise<void> {
    this.reclaiming ??= this.reclaimAll().finally(() => {
      this.reclaiming = null;
    });
    return this.reclaiming;
  }

  private async reclaimAll(): Promise<void> {
    await nextTurn();
    if (this.closed || !this.db.open || retiredTables(this.db).length === 0) return;
    const ckpt = this.workers.start();
    try {
      for (;;) {
        let more = false;
        try {
          more = this.db.open && this.relaxed(() => reclaimStep(this.db), ckpt.active);
        } catch {
          more = false;
        }
        // Between two steps the log is copied off the loop (which runs meanwhile); also after the last: left small.
        if (this.closed || !this.db.open) return;
        if (ckpt.active) await ckpt.now();
        else await nextTurn();
        if (!more) return;
      }
    } finally {
      await this.workers.end(ckpt);
    }
  }

  /** The summary as of the last swap; computed (not stored) for a roster swapped in before summaries were kept. */
  summary(): RosterSummary {
    return readSetting(this.db, SUMMARY_KEY) ?? this.computeSummary();
  }

  /** Stores the summary if none is (a roster from an older version): once, at the agent's start. */
  ensureSummary(): void {
    if (readSetting(this.db, SUMMARY_KEY) === null) writeSetting(this.db, SUMMARY_KEY, this.computeSummary());
  }

  /** The summary of the roster in use by full passes (an older version's roster, tests). */
  computeSummary(): RosterSummary {
    const sources = sourcesOf(this.stmts.sources.all() as { id: string; n: number }[]);
    return summaryOf({ ...(this.stmts.counts.get() as Counts), sources }, this.stmts.unfit);
  }

  /** The whole roster at once (small rosters, tests and benches). */
  replace(employees: readonly RosterEmployee[]): void {
    this.db.transaction(() => {
      this.beginStaging();
      this.stagePage(employees);
      this.commitStaging();
    })();
  }

  /**
   * Business rule 3 of the API: the service shows an employee's records only once both a work
   * schedule and an employer are set. Punches are still sent; the manager needs to know.
   * From the summary: the first `limit` (at most 50) listed.
   */
  health(limit = 50): RosterHealth {
    const h = this.summary().health;
    return { ...h, employees: h.employees.slice(0, limit) };
  }

  /** Employees whose contract forbids API records, with the punches held for each. */
  notAllowed(limit = 50, summary: RosterSummary = this.summary()): NotAllowed {
    const rows = this.stmts.notAllowed.all(limit) as {
      id: string;
      external_id: string | null;
      full_name: string;
      held: number;
    }[];
    return {
      count: summary.notAllowed,
      employees: rows.map((r) => ({ id: r.id, externalId: r.external_id, name: r.full_name, heldPunches: r.held })),
    };
  }

  /**
   * Changed employees written into the roster in use (a refresh by changes: a page at a time, no
   * swap), its summary moved by what they changed. Returns how many were written.
   */
  applyChanges(employees: readonly RosterEmployee[]): number {
    return this.db.transaction(() => {
      const s = this.summary();
      const d = upsertEmployees(this.db, employees);
      const c: Counts = {
        size: s.size + d.size,
        schedule: s.health.missingWorkSchedule + d.schedule,
        employer: s.health.missingEmployer + d.employer,
        zone: s.health.badTimeZone + d.zone,
        notAllowed: s.notAllowed + d.notAllowed,
        sources: addSources(s.sources, d.sources),
      };
      writeSetting(this.db, SUMMARY_KEY, summaryOf(c, this.stmts.unfit));
      return employees.length;
    })();
  }

  size(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}

/** How many employees the roster in use has, on any connection (the doctor's is read-only). */
export function rosterSize(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM roster_employees').get() as { n: number }).n;
}
