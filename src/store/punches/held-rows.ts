/**
 * Held punches in the outbox: held or released as the roster's API permission says, released
 * after a 403's slow retry or a roster sync, and a person's decision on one. Each change is
 * journalled, with its evidence-journal fact, in one transaction on the durable connection.
 */
import type { WritableDb } from '../database.js';
import type { HeldReason, PunchRow } from './punch-row.js';
import { punchFact, type PunchWriter } from './punch-writer.js';

/**
 * After a sync, the pending punches of those the roster forbids API records: from the unsent
 * punches' index (without it SQLite scanned every punch kept: 28 ms on the loop after each sync
 * with a year's punches). The IN repeats that partial index's own condition: SQLite uses a partial
 * index only for a query whose terms state it.
 */
export const TO_HOLD_SQL = `SELECT p.id FROM punches p INDEXED BY punches_unsent_by_id
  WHERE p.state IN ('pending', 'in_doubt') AND p.state = 'pending'
    AND EXISTS (SELECT 1 FROM roster_employees r WHERE r.id = p.employee_key AND r.allow_api_record = 0)`;

export class HeldRows {
  private readonly stmts;
  private readonly db: WritableDb;

  constructor(private readonly durable: PunchWriter) {
    const db = durable.db;
    this.db = db;
    this.stmts = {
      // The roster's allow_external_api_record: pending punches of those it forbids are held; held
      // ones of everyone else (true, not defined, or gone from the roster) go back to the queue.
      toHold: db.prepare(TO_HOLD_SQL),
      toRelease: db.prepare(
        `SELECT p.id FROM punches p INDEXED BY punches_held WHERE p.state = 'held' AND p.held_reason = 'not_allowed'
           AND NOT EXISTS (SELECT 1 FROM roster_employees r WHERE r.id = p.employee_key AND r.allow_api_record = 0)`,
      ),
      hold: db.prepare(
        `UPDATE punches SET state = 'held', held_reason = @reason, updated_at = @now WHERE id = @id AND state = 'pending'`,
      ),
      release: db.prepare(
        `UPDATE punches SET state = 'pending', held_reason = NULL, next_attempt_at = @now, checks = 0, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      forbiddenHeld: db.prepare(
        `SELECT id FROM punches INDEXED BY punches_held WHERE state = 'held' AND held_reason = 'forbidden'`,
      ),
      forbiddenDue: db.prepare(
        `SELECT id FROM punches INDEXED BY punches_held WHERE state = 'held' AND held_reason = 'forbidden' AND next_attempt_at <= ?`,
      ),
      heldList: db.prepare(`SELECT * FROM punches INDEXED BY punches_held WHERE state = 'held' ORDER BY id LIMIT ?`),
      delivered: db.prepare(
        `UPDATE punches SET state = 'sent', held_reason = NULL, sent_at = @now, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      dispute: db.prepare(
        `UPDATE punches SET held_reason = 'disputed', last_error = @reason, updated_at = @now WHERE id = @id AND state = 'held'`,
      ),
      heldReasonOf: db.prepare(`SELECT held_reason FROM punches WHERE id = ? AND state = 'held'`),
      // A person sends a punch held for its unconfirmed time: they vouch for it, it is not doubted again.
      timeVouched: db.prepare(`UPDATE punches SET anchored = 1 WHERE id = ?`),
    };
  }

  /**
   * After a roster sync: holds the pending punches of employees whose contract forbids API records
   * and releases, with their original times, the held punches of everyone else. Journalled.
   */
  applyApiPermissions(now: number): { held: number; released: number } {
    return this.db
      .transaction(() => {
        let held = 0;
        let released = 0;
        for (const { id } of this.stmts.toHold.all() as { id: number }[]) {
          held += this.stmts.hold.run({ id, now, reason: 'not_allowed' }).changes;
          this.durable.journal.run(id, now, 'held', 'not_allowed');
          punchFact(this.durable, id, now, 'held', 'not_allowed: allow_external_api_record is false');
        }
        for (const { id } of this.stmts.toRelease.all() as { id: number }[]) {
          released += this.stmts.release.run({ id, now }).changes;
          this.durable.journal.run(id, now, 'released', 'allow_external_api_record no longer false');
          punchFact(this.durable, id, now, 'released', 'allow_external_api_record no longer false');
        }
        return { held, released };
      })
      .immediate();
  }

  /** Punches held for a 403 whose slow retry is due go back to the queue. */
  releaseDueForbidden(now: number): number {
    const ids = this.stmts.forbiddenDue.all(now) as { id: number }[];
    if (ids.length === 0) return 0;
    return this.releaseAll(ids, now, 'retry after 403');
  }

  /** After a roster sync: punches held for a 403 are tried again (the employee may have changed). */
  releaseForbidden(now: number): number {
    return this.releaseAll(this.stmts.forbiddenHeld.all() as { id: number }[], now, 'roster sync: retry after 403');
  }

  private releaseAll(ids: { id: number }[], now: number, why: string): number {
    return this.db.transaction(() => {
      let n = 0;
      for (const { id } of ids) {
        n += this.stmts.release.run({ id, now }).changes;
        this.durable.journal.run(id, now, 'released', why);
      }
      return n;
    })();
  }

  /** A person's decision on a held punch: send it again (it may then exist twice) or take it as delivered. */
  decideHeld(id: number, now: number, decision: 'resend' | 'delivered' | 'dispute', reason = ''): boolean {
    return this.db
      .transaction(() => {
        const was =
          (this.stmts.heldReasonOf.get(id) as { held_reason: HeldReason | null } | undefined)?.held_reason ?? null;
        const changed =
          (decision === 'dispute'
            ? this.stmts.dispute.run({ id, now, reason })
            : (decision === 'resend' ? this.stmts.release : this.stmts.delivered).run({ id, now })
          ).changes > 0;
        const event = { resend: 'resend_requested', delivered: 'marked_delivered', dispute: 'disputed' }[decision];
        if (changed) {
          this.durable.journal.run(id, now, event, decision === 'dispute' ? `by a person: ${reason}` : 'by a person');
          if (decision === 'resend' && was === 'clock_unverified') this.stmts.timeVouched.run(id);
          // Sending a punch whose PIN was not verified is the manager confirming it.
          if (decision === 'dispute') punchFact(this.durable, id, now, 'disputed', reason);
          else if (decision === 'delivered')
            punchFact(this.durable, id, now, 'delivered', 'taken as delivered by a person');
          else if (was === 'pin_unverified') punchFact(this.durable, id, now, 'confirmed', 'by a person');
          else punchFact(this.durable, id, now, 'released', `held (${was ?? '?'}): sent again by a person`);
        }
        return changed;
      })
      .immediate();
  }

  list(limit = 100): PunchRow[] {
    return this.stmts.heldList.all(limit) as PunchRow[];
  }
}
