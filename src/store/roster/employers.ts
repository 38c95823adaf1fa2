/**
 * The service's employers (payment sources) as the terminal caches them (migration 12), and the
 * employer of each journal chain. Read by capture (which chain a mark joins), receipts, the AFD
 * export (one file per employer) and roster health; written by the employer sync (sync/roster/employer-sync.ts).
 */
import type { Db, WritableDb } from '../database.js';

/** An employer as the AFD header and the receipt name it. */
export type Employer = { name: string | null; kind: 'cnpj' | 'cpf'; id: string; address: string | null };

export type EmployerRow = {
  id: string;
  name: string | null;
  cnpj: string | null;
  cpf: string | null;
  address: string | null;
  fetched_at: number;
  missing: number;
};

/** The chain key of a mark sealed for `e` ('' is the configured employer's chain). */
export const chainOf = (e: Pick<Employer, 'kind' | 'id'>): string => `${e.kind}:${e.id}`;

/** The tax id a chain key names; null for '' (the configured employer) or a key that is not one. */
export function taxIdOfChain(chain: string): { kind: 'cnpj' | 'cpf'; id: string } | null {
  const m = /^(cnpj|cpf):([0-9A-Z]{11,14})$/.exec(chain);
  return m ? { kind: m[1] as 'cnpj' | 'cpf', id: m[2] as string } : null;
}

export function employerOfRow(r: EmployerRow | undefined): Employer | null {
  if (!r || r.missing) return null;
  if (r.cnpj) return { name: r.name, kind: 'cnpj', id: r.cnpj, address: r.address };
  if (r.cpf) return { name: r.name, kind: 'cpf', id: r.cpf, address: r.address };
  return null;
}

export class EmployerCache {
  private readonly stmts;
  constructor(db: Db) {
    this.stmts = {
      byId: db.prepare('SELECT * FROM employers WHERE id = ?'),
      // The newest is picked in JS: an ORDER BY here builds a sorter for the one or two rows, 36 of 40 µs on every
      // receipt of a subcontractor's worker.
      byTaxId: db.prepare('SELECT * FROM employers WHERE (cnpj = @id OR cpf = @id) AND missing = 0'),
      // Payment sources the roster names that are not cached, or were read before `olderThan`.
      due: db.prepare(
        `SELECT DISTINCT r.payment_source AS id FROM roster_employees r LEFT JOIN employers e ON e.id = r.payment_source
         WHERE r.payment_source IS NOT NULL AND (e.id IS NULL OR e.fetched_at < ?) LIMIT ?`,
      ),
    };
  }

  byPaymentSource(id: string | null): Employer | null {
    return id === null ? null : employerOfRow(this.stmts.byId.get(id) as EmployerRow | undefined);
  }

  row(id: string): EmployerRow | null {
    return (this.stmts.byId.get(id) as EmployerRow | undefined) ?? null;
  }

  /** The cached employer with this tax id (for a chain's name and address). */
  byTaxId(id: string): Employer | null {
    let newest: EmployerRow | undefined;
    for (const r of this.stmts.byTaxId.all({ id }) as EmployerRow[])
      if (newest === undefined || r.fetched_at > newest.fetched_at) newest = r;
    return employerOfRow(newest);
  }

  /** Payment sources to read: not cached yet first-come, or read before `olderThan`. */
  due(olderThan: number, limit: number): string[] {
    return (this.stmts.due.all(olderThan, limit) as { id: string }[]).map((r) => r.id);
  }
}

/** The writer (the agent's bookkeeping connection). */
export function saveEmployer(
  db: WritableDb,
  id: string,
  e: { name: string | null; cnpj: string | null; cpf: string | null; address: string | null } | 'missing',
  at: number,
): void {
  const row = e === 'missing' ? { name: null, cnpj: null, cpf: null, address: null, missing: 1 } : { ...e, missing: 0 };
  db.prepare(
    'INSERT OR REPLACE INTO employers (id, name, cnpj, cpf, address, fetched_at, missing) VALUES (@id, @name, @cnpj, @cpf, @address, @at, @missing)',
  ).run({ id, ...row, at });
}
