import { localDateTime } from '../../domain/time/local-time.js';
import type { WritableDb } from '../database.js';
import { EvidenceJournal } from '../journal/evidence-journal.js';

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
  /** Its mark in the evidence journal (CPF unknown); the punch it becomes keeps it. Null: from before the journal. */
  nsr: number | null;
};

/**
 * What the mark of an unresolved capture needs: the zone its local time is read in, and whether the service was
 * reachable.
 */
export type UnresolvedMark = { zone: string };

/**
 * Punches of credentials the roster did not know, kept under the accept-and-resolve policy until
 * a roster sync knows them. Never sent as a guess: only a match moves one into the outbox.
 */
export class UnresolvedPunches {
  private readonly stmts;

  constructor(
    private readonly db: WritableDb,
    /** Each capture's mark, in its transaction (store/journal/evidence-journal.ts). */
    private readonly journal: EvidenceJournal = new EvidenceJournal(db),
  ) {
    this.stmts = {
      insert: db.prepare(
        'INSERT INTO unresolved_punches (captured_at, code, credential_kind, mono_at, boot_id, anchored, nsr) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
      ),
      all: db.prepare('SELECT * FROM unresolved_punches ORDER BY id'),
      list: db.prepare('SELECT * FROM unresolved_punches ORDER BY id LIMIT ?'),
      remove: db.prepare('DELETE FROM unresolved_punches WHERE id = ?'),
      checked: db.prepare('UPDATE unresolved_punches SET last_checked_at = ? WHERE id = ?'),
      summary: db.prepare(
        'SELECT COUNT(*) AS n, MIN(captured_at) AS oldest, MAX(last_checked_at) AS checked FROM unresolved_punches',
      ),
    };
  }

  /** Keeps a capture with its mark (CPF not known: twelve zeros), in one transaction; its id and NSR. */
  add(
    when: { at: number; mono: number; bootId: string; anchored: boolean },
    code: string,
    kind: string,
    mark: UnresolvedMark = { zone: 'UTC' },
  ): { id: number; nsr: number } {
    const tx = this.db.transaction(() => {
      const nsr = this.journal.reserveNsr();
      const id = (
        this.stmts.insert.get(when.at, code, kind, when.mono, when.bootId, when.anchored ? 1 : 0, nsr) as { id: number }
      ).id;
      const local = localDateTime(when.at, mark.zone);
      this.journal.appendMark({
        nsr,
        at: when.at,
        localDate: local.date,
        localTime: local.time,
        zone: mark.zone,
        recordedAt: when.at,
        cpf: null,
        unresolvedId: id,
      });
      return { id, nsr };
    });
    try {
      return tx.immediate();
    } finally {
      this.journal.settle();
    }
  }

  /**
   * The capture was matched to an employee (and is in the outbox now, with its NSR, or was a repeat
   * of a punch there): removed, and the 'resolved' fact names who it was, in the caller's transaction.
   */
  resolve(row: UnresolvedPunch, at: number, detail: string): void {
    this.db
      .transaction(() => {
        this.stmts.remove.run(row.id);
        if (row.nsr !== null) this.journal.facts.append(row.nsr, at, 'resolved', detail);
      })
      .immediate();
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
