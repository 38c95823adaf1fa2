/**
 * Migration 17 (issue 26 item 9): a delivered punch costs only what a person still reads.
 *
 * `punches_state` indexed every row by its state, delivered ones included (the bulk of the table, and
 * counted by punch_counts since migration 8): it now covers only the rows not delivered, the ones a
 * queue, a list of rejected or a restart's look for 'sending' asks for. Readers that use it say
 * `state <> 'sent'` beside their own state (SQLite uses a partial index only when the query repeats
 * its condition).
 *
 * `punch_journal` (the per-attempt delivery log: captured, sending, retry, sent) is pruned by the
 * retention pass `retention.deliveryLogDays` after delivery (store/upkeep/delivery-log.ts), no longer
 * kept as long as the punch: `delivery_log_pruned` remembers how far by delivery time the pass went, so
 * each delivered punch is visited once. Nothing here deletes a row: the first pass after the upgrade does, in
 * batches. The lines of a punch not delivered are never touched.
 */
export const migration17 = `
  DROP INDEX punches_state;
  CREATE INDEX punches_state ON punches (state) WHERE state <> 'sent';
  CREATE TABLE delivery_log_pruned (
    one      INTEGER PRIMARY KEY CHECK (one = 1),
    sent_at  INTEGER NOT NULL,                  -- the lines of punches delivered through (sent_at, id) are gone
    id       INTEGER NOT NULL
  );
  `;
