import type { WritableDb } from '../database.js';
import type { RosterEmployee } from './roster-employee.js';
import { countFitness, type Fitness, type SourceCounts } from './roster-summary.js';

/** How a write moved the roster's summary counts (see Roster.applyChanges); `sources` signed, per payment source. */
export type CountsDelta = {
  size: number;
  schedule: number;
  employer: number;
  zone: number;
  notAllowed: number;
  sources: SourceCounts;
};

/**
 * Writes changed employees into the roster in use, in place (a refresh by changes, a few rows, not
 * a swap): each replaces the row of its `_id` or is added. An external id another employee holds
 * stays with that one, as in a full sync (the first keeps it). Call inside a transaction.
 */
export function upsertEmployees(db: WritableDb, employees: readonly RosterEmployee[]): CountsDelta {
  const old = db.prepare(
    'SELECT work_schedule, payment_source, timezone_invalid, allow_api_record FROM roster_employees WHERE id = ?',
  );
  const owner = db.prepare('SELECT id FROM roster_employees WHERE external_id = ?');
  const write = db.prepare(
    `INSERT INTO roster_employees (id, external_id, full_name, cpf, registration_number, timezone, work_schedule, payment_source,
       allow_api_record, timezone_invalid)
     VALUES (@id, @external_id, @full_name, @cpf, @registration_number, @timezone, @work_schedule, @payment_source,
       @allow_api_record, @timezone_invalid)
     ON CONFLICT (id) DO UPDATE SET external_id = excluded.external_id, full_name = excluded.full_name, cpf = excluded.cpf,
       registration_number = excluded.registration_number, timezone = excluded.timezone, work_schedule = excluded.work_schedule,
       payment_source = excluded.payment_source, allow_api_record = excluded.allow_api_record, timezone_invalid = excluded.timezone_invalid`,
  );
  const d: CountsDelta = { size: 0, schedule: 0, employer: 0, zone: 0, notAllowed: 0, sources: {} };
  const moveSource = (id: string | null, sign: 1 | -1) => {
    if (id !== null) d.sources[id] = (d.sources[id] ?? 0) + sign;
  };
  for (const e of employees) {
    const held = e.external_id === null ? undefined : (owner.get(e.external_id) as { id: string } | undefined);
    const row = { ...e, external_id: held && held.id !== e.id ? null : e.external_id };
    const before = old.get(e.id) as Fitness | undefined;
    if (before) {
      countFitness(d, before, -1);
      moveSource(before.payment_source, -1);
    } else d.size++;
    write.run(row);
    countFitness(d, row);
    moveSource(row.payment_source, 1);
  }
  return d;
}
