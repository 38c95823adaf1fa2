/**
 * The writes of a punch's state change on one connection, in one transaction: the row, its line
 * in punch_journal and, for the changes that count (not retries: sending, pending, in doubt), the
 * evidence journal's fact.
 */
import type { FactEvent } from '../../domain/punch/journal-fact.js';
import type { PunchState } from '../../domain/punch/punch.js';
import type { WritableDb } from '../database.js';
import { JournalFacts } from '../journal/journal-facts.js';
import type { HeldReason } from './punch-row.js';

export type PunchWriter = ReturnType<typeof punchWriter>;

export function punchWriter(db: WritableDb) {
  return {
    db,
    journal: db.prepare('INSERT INTO punch_journal (punch_id, at, event, detail) VALUES (?, ?, ?, ?)'),
    /**
     * The evidence journal's facts: appended with the state change they record (not retries: sending, pending, in
     * doubt).
     */
    facts: new JournalFacts(db),
    /**
     * A move to sending keeps the last error: the manager's list still says why the punch waits while it is tried
     * again; the attempt's outcome replaces it.
     */
    setState: db.prepare(
      `UPDATE punches SET state = @state, attempts = attempts + @attempt, next_attempt_at = @nextAt,
         last_error = CASE WHEN @state = 'sending' THEN last_error ELSE @error END, updated_at = @now WHERE id = @id`,
    ),
    /**
     * Delivered, the clock readings of an anchored punch (boot id, monotonic and wall times: 50 bytes) have served
     * (they re-time a punch before it is sent); dropped in the same write, while the row is still in the table's last
     * page, whose next insert reuses the space (migration 17's size goal). An unanchored one keeps them as evidence.
     */
    setSent: db.prepare(
      `UPDATE punches SET state = 'sent', remote_id = @remoteId, sent_at = @now, last_error = NULL, updated_at = @now,
         boot_id = CASE WHEN anchored = 1 THEN NULL ELSE boot_id END,
         mono_at = CASE WHEN anchored = 1 THEN NULL ELSE mono_at END,
         wall_at = CASE WHEN anchored = 1 THEN NULL ELSE wall_at END
       WHERE id = @id`,
    ),
    setHeld: db.prepare(
      `UPDATE punches SET state = 'held', held_reason = @reason, next_attempt_at = @nextAt, last_error = @error,
         checks = checks + @check, updated_at = @now WHERE id = @id`,
    ),
    countCheck: db.prepare(`UPDATE punches SET checks = checks + 1 WHERE id = ?`),
    setRejected: db.prepare(
      `UPDATE punches SET state = 'rejected', attempts = attempts + 1, reject_reason = @reason, last_error = @reason,
         updated_at = @now WHERE id = @id`,
    ),
  };
}

/**
 * The evidence journal's fact for a state change, in its transaction. A punch held again for the
 * reason its last fact already gives (a 403 retried on the slow schedule) adds nothing.
 */
export function punchFact(w: PunchWriter, id: number, now: number, event: FactEvent, detail: string | null): void {
  if (event === 'held' && w.facts.lastOfPunch(id)?.startsWith(`held ${(detail ?? '').split(':')[0]}`)) return;
  w.facts.forPunch(id, now, event, detail);
}

/** A move between the sending states (sending, pending, in doubt): the row and its journal line. */
export function transition(
  w: PunchWriter,
  id: number,
  now: number,
  state: PunchState,
  nextAt: number,
  error: string | null,
  countAttempt: boolean,
  event: string,
): void {
  w.db.transaction(() => {
    w.setState.run({ id, state, nextAt, error, now, attempt: countAttempt ? 1 : 0 });
    w.journal.run(id, now, event, error);
  })();
}

/** A reconciliation check the service answered without proof either way (a refusal, an unreadable list). */
export function checkFailed(w: PunchWriter, id: number, now: number, checkAt: number, error: string): void {
  w.db.transaction(() => {
    w.countCheck.run(id);
    w.setState.run({ id, state: 'in_doubt', nextAt: checkAt, error, now, attempt: 0 });
    w.journal.run(id, now, 'check_failed', error);
  })();
}

/** Kept, not sent, until `nextAt` (forbidden) or a roster sync or a person releases it. */
export function held(w: PunchWriter, id: number, now: number, reason: HeldReason, error: string, nextAt: number): void {
  w.db
    .transaction(() => {
      w.setHeld.run({ id, now, reason, error, nextAt, check: 0 });
      w.journal.run(id, now, 'held', `${reason}: ${error}`);
      punchFact(w, id, now, 'held', `${reason}: ${error}`);
    })
    .immediate();
}

export function sent(
  w: PunchWriter,
  id: number,
  now: number,
  remoteId: string | null,
  how: 'created' | 'reconciled',
): void {
  w.db
    .transaction(() => {
      w.setSent.run({ id, now, remoteId });
      w.journal.run(id, now, how === 'created' ? 'sent' : 'found_on_server', remoteId);
      punchFact(
        w,
        id,
        now,
        'delivered',
        `${remoteId ?? '(no _id)'}${how === 'reconciled' ? ' (found on the service)' : ''}`,
      );
    })
    .immediate();
}

export function rejected(w: PunchWriter, id: number, now: number, reason: string): void {
  w.db
    .transaction(() => {
      w.setRejected.run({ id, now, reason });
      w.journal.run(id, now, 'rejected', reason);
      punchFact(w, id, now, 'rejected', reason);
    })
    .immediate();
}
