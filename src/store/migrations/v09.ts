/**
 * Migration 9, as shipped: terminals in the field have run it, so it is never edited.
 *
 * retention (store/upkeep/retention.ts) finds the oldest delivered punches by when they were
 * delivered, without reading the rest; their journal rows come from punch_journal_punch
 */
export const migration09 = `
  CREATE INDEX punches_sent_at ON punches (sent_at) WHERE state = 'sent';
  `;
