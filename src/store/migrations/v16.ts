/**
 * Migration 16 (issue 28): the roster by payment source in name order.
 *
 * Roster health lists the first workers, by name, of each payment source the cache cannot name
 * (store/roster/roster-gaps.ts). Through migration 12's index on the source alone SQLite read and
 * sorted every worker of the source: 0.1–0.4 s on the event loop with 100,000 employees, at every
 * status. Ordered by name within the source, the list costs the few it shows. On the staging table
 * too, named as its other indexes are (roster_g<generation>_…: a clone of the table in use keeps the
 * part after the generation, roster-tables.ts); the base is new, so unique.
 */
export const migration16 = `
  CREATE INDEX roster_by_source_name ON roster_employees (payment_source, full_name) WHERE payment_source IS NOT NULL;
  CREATE INDEX roster_g1_by_source_name ON roster_staging (payment_source, full_name) WHERE payment_source IS NOT NULL;
  `;
