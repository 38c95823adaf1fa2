/**
 * NSRs are never given twice, also after the database is put back from an older copy. The journal
 * reserves NSRs in blocks in a sidecar file beside the database (store/journal/journal-nsr.ts) before it
 * records the same reservation in the database, in the punch's transaction:
 *
 *   1. sidecar := { reservedTo: R1, pending: R2 }   (atomic write, fsync)
 *   2. database: reserved_to := R2                   (committed with the punch)
 *   3. sidecar := { reservedTo: R2, pending: null }  (after the commit; else at the next look)
 *
 * So the sidecar always knows at least every NSR the database could have given. Comparing the two
 * (this function, pure) tells what happened since they last agreed. A new block is also reserved
 * at every open, so a database put back from a copy taken before the terminal's last start is
 * always recognised: the next NSR then follows the sidecar's reservation (every NSR that could
 * have been given), and a 'restored' fact names the gap.
 *
 * A crash between steps 1 and 2 leaves { R1, pending R2 } beside a database at R1: not a restore
 * (nothing beyond R1 was given; the pending raise is dropped). Between steps 2 and 3, a database
 * at R2: the raise is completed. A clean stop also writes the last NSR given, so a copy taken
 * during the last run is recognised too. What this cannot see: a copy taken during a run that then
 * ended without a clean stop (power cut, kill -9), put back before the terminal reserved another
 * block (at most that block's NSRs may then repeat); and the database and the sidecar put back
 * together (the whole data directory restored).
 */

/** `lastGiven`: the last NSR given when the journal was closed cleanly (null while it is open). */
export type Sidecar = { journalId: string; reservedTo: number; pending: number | null; lastGiven: number | null };

/** What the database says: its journal, its reservation and the NSR its next mark would take. */
export type DbReservation = { journalId: string; reservedTo: number; nextNsr: number };

export type Judgement =
  /** They agree. */
  | { kind: 'consistent' }
  /** No sidecar (a new journal, or it was lost): written from the database. */
  | { kind: 'missing' }
  /** The sidecar of another journal (a database from elsewhere): the database wins, with a warning. */
  | { kind: 'foreign'; sidecarJournalId: string }
  /** Step 3 did not happen yet: the raise committed. */
  | { kind: 'raise_committed' }
  /** A crash (or a rollback) between steps 1 and 2: nothing was given beyond the old reservation. Not a restore. */
  | { kind: 'raise_undone' }
  /**
   * The database is older than a reservation it committed: put back from a copy. NSRs `from`..`to`
   * may have been given since; the next NSR is `to + 1`.
   */
  | { kind: 'restored'; from: number; to: number }
  /** The sidecar knows less than the database (a sidecar put back from a copy): the database wins, with a warning. */
  | { kind: 'behind' };

export function judgeReservation(side: Sidecar | null, db: DbReservation): Judgement {
  if (side === null) return { kind: 'missing' };
  if (side.journalId !== db.journalId) return { kind: 'foreign', sidecarJournalId: side.journalId };
  // Closed cleanly after giving NSRs this database does not have: a copy taken during that run.
  if (side.lastGiven !== null && side.lastGiven > db.nextNsr - 1) {
    return { kind: 'restored', from: db.nextNsr, to: Math.max(side.reservedTo, side.pending ?? 0, side.lastGiven) };
  }
  if (side.pending === null && db.reservedTo === side.reservedTo) return { kind: 'consistent' };
  if (side.pending !== null && db.reservedTo === side.pending) return { kind: 'raise_committed' };
  if (side.pending !== null && db.reservedTo === side.reservedTo) return { kind: 'raise_undone' };
  if (db.reservedTo < side.reservedTo) {
    // The pending raise may have committed before the copy was put back: count it as given.
    const to = Math.max(side.reservedTo, side.pending ?? 0);
    return { kind: 'restored', from: db.nextNsr, to: Math.max(to, db.nextNsr - 1) };
  }
  return { kind: 'behind' };
}

/** The reservation that follows `current` so that `needed` is inside it. */
export function nextReservation(current: number, needed: number, block: number): number {
  return Math.max(current, needed - 1) + block;
}

/** The most NSRs a copy of the sidecar knows were reserved or given. */
export function highWater(s: Sidecar): number {
  return Math.max(s.reservedTo, s.pending ?? 0, s.lastGiven ?? 0);
}

/** A copy of the sidecar and where it is kept (the data directory, a mirror outside it, the fleet's Redis). */
export type SidecarCopy = { sidecar: Sidecar | null; where: string };

/**
 * The copy to judge the database by: of those of this journal, the one that knows the most NSRs
 * (a restore rolls back the copies inside the data directory, not the ones kept elsewhere); on a
 * tie the one knowing a later NSR given, else the first. None of this journal: the first copy (missing or foreign, as
 * it says).
 */
export function furthestCopy(copies: readonly SidecarCopy[], journalId: string): SidecarCopy {
  let best: SidecarCopy | null = null;
  for (const c of copies) {
    if (c.sidecar === null || c.sidecar.journalId !== journalId) continue;
    const b = best?.sidecar as Sidecar | undefined;
    // On a tie, the copy that knows the last NSR given (the fleet's Redis does, a sidecar of a running journal does
    // not).
    if (
      !b ||
      highWater(c.sidecar) > highWater(b) ||
      (highWater(c.sidecar) === highWater(b) && (c.sidecar.lastGiven ?? 0) > (b.lastGiven ?? 0))
    )
      best = c;
  }
  return best ?? copies[0] ?? { sidecar: null, where: 'none' };
}
