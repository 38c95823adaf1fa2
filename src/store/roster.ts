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

/** The cached roster of the site. Replaced whole, in one transaction: readers never see half of one. */
export class Roster {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      clear: db.prepare('DELETE FROM roster_employees'),
      insert: db.prepare(
        `INSERT INTO roster_employees (id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source)
         VALUES (@id, @external_id, @full_name, @cpf, @registration_number, @timezone, @work_schedule, @payment_source)
         ON CONFLICT (id) DO NOTHING`,
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

  replace(employees: readonly RosterEmployee[]): void {
    // A duplicated external_id from the server would break the unique index and abort the whole
    // sync; keep the first and let the rest be reachable by their other keys.
    const seen = new Set<string>();
    this.db.transaction(() => {
      this.stmts.clear.run();
      for (const e of employees) {
        const external_id = e.external_id !== null && !seen.has(e.external_id) ? e.external_id : null;
        if (external_id !== null) seen.add(external_id);
        this.stmts.insert.run({ ...e, external_id });
      }
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
