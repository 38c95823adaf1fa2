/**
 * `timeclock rejected …` and `timeclock held …` from outside the agent: the punches a person must
 * look at, and their decisions. Rows in the database only, so it works beside a running terminal
 * (its uploader picks up what was queued again within a minute).
 */
import type { Config } from '../../config.js';
import { AuditLog } from '../../store/roster/audit-log.js';
import { openDatabase, type DurableDb } from '../../store/database.js';
import { Outbox, type PunchRow } from '../../store/punches/outbox.js';
import { decideHeldPunch, type HeldDecision } from './held-punches.js';

export type { PunchRow } from '../../store/punches/outbox.js';

/** The data directory's punches to review; close it when done. */
export class PunchReview {
  private readonly outbox: Outbox;

  private constructor(private readonly db: DurableDb) {
    this.outbox = new Outbox(db);
  }

  static open(config: Config): PunchReview {
    return new PunchReview(openDatabase(config.dataDir));
  }

  list(kind: 'rejected' | 'held', limit: number): PunchRow[] {
    return kind === 'rejected' ? this.outbox.listRejected(limit) : this.outbox.listHeld(limit);
  }

  /** Every rejected punch queued again; how many. */
  retryAllRejected(now: number): number {
    return this.outbox.retryAllRejected(now);
  }

  /** False when punch `id` is not rejected. */
  retryRejected(id: number, now: number): boolean {
    return this.outbox.retryRejected(id, now);
  }

  /** A decision on a held punch, audited as made by the command line; false when it is not held. */
  decideHeld(id: number, decision: HeldDecision, now: number, reason: string): boolean {
    return decideHeldPunch(this.outbox, new AuditLog(this.db), id, decision, 'the command line', now, reason);
  }

  close(): void {
    this.db.close();
  }
}
