import type { Statement } from 'better-sqlite3';
import type { PunchState } from '../../domain/punch/punch.js';
import type { DurableDb, WritableDb } from '../database.js';
import { EvidenceJournal } from '../journal/evidence-journal.js';
import { HeldRows } from './held-rows.js';
import { outboxStatements } from './outbox-statements.js';
import { punchInserter } from './punch-capture.js';
import type { HeldReason, InsertOutcome, NewPunch, PunchRow } from './punch-row.js';
import { PunchTimes } from './punch-times.js';
import { ABSENT_EVENT, PunchTwins, type SettledTwinRows } from './punch-twins.js';
import {
  checkFailed,
  held,
  punchFact,
  punchWriter,
  rejected,
  sent,
  transition,
  type PunchWriter,
} from './punch-writer.js';

export type { HeldReason, InsertOutcome, NewPunch, PunchRow } from './punch-row.js';

/**
 * The outbox: the only code that writes punch rows (a capture's insert in punch-capture.ts). Every
 * state change is journalled in the same transaction, so "what happened to this punch" can always be
 * answered for payroll.
 */
export class Outbox {
  private readonly stmts;
  /** A capture's one transaction (punch-capture.ts). */
  private readonly insertTx: (p: NewPunch) => InsertOutcome;
  private readonly durable: PunchWriter;
  /** Writes whose loss in a power cut is repaired by reconciliation (see constructor). */
  private readonly lazy: PunchWriter;
  /** Held punches: the roster's permission, 403s, a person's decision (store/punches/held-rows.ts). */
  private readonly held: HeldRows;
  /** Re-timing after an anchor, deadlines after a clock step (store/punches/punch-times.ts). */
  private readonly times: PunchTimes;
  /** What reconciliation reads beside the row (store/punches/punch-twins.ts). */
  private readonly twins: PunchTwins;

  /**
   * `db` is the durable (synchronous=FULL) connection: captures and 'sending' go through it, so
   * a punch is on disk before it is acknowledged and before its request leaves. `lazyDb` (by
   * default the same) takes the transitions after an answer: if a power cut undoes one, the row
   * is found in 'sending', becomes in_doubt and is reconciled, so nothing is lost or doubled;
   * sparing their fsync halves the disk syncs per delivered punch.
   */
  constructor(
    // The punch path: only the durable connection type-checks here, so a bookkeeping handle cannot take a punch.
    private readonly db: DurableDb,
    lazyDb: WritableDb = db,
    /** Its mark per punch, in the insert's transaction (store/journal/evidence-journal.ts); on `db`. */
    journal: EvidenceJournal = new EvidenceJournal(db),
  ) {
    if (journal.db !== db) throw new Error('the outbox and its evidence journal must share the durable connection');
    this.durable = punchWriter(db);
    this.lazy = lazyDb === db ? this.durable : punchWriter(lazyDb);
    this.held = new HeldRows(this.durable);
    this.times = new PunchTimes(this.durable, this.lazy, journal);
    this.twins = new PunchTwins(db);
    this.stmts = outboxStatements(db);
    this.insertTx = punchInserter({ db, journal, durable: this.durable, stmts: this.stmts });
  }

  /**
   * Inserts a punch, or returns the one the same employee already has in the same minute (the UTC
   * minute: a DST fall-back shows one local minute twice, an hour apart, and those are two punches;
   * the second is kept, sent and flagged as colliding for status).
   */
  insert(p: NewPunch): InsertOutcome {
    return this.insertTx(p);
  }

  /** Punches sent with a local minute another punch of the same employee also has (DST fall-back), newest first. */
  collisions(limit = 20): { count: number; punches: PunchRow[] } {
    return {
      count: (this.stmts.collidingCount.get() as { n: number }).n,
      punches: this.stmts.colliding.all(limit) as PunchRow[],
    };
  }

  get(id: number): PunchRow | null {
    return (this.stmts.byId.get(id) as PunchRow | undefined) ?? null;
  }

  /** The oldest `limit` punches due at `now` (pending, or in doubt and due for a check). */
  dueBatch(now: number, limit: number): PunchRow[] {
    return this.stmts.dueBatch.all(now, limit) as PunchRow[];
  }

  /** When the next pending or in-doubt punch becomes due, or null when there is none. */
  earliestDueAt(): number | null {
    return (this.stmts.earliestDue.get() as { t: number | null }).t;
  }

  hasDue(now: number): boolean {
    return this.stmts.hasDue.get(now) !== undefined;
  }

  /** Durable before the request leaves: a crash from here on is found as 'sending' and reconciled. */
  markSending(id: number, now: number): void {
    transition(this.durable, id, now, 'sending', now, null, true, 'sending');
  }

  markPending(id: number, now: number, nextAt: number, error: string | null, countAttempt = false): void {
    transition(this.lazy, id, now, 'pending', nextAt, error, countAttempt, 'retry_scheduled');
  }

  markInDoubt(id: number, now: number, checkAt: number, error: string): void {
    transition(this.lazy, id, now, 'in_doubt', checkAt, error, false, 'in_doubt');
  }

  /** A list of the service's records proved it absent: due again at `nextAt`, and remembered (foundAbsent). */
  markAbsent(id: number, now: number, nextAt: number, error: string): void {
    transition(this.lazy, id, now, 'pending', nextAt, error, false, ABSENT_EVENT);
  }

  /** Whether a list said it absent since a person last released it: a 409 now contradicts that list. */
  foundAbsent(id: number): boolean {
    return this.twins.foundAbsent(id);
  }

  /** Sent punches of the same employee, wall minute and zone (a DST fall-back's two 01:45). */
  settledTwins(p: PunchRow): SettledTwinRows {
    return this.twins.settled(p);
  }

  /** A reconciliation check the service answered without proof either way (a refusal, an unreadable list). */
  markCheckFailed(id: number, now: number, checkAt: number, error: string): void {
    checkFailed(this.lazy, id, now, checkAt, error);
  }

  /** Kept, not sent, until `nextAt` (forbidden) or a roster sync or a person releases it. */
  markHeld(id: number, now: number, reason: HeldReason, error: string, nextAt: number): void {
    held(this.lazy, id, now, reason, error, nextAt);
  }

  markSent(id: number, now: number, remoteId: string | null, how: 'created' | 'reconciled'): void {
    sent(this.lazy, id, now, remoteId, how);
  }

  markRejected(id: number, now: number, reason: string): void {
    rejected(this.lazy, id, now, reason);
  }

  /** Puts a rejected punch back in the queue (after the roster or config was fixed). */
  retryRejected(id: number, now: number): boolean {
    return this.db
      .transaction(() => {
        const changed = this.stmts.retryRejected.run({ id, now }).changes > 0;
        if (changed) {
          this.durable.journal.run(id, now, 'retry_requested', null);
          punchFact(this.durable, id, now, 'released', 'a rejected punch queued again by a person');
        }
        return changed;
      })
      .immediate();
  }

  /**
   * After a crash or kill, a punch left in 'sending' may or may not have reached the server:
   * it becomes in_doubt, so the reconciler looks before anything is sent again.
   */
  recoverInterrupted(now: number): number {
    return this.db.transaction(() => {
      const ids = (this.stmts.interrupted.all() as { id: number }[]).map((r) => r.id);
      for (const id of ids) {
        this.durable.setState.run({
          id,
          state: 'in_doubt',
          nextAt: now,
          error: 'interrupted while sending',
          now,
          attempt: 0,
        });
        this.durable.journal.run(id, now, 'in_doubt', 'interrupted while sending (restart)');
      }
      return ids.length;
    })();
  }

  /**
   * After a roster sync: holds the pending punches of employees whose contract forbids API records
   * and releases, with their original times, the held punches of everyone else. Journalled.
   */
  applyApiPermissions(now: number): { held: number; released: number } {
    return this.held.applyApiPermissions(now);
  }

  /**
   * The first anchor of boot `bootId` arrived: punches captured before it, on the wall clock, get
   * the service's time, in their own zone, before they are sent (store/punches/punch-times.ts).
   */
  reanchor(
    bootId: string,
    timeOf: (monoAt: number, wallAt: number) => number,
    localOf: (at: number, zone: string) => { date: string; time: string },
    now: number,
    clock?: { before: number; after: number },
  ): number {
    return this.times.reanchor(bootId, timeOf, localOf, now, clock);
  }

  /** The wall clock stepped by `ms`: retry times written by `before` move with it (store/punches/punch-times.ts). */
  shiftDeadlines(ms: number, before?: number): void {
    this.times.shiftDeadlines(ms, before);
  }

  /** At start: a retry scheduled further ahead than `maxAheadMs` (the clock was stepped back meanwhile) is due now. */
  clampDeadlines(now: number, maxAheadMs: number): number {
    return this.times.clampDeadlines(now, maxAheadMs);
  }

  /** Punches held for a 403 whose slow retry is due go back to the queue. */
  releaseDueForbidden(now: number): number {
    return this.held.releaseDueForbidden(now);
  }

  /** After a roster sync: punches held for a 403 are tried again (the employee may have changed). */
  releaseForbidden(now: number): number {
    return this.held.releaseForbidden(now);
  }

  /** A person's decision on a held punch: send it again (it may then exist twice) or take it as delivered. */
  decideHeld(id: number, now: number, decision: 'resend' | 'delivered' | 'dispute', reason = ''): boolean {
    return this.held.decideHeld(id, now, decision, reason);
  }

  listHeld(limit = 100): PunchRow[] {
    return this.held.list(limit);
  }

  /** Every rejected punch back in the queue (after the roster or the configuration was fixed). */
  retryAllRejected(now: number): number {
    const ids = this.stmts.rejectedIds.all() as { id: number }[];
    return this.db.transaction(() => ids.reduce((n, { id }) => n + (this.retryRejected(id, now) ? 1 : 0), 0))();
  }

  counts(): Record<PunchState, number> {
    const out: Record<PunchState, number> = { pending: 0, sending: 0, in_doubt: 0, sent: 0, rejected: 0, held: 0 };
    for (const r of this.stmts.counts.all() as { state: PunchState; n: number }[]) out[r.state] = r.n;
    return out;
  }

  oldestUnsentAt(): number | null {
    return (this.stmts.oldestUnsent.get() as { t: number | null }).t;
  }

  latestCaptureAt(): number | null {
    return (this.stmts.latestCapture.get() as { t: number | null }).t;
  }

  /**
   * The time of the last anchored punch taken before punch `id` (capture order), or null: a time known to be right and
   * earlier.
   */
  newestAnchoredBefore(id: number): number | null {
    return this.times.newestAnchoredBefore(id);
  }

  /**
   * The employee's latest punch when it was captured at `sinceMs` or later (service time); null otherwise. Whether
   * a punch repeats one within the window needs no older row.
   */
  lastSince(employeeKey: string, sinceMs: number): PunchRow | null {
    let latest: PunchRow | null = null;
    for (const r of this.stmts.since.all(employeeKey, Math.floor(sinceMs / 60_000)) as PunchRow[])
      if (latest === null || r.captured_at > latest.captured_at) latest = r;
    return latest;
  }

  listRejected(limit = 100): PunchRow[] {
    return this.stmts.rejected.all(limit) as PunchRow[];
  }

  /** The service is back: pending punches a back-off had put off are due now (in-doubt checks keep their times). */
  pullForward(now: number): number {
    this.pullForwardStmt ??= this.lazy.db.prepare(
      `UPDATE punches SET next_attempt_at = @now WHERE state = 'pending' AND next_attempt_at > @now`,
    );
    return this.pullForwardStmt.run({ now }).changes;
  }

  private pullForwardStmt: Statement | null = null;
}
