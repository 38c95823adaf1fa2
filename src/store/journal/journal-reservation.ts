import { restoredDetail } from '../../domain/punch/journal-fact.js';
import {
  furthestCopy,
  highWater,
  judgeReservation,
  nextReservation,
  type Judgement,
  type Sidecar,
} from '../../domain/punch/nsr-reservation.js';
import type { WritableDb } from '../database.js';
import type { JournalCopies } from './journal-copies.js';
import type { JournalFacts } from './journal-facts.js';

/**
 * The evidence journal's NSR reservation (domain/punch/nsr-reservation.ts): the `journal_meta` row, raised
 * in three steps with the sidecar written first, and judged against the sidecar's copies at open, after a
 * raise and at a clean stop (a restore, a crash mid-raise, a lost or foreign sidecar). Apart from the
 * chain of marks (store/journal/evidence-journal.ts), which only asks it for the next NSR; everything
 * here runs inside the caller's write transaction, as the journal's own writes do.
 */

export type Meta = { journal_id: string; reserved_to: number; nsr_floor: number };

export type ReservationOptions = {
  /** The instant of a journal event (a restore recognised). */
  now?: () => number;
  /** Tests: runs between the sidecar's write and the database's (a crash there is not a restore). */
  afterSidecarWrite?: () => void;
  /** Never throws (the journal's own warn). */
  warn: (message: string) => void;
};

export class NsrReservation {
  private readonly stmts;
  /**
   * A raise of ours awaits its step 3 (domain/punch/nsr-reservation.ts), done by `settle()` after the
   * commit: the reservation the sidecar still calls committed. Until then a further raise keeps
   * that value (its transaction may not commit), so a rollback never looks like a restore.
   */
  private unsettled: number | null = null;
  /** The last restore recognised by this process (status and doctor say it). */
  lastRestore: { from: number; to: number; where: string } | null = null;

  constructor(
    private readonly db: WritableDb,
    /** Null: a database without a directory (in memory): no sidecar, nothing to judge. */
    private readonly sidecar: string | null,
    private readonly block: number,
    /** The sidecar, its mirror and the chain's head outside the database. */
    private readonly copies: JournalCopies,
    private readonly facts: JournalFacts,
    /** The journal's last mark, read in the caller's transaction. */
    private readonly last: () => { nsr: number } | null,
    private readonly o: ReservationOptions,
  ) {
    this.stmts = {
      meta: db.prepare('SELECT journal_id, reserved_to, nsr_floor FROM journal_meta WHERE one = 1'),
      reserve: db.prepare('UPDATE journal_meta SET reserved_to = ? WHERE one = 1'),
      restored: db.prepare(
        'UPDATE journal_meta SET nsr_floor = @floor, reserved_to = MAX(reserved_to, @to) WHERE one = 1',
      ),
      floor: db.prepare('UPDATE journal_meta SET nsr_floor = MAX(nsr_floor, ?) WHERE one = 1'),
    };
  }

  meta(): Meta {
    const m = this.stmts.meta.get() as Partial<Record<keyof Meta, unknown>> | undefined;
    if (!m) throw new Error('the evidence journal has no meta row (database not migrated?)');
    const { journal_id, reserved_to, nsr_floor } = m;
    if (typeof journal_id !== 'string' || typeof reserved_to !== 'number' || typeof nsr_floor !== 'number')
      throw new Error("the evidence journal's meta row is not readable");
    return { journal_id, reserved_to, nsr_floor };
  }

  nextOf(meta: Meta, last: { nsr: number } | null): number {
    return Math.max((last?.nsr ?? 0) + 1, meta.nsr_floor);
  }

  /** EvidenceJournal.reserveNsr: the next NSR, reserved in the sidecar first when beyond the reservation. */
  reserve(ahead: number): number {
    let meta = this.meta();
    const last = this.last();
    let next = this.nextOf(meta, last);
    if (next + ahead <= meta.reserved_to) return next;
    if (this.unsettled === null) {
      this.reconcile(meta, next);
      meta = this.meta();
      next = this.nextOf(meta, last);
    }
    this.raise(meta, next + ahead);
    return next;
  }

  /** No NSR below `nsr` is given any more (a clock record took the one before it). */
  raiseFloor(nsr: number): void {
    this.stmts.floor.run(nsr);
  }

  /** After the transaction of a raise ended: the sidecar says what the database holds (step 3). */
  settle(): void {
    if (this.unsettled === null) return;
    this.unsettled = null;
    try {
      this.db.transaction(() => this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()))).immediate();
    } catch (e) {
      // The next raise or open settles it; a punch already committed must not fail for it.
      this.o.warn(`the NSR sidecar could not be brought up to date: ${(e as Error).message}`);
    }
  }

  /** EvidenceJournal.open's transaction: the sidecar judged, and a new block reserved. */
  open(): Judgement {
    return this.db
      .transaction(() => {
        const j = this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()));
        const meta = this.meta();
        this.raise(meta, this.nextOf(meta, this.last()));
        return j;
      })
      .immediate();
  }

  /** EvidenceJournal.close's record of the clean stop: the sidecar says the last NSR given. Never throws. */
  close(): void {
    try {
      this.db
        .transaction(() => {
          this.reconcile(this.meta(), this.nextOf(this.meta(), this.last()));
          const meta = this.meta();
          this.write({
            journalId: meta.journal_id,
            reservedTo: meta.reserved_to,
            pending: null,
            lastGiven: this.nextOf(meta, this.last()) - 1,
          });
        })
        .immediate();
      this.unsettled = null;
    } catch (e) {
      this.o.warn(`the NSR sidecar could not record the clean stop: ${(e as Error).message}`);
    }
  }

  /** Brings the sidecar and the database into agreement; inside a write transaction. */
  private reconcile(meta: Meta, next: number): Judgement {
    if (this.sidecar === null) return { kind: 'consistent' };
    const copies = this.copies.read(meta.journal_id);
    const chosen = furthestCopy(copies, meta.journal_id);
    const j = judgeReservation(chosen.sidecar, {
      journalId: meta.journal_id,
      reservedTo: meta.reserved_to,
      nextNsr: next,
    });
    const fromDb: Sidecar = {
      journalId: meta.journal_id,
      reservedTo: meta.reserved_to,
      pending: null,
      lastGiven: null,
    };
    const read = { sidecar: chosen.sidecar };
    switch (j.kind) {
      case 'consistent':
        // A copy behind the others (lost, or put back with the data directory) is brought level.
        if (
          chosen.sidecar &&
          copies.some((c) => c.sidecar === null || highWater(c.sidecar) !== highWater(chosen.sidecar as Sidecar))
        )
          this.write(chosen.sidecar);
        break;
      case 'missing':
        if (next > 1)
          this.o.warn(
            'the NSR sidecar (journal-nsr.json) was missing: written again from the database; a restore before now cannot be recognised',
          );
        this.write(fromDb);
        break;
      case 'foreign':
        this.o.warn(
          `the NSR sidecar belongs to another journal (${j.sidecarJournalId}); this database's (${meta.journal_id}) wins and the sidecar is rewritten`,
        );
        this.write(fromDb);
        break;
      case 'behind':
        this.o.warn(
          `the NSR sidecar reserves less than the database (${read.sidecar?.reservedTo} < ${meta.reserved_to}): was it put back from a copy? The database wins`,
        );
        this.write(fromDb);
        break;
      case 'raise_committed':
      case 'raise_undone':
        this.write(fromDb);
        break;
      case 'restored': {
        this.stmts.restored.run({ floor: j.to + 1, to: j.to });
        this.lastRestore = { from: j.from, to: j.to, where: chosen.where };
        const why = `the database is older than the NSR reservation in ${chosen.where} (put back from a copy?): these NSRs may have been given and are never given again`;
        this.facts.append(j.from, this.o.now?.() ?? Date.now(), 'restored', restoredDetail(j.from, j.to, why));
        this.o.warn(
          `the database was put back from an older copy: NSRs ${j.from}-${j.to} may have been given since; the next NSR is ${j.to + 1}`,
        );
        this.write({ journalId: meta.journal_id, reservedTo: j.to, pending: null, lastGiven: null });
        break;
      }
    }
    return j;
  }

  /** Steps 1 and 2 of a raise: the sidecar first, then the database row (committed with the caller's transaction). */
  private raise(meta: Meta, needed: number): void {
    const to = nextReservation(meta.reserved_to, needed, this.block);
    const committed = this.unsettled ?? meta.reserved_to;
    this.write({ journalId: meta.journal_id, reservedTo: committed, pending: to, lastGiven: null });
    this.unsettled = committed;
    this.o.afterSidecarWrite?.();
    this.stmts.reserve.run(to);
  }

  private write(s: Sidecar): void {
    this.copies.write(s);
  }
}
