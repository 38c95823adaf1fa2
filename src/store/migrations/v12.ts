/**
 * Migration 12 (issue 26): each worker's own employer.
 *
 * - `employers`: the service's employers (`GET /payment-sources/{id}`), cached by the payment source
 *   id an employee's `contract_data.payment_source` names; a row is replaced when read again, never
 *   deleted (marks sealed for it keep naming it).
 * - `journal_marks.chain`: the employer a mark was sealed for, as its tax id ("cnpj:…" / "cpf:…"),
 *   '' for the configured employer. Each employer's marks form a SHA-256 chain of their own
 *   (store/journal/evidence-journal.ts), so each employer's AFD is a whole chain; NSRs stay one sequence.
 * - roster indexes for the workers without a CPF and by payment source (store/roster/roster-gaps.ts).
 */
export const migration12 = `
  CREATE TABLE employers (
    id          TEXT PRIMARY KEY,             -- the payment source's _id
    name        TEXT,                         -- legal name (null: not defined by the service)
    cnpj        TEXT,                         -- bare, 14 characters
    cpf         TEXT,                         -- bare, 11 digits
    address     TEXT,                         -- one line, as the service gave it
    fetched_at  INTEGER NOT NULL,             -- UTC ms of the answer
    missing     INTEGER NOT NULL DEFAULT 0    -- 1: the service answered 404 (no such employer)
  );
  ALTER TABLE journal_marks ADD COLUMN chain TEXT NOT NULL DEFAULT '';
  -- Roster health's evidence gaps (store/roster-gaps.ts), read at the cost of the few they list.
  -- On the staging table too, named as its other indexes are (roster_g<generation>_…: a clone of the
  -- table in use keeps the part after the generation, roster-tables.ts); these bases are new, so unique.
  CREATE INDEX roster_no_cpf ON roster_employees (full_name) WHERE cpf IS NULL;
  CREATE INDEX roster_by_payment_source ON roster_employees (payment_source) WHERE payment_source IS NOT NULL;
  CREATE INDEX roster_g1_no_cpf ON roster_staging (full_name) WHERE cpf IS NULL;
  CREATE INDEX roster_g1_by_payment_source ON roster_staging (payment_source) WHERE payment_source IS NOT NULL;
  CREATE INDEX journal_marks_by_chain ON journal_marks (chain, nsr);
  `;
