/**
 * Migration 6, as shipped: terminals in the field have run it, so it is never edited.
 *
 * reconciliation checks that got an answer proving nothing (a 404, an unreadable list), so an
 * in-doubt punch is handed to a person after a bounded number instead of asking for ever
 */
export const migration06 = `
  ALTER TABLE punches ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
  `;
