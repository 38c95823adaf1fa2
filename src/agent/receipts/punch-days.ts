/**
 * Puts the employee's day beside a punch's answer (agent/receipts/self-service.ts), and asks for their day
 * to be fetched again for their next punch. Never fails a punch: the day is an extra, and a
 * failure to read it leaves the answer as it was.
 */
import type { Logger } from '../../log.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { PunchAnswer } from './receipts.js';
import type { SelfService } from './self-service.js';

export class PunchDays {
  constructor(private readonly d: { outbox: Pick<Outbox, 'get'>; selfService: SelfService | null; log: Logger }) {}

  attach(a: PunchAnswer): PunchAnswer {
    const s = this.d.selfService;
    if (!s || !a.ok || a.punchId === null) return a;
    try {
      const row = this.d.outbox.get(a.punchId);
      if (!row) return a;
      const employee = { key: row.employee_key, externalId: row.employee_external_id };
      const day = s.dayOf(employee, { date: row.local_date, time: row.local_time }, row.captured_at);
      // For the next punch: the hours bank and what other terminals recorded, fetched on what punches leave.
      s.want(employee, row.local_date);
      return { ...a, day };
    } catch (e) {
      this.d.log.warn("the employee's day could not be read; the punch is registered", { error: (e as Error).message });
      return a;
    }
  }
}
