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
      byExternalId: db.prepare('SELECT * FROM roster_employees WHERE external_id = ?'),
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

  findByExternalId(externalId: string): RosterEmployee | null {
    return (this.stmts.byExternalId.get(externalId) as RosterEmployee | undefined) ?? null;
  }

  size(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
