/**
 * Migration 7, as shipped: terminals in the field have run it, so it is never edited.
 *
 * service-anchored time: what capture read (wall clock, monotonic clock, boot) so a punch
 * taken before the first answer of its boot can be recomputed on the service's clock before
 * it is sent; rows from before count as anchored (nothing to recompute them with)
 */
export const migration07 = `
  ALTER TABLE punches ADD COLUMN wall_at INTEGER;
  ALTER TABLE punches ADD COLUMN mono_at REAL;
  ALTER TABLE punches ADD COLUMN boot_id TEXT;
  ALTER TABLE punches ADD COLUMN anchored INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX punches_unanchored ON punches (boot_id) WHERE anchored = 0;
  ALTER TABLE unresolved_punches ADD COLUMN mono_at REAL;
  ALTER TABLE unresolved_punches ADD COLUMN boot_id TEXT;
  ALTER TABLE unresolved_punches ADD COLUMN anchored INTEGER NOT NULL DEFAULT 1;
  `;
