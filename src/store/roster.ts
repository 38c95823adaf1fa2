import type { Db } from './database.js';
import { readSetting, writeSetting } from './settings.js';

/** One employee of the cached roster (src/sync/roster-rows.ts makes them from the service's records). */
export type RosterEmployee = {
  /** The service's `_id`; `ext:<external_id>` for a record that came without one. */
  id: string;
  external_id: string | null;
  /** The name on screen: the service's, else the registration number, else the external id. */
  full_name: string;
  cpf: string | null;
  registration_number: string | null;
  /** A zone the terminal can use, or null (then the site's, else the terminal's). */
  timezone: string | null;
  work_schedule: string | null;
  payment_source: string | null;
  /** `allow_external_api_record`: 1, 0, or null (not defined by the service). */
  allow_api_record: 0 | 1 | null;
  /** The zone the service gave when the terminal cannot load it (shown in roster health). */
  timezone_invalid: string | null;
};

type Missing = 'work_schedule' | 'employer' | 'timezone';

export type RosterHealth = {
  missingWorkSchedule: number;
  missingEmployer: number;
  badTimeZone: number;
  /** The first of them, by name. */
  employees: { id: string; externalId: string | null; name: string; missing: Missing[] }[];
};

export type NotAllowed = { count: number; employees: { id: string; externalId: string | null; name: string; heldPunches: number }[] };

/**
 * What status shows of the roster, computed when a roster is swapped in and kept in settings: a
 * status read then costs one row, whatever the size of the site (the counts are full passes).
 */
export type RosterSummary = { size: number; health: RosterHealth; notAllowed: number };

const SUMMARY_KEY = 'roster_summary';
/** Unfit employees listed by name in the summary: more than any caller shows. */
const SUMMARY_LISTED = 50;

const COLUMNS = 'id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source, allow_api_record, timezone_invalid';

/**
 * The cached roster of the site. A sync stages it page by page and swaps it in whole, in one
 * transaction: readers never see half of one, and a failed sync leaves the old one in use.
 */
export class Roster {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      clear: db.prepare('DELETE FROM roster_employees'),
      stageClear: db.prepare('DELETE FROM roster_staging'),
      stageHasExternal: db.prepare('SELECT 1 FROM roster_staging WHERE external_id = ?'),
      stageInsert: db.prepare(
        `INSERT INTO roster_staging (${COLUMNS})
         VALUES (@id, @external_id, @full_name, @cpf, @registration_number, @timezone, @work_schedule, @payment_source,
           @allow_api_record, @timezone_invalid)
         ON CONFLICT (id) DO NOTHING`,
      ),
      fromStaging: db.prepare(`INSERT INTO roster_employees (${COLUMNS}) SELECT ${COLUMNS} FROM roster_staging`),
      unfit: db.prepare(
        `SELECT id, external_id, full_name, work_schedule IS NULL AS no_schedule, payment_source IS NULL AS no_employer,
           timezone_invalid IS NOT NULL AS bad_zone
         FROM roster_employees WHERE work_schedule IS NULL OR payment_source IS NULL OR timezone_invalid IS NOT NULL
         ORDER BY full_name LIMIT ?`,
      ),
      unfitCounts: db.prepare(
        `SELECT SUM(work_schedule IS NULL) AS schedule, SUM(payment_source IS NULL) AS employer,
           SUM(timezone_invalid IS NOT NULL) AS zone FROM roster_employees`,
      ),
      notAllowed: db.prepare(
        `SELECT r.id, r.external_id, r.full_name,
           (SELECT COUNT(*) FROM punches p INDEXED BY punches_held WHERE p.employee_key = r.id AND p.state = 'held') AS held
         FROM roster_employees r WHERE r.allow_api_record = 0 ORDER BY r.full_name LIMIT ?`,
      ),
      notAllowedCount: db.prepare('SELECT COUNT(*) AS n FROM roster_employees WHERE allow_api_record = 0'),
      count: db.prepare('SELECT COUNT(*) AS n FROM roster_employees'),
      stagedCount: db.prepare('SELECT COUNT(*) AS n FROM roster_staging'),
    };
  }

  /** Starts a new roster: staging emptied, the roster in use untouched. */
  beginStaging(): void {
    this.stmts.stageClear.run();
  }

  /**
   * Adds a page to the staged roster; returns how many of its employees were new to it (a page the
   * server repeats adds none). A duplicated external_id from the server would break the unique
   * index; the first keeps it, the rest stay reachable by their other keys.
   */
  stagePage(employees: readonly RosterEmployee[]): number {
    return this.db.transaction(() => {
      let added = 0;
      for (const e of employees) {
        const taken = e.external_id !== null && this.stmts.stageHasExternal.get(e.external_id) !== undefined;
        added += this.stmts.stageInsert.run({ ...e, external_id: taken ? null : e.external_id }).changes;
      }
      return added;
    })();
  }

  /** Employees staged so far (a sync held for confirmation keeps its roster here). */
  stagedSize(): number {
    return (this.stmts.stagedCount.get() as { n: number }).n;
  }

  /** Swaps the staged roster in, whole, in one transaction (its summary with it): readers see the old or the new one. */
  commitStaging(): number {
    return this.db.transaction(() => {
      this.stmts.clear.run();
      this.stmts.fromStaging.run();
      this.stmts.stageClear.run();
      const summary = this.computeSummary();
      writeSetting(this.db, SUMMARY_KEY, summary);
      return summary.size;
    })();
  }

  /** The summary as of the last swap; computed (not stored) for a roster swapped in before summaries were kept. */
  summary(): RosterSummary {
    return readSetting<RosterSummary>(this.db, SUMMARY_KEY) ?? this.computeSummary();
  }

  /** Stores the summary if none is (a roster from an older version): once, at the agent's start. */
  ensureSummary(): void {
    if (readSetting<RosterSummary>(this.db, SUMMARY_KEY) === null) writeSetting(this.db, SUMMARY_KEY, this.computeSummary());
  }

  private computeSummary(): RosterSummary {
    return { size: this.size(), health: this.computeHealth(SUMMARY_LISTED), notAllowed: (this.stmts.notAllowedCount.get() as { n: number }).n };
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

  private computeHealth(limit: number): RosterHealth {
    const c = this.stmts.unfitCounts.get() as { schedule: number | null; employer: number | null; zone: number | null };
    type Row = { id: string; external_id: string | null; full_name: string; no_schedule: number; no_employer: number; bad_zone: number };
    const rows = this.stmts.unfit.all(limit) as Row[];
    return {
      missingWorkSchedule: c.schedule ?? 0,
      missingEmployer: c.employer ?? 0,
      badTimeZone: c.zone ?? 0,
      employees: rows.map((r) => ({
        id: r.id,
        externalId: r.external_id,
        name: r.full_name,
        missing: [
          ...(r.no_schedule ? (['work_schedule'] as const) : []),
          ...(r.no_employer ? (['employer'] as const) : []),
          ...(r.bad_zone ? (['timezone'] as const) : []),
        ],
      })),
    };
  }

  /** Employees whose contract forbids API records, with the punches held for each. */
  notAllowed(limit = 50, summary: RosterSummary = this.summary()): NotAllowed {
    const rows = this.stmts.notAllowed.all(limit) as { id: string; external_id: string | null; full_name: string; held: number }[];
    return {
      count: summary.notAllowed,
      employees: rows.map((r) => ({ id: r.id, externalId: r.external_id, name: r.full_name, heldPunches: r.held })),
    };
  }

  size(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
