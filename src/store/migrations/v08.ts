/**
 * Migration 8, as shipped: terminals in the field have run it, so it is never edited.
 *
 * status costs the same after years as on day one: punches by state are counted as states
 * change (triggers; seeded once here), the oldest unsent and the latest capture come from
 * indexes. A migration that rebuilds punches must create these triggers again (DROP TABLE
 * drops them).
 */
export const migration08 = `
  CREATE TABLE punch_counts (
    state  TEXT PRIMARY KEY,
    n      INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO punch_counts (state, n) SELECT state, COUNT(*) FROM punches GROUP BY state;
  CREATE TRIGGER punch_counts_insert AFTER INSERT ON punches BEGIN
    INSERT INTO punch_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER punch_counts_delete AFTER DELETE ON punches BEGIN
    UPDATE punch_counts SET n = n - 1 WHERE state = OLD.state;
  END;
  CREATE TRIGGER punch_counts_update AFTER UPDATE OF state ON punches WHEN OLD.state IS NOT NEW.state BEGIN
    UPDATE punch_counts SET n = n - 1 WHERE state = OLD.state;
    INSERT INTO punch_counts (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE INDEX punches_unsent_at ON punches (captured_at) WHERE state IN ('pending','sending','in_doubt');
  CREATE INDEX punches_captured_at ON punches (captured_at);
  `;
