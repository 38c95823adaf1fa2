/**
 * The admin screen's work on the queue: rejected punches back in it, a person's decision on a held
 * one (written to the audit log). What goes back wakes the uploader, and status follows.
 */
import type { Clock } from '../../domain/time/clock.js';
import type { AuditLog } from '../../store/roster/audit-log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { Uploader } from '../../sync/delivery/uploader.js';
import { decideHeldPunch, type HeldDecision } from './held-punches.js';

export type QueueAdminParts = {
  outbox: Outbox;
  audit: AuditLog;
  clock: Clock;
  uploader: Pick<Uploader, 'wake'>;
  changed: () => void;
};

export class QueueAdmin {
  constructor(private readonly p: QueueAdminParts) {}

  retryRejected(punchId: number): boolean {
    return this.queued(this.p.outbox.retryRejected(punchId, this.p.clock.now()));
  }

  listRejected(): PunchRow[] {
    return this.p.outbox.listRejected();
  }

  /** Every rejected punch back in the queue (after the roster or the configuration was fixed); how many. */
  retryAllRejected(): number {
    const n = this.p.outbox.retryAllRejected(this.p.clock.now());
    this.queued(n > 0);
    return n;
  }

  /** Held punches (not allowed, refused with 403, or unverifiable), oldest first. */
  listHeld(limit = 100): PunchRow[] {
    return this.p.outbox.listHeld(limit);
  }

  /**
   * A person's decision on a held punch, written to the audit log: send it again (the service may
   * then hold it twice), or take it as delivered (nothing more is sent).
   */
  decideHeld(punchId: number, decision: HeldDecision, by: string, reason = ''): boolean {
    const ok = decideHeldPunch(this.p.outbox, this.p.audit, punchId, decision, by, this.p.clock.now(), reason);
    if (ok) {
      if (decision === 'resend') this.p.uploader.wake();
      this.p.changed();
    }
    return ok;
  }

  /** Punches went back in the queue (`ok`): the uploader looks now and status follows. */
  private queued(ok: boolean): boolean {
    if (ok) {
      this.p.uploader.wake();
      this.p.changed();
    }
    return ok;
  }
}
