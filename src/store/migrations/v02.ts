/**
 * Migration 2, as shipped: terminals in the field have run it, so it is never edited.
 *
 * unsent punches in capture order without sorting the backlog on every pick; the old index
 * on next_attempt_at is kept for "when is the next one due"
 */
export const migration02 = `
  CREATE INDEX punches_unsent_by_id ON punches (id, next_attempt_at) WHERE state IN ('pending','in_doubt');
  `;
