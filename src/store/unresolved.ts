import type { Db } from './database.js';

export type UnresolvedPunch = {
  id: number;
  captured_at: number;
  code: string;
  credential_kind: string;
  last_checked_at: number | null;
  /** The clock readings at capture (see outbox PunchRow). */
  mono_at: number | null;
  boot_id: string | null;
  anchored: number;
};

/**
 * Punches of credentials the roster did not know, kept under the accept-and-resolve policy until
 * a roster sync knows them. Never sent as a guess: only a match moves one into the outbox.
 */
export class UnresolvedPunches {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        'INSERT INTO unresolved_punches (captured_at, code, credential_kind, mono_at, boot_id, anchored) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      ),
      all: db.prepare('SELECT * FROM unresolved_punches ORDER BY id'),
      list: db.prepare('SELECT * FROM unresolved_punches ORDER BY id LIMIT ?'),
      remove: db.prepare('DELETE FROM unresolved_punches WHERE id = ?'),
      checked: db.prepare('UPDATE unresolved_punches SET last_checked_at = ? WHERE id = ?'),
      summary: db.prepare('SELECT COUNT(*) AS n, MIN(captured_at) AS oldest, MAX(last_checked_at) AS checked FROM unresolved_punches'),
    };
  }

  add(when: { at: number; mono: number; bootId: string; anchored: boolean }, code: string, kind: string): number {
    return (this.stmts.insert.get(when.at, code, kind, when.mono, when.bootId, when.anchored ? 1 : 0) as { id: number }).id;
  }

  all(): UnresolvedPunch[] {
    return this.stmts.all.all() as UnresolvedPunch[];
  }

  /** The oldest `limit`, for the admin screen. */
  list(limit: number): UnresolvedPunch[] {
    return this.stmts.list.all(limit) as UnresolvedPunch[];
  }

  remove(id: number): void {
    this.stmts.remove.run(id);
  }

  markChecked(id: number, at: number): void {
    this.stmts.checked.run(at, id);
  }

  summary(): { count: number; oldestAt: number | null; lastCheckedAt: number | null } {
    const r = this.stmts.summary.get() as { n: number; oldest: number | null; checked: number | null };
    return { count: r.n, oldestAt: r.oldest, lastCheckedAt: r.checked };
  }
}
