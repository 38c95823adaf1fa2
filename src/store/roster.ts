import type { Employee } from '../api/shapes.js';
import type { Db } from './database.js';

export type RosterEmployee = {
  id: string;
  external_id: string | null;
  full_name: string;
  cpf: string | null;
  registration_number: string | null;
  timezone: string | null;
  work_schedule: string | null;
  payment_source: string | null;
};

export function toRosterEmployee(e: Employee): RosterEmployee {
  return {
    id: e._id,
    external_id: e.external_id && e.external_id.length > 0 ? e.external_id : null,
    full_name: e.full_name,
    cpf: e.cpf ?? null,
    registration_number: e.contract_data?.registration_number ?? null,
    timezone: e.timezone ?? null,
    work_schedule: e.work_schedule ?? null,
    payment_source: e.contract_data?.payment_source ?? null,
  };
}

export type RosterHealth = {
  missingWorkSchedule: number;
  missingEmployer: number;
  /** The first of them, by name. */
  employees: { id: string; externalId: string | null; name: string; missing: ('work_schedule' | 'employer')[] }[];
};

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
        `INSERT INTO roster_staging (id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source)
         VALUES (@id, @external_id, @full_name, @cpf, @registration_number, @timezone, @work_schedule, @payment_source)
         ON CONFLICT (id) DO NOTHING`,
      ),
      fromStaging: db.prepare(
        `INSERT INTO roster_employees (id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source)
         SELECT id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source FROM roster_staging`,
      ),
      unfit: db.prepare(
        `SELECT id, external_id, full_name, work_schedule IS NULL AS no_schedule, payment_source IS NULL AS no_employer
         FROM roster_employees WHERE work_schedule IS NULL OR payment_source IS NULL ORDER BY full_name LIMIT ?`,
      ),
      unfitCounts: db.prepare(
        `SELECT SUM(work_schedule IS NULL) AS schedule, SUM(payment_source IS NULL) AS employer FROM roster_employees`,
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM roster_employees'),
    };
  }

  /** Starts a new roster: staging emptied, the roster in use untouched. */
  beginStaging(): void {
    this.stmts.stageClear.run();
  }

  /**
   * Adds a page to the staged roster. A duplicated external_id from the server would break the
   * unique index; the first keeps it, the rest stay reachable by their other keys.
   */
  stagePage(employees: readonly RosterEmployee[]): void {
    this.db.transaction(() => {
      for (const e of employees) {
        const taken = e.external_id !== null && this.stmts.stageHasExternal.get(e.external_id) !== undefined;
        this.stmts.stageInsert.run({ ...e, external_id: taken ? null : e.external_id });
      }
    })();
  }

  /** Swaps the staged roster in, whole, in one transaction: readers see the old or the new one. */
  commitStaging(): number {
    return this.db.transaction(() => {
      this.stmts.clear.run();
      this.stmts.fromStaging.run();
      this.stmts.stageClear.run();
      return this.size();
    })();
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
   */
  health(limit = 50): RosterHealth {
    const c = this.stmts.unfitCounts.get() as { schedule: number | null; employer: number | null };
    const rows = this.stmts.unfit.all(limit) as { id: string; external_id: string | null; full_name: string; no_schedule: number; no_employer: number }[];
    return {
      missingWorkSchedule: c.schedule ?? 0,
      missingEmployer: c.employer ?? 0,
      employees: rows.map((r) => ({
        id: r.id,
        externalId: r.external_id,
        name: r.full_name,
        missing: [...(r.no_schedule ? ['work_schedule' as const] : []), ...(r.no_employer ? ['employer' as const] : [])],
      })),
    };
  }

  size(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
