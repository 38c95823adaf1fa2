/**
 * Migration 4, as shipped: terminals in the field have run it, so it is never edited.
 *
 * the roster being fetched, page by page, so a sync holds one page in memory rather than
 * the whole site; swapped into roster_employees in one transaction when complete
 */
export const migration04 = `
  CREATE TABLE roster_staging (
    id                   TEXT PRIMARY KEY,
    external_id          TEXT UNIQUE,
    full_name            TEXT NOT NULL,
    cpf                  TEXT,
    registration_number  TEXT,
    timezone             TEXT,
    work_schedule        TEXT,
    payment_source       TEXT
  );
  `;
