import type { Clock, Random } from '../../domain/time/clock.js';
import { addDays } from '../../domain/time/local-time.js';
import { backoffDelay, type BackoffOptions } from '../../domain/rate/retry-policy.js';
import type { Logger } from '../../log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { EmployeeRef } from '../../api/shapes.js';
import type { DeliveryHealth } from './delivery-health.js';
import { sentMinuteOf, verdictOf } from './record-match.js';
import { absentReason, type AbsentRoute, type RouteGate } from './route-gate.js';
import type { TimesApi, UploaderEvent } from './uploader-types.js';

/** Who a punch is for, as the API takes it: the external id when there is one, else the `_id`. */
export function employeeRefOf(p: Pick<PunchRow, 'employee_external_id' | 'employee_key'>): EmployeeRef {
  return p.employee_external_id
    ? { kind: 'external_id', value: p.employee_external_id }
    : { kind: 'employee_id', value: p.employee_key };
}

/**
 * The days to ask `GET /times` for: the day before to the day after the punch's, so the record is
 * inside the interval whether the server's end date is inclusive or exclusive, and whatever day
 * boundary it uses; the match is made here, by minute.
 */
export function checkRange(p: Pick<PunchRow, 'local_date'>): { start: string; end: string } {
  return { start: addDays(p.local_date, -1), end: addDays(p.local_date, 1) };
}

/** What the reconciler is built from (the uploader's own parts). */
export type ReconcilerDeps = {
  outbox: Outbox;
  api: Pick<TimesApi, 'getTimes'>;
  clock: Clock;
  random: Random;
  opts: { backoff: BackoffOptions; maxChecks: number };
  log: Logger;
  onEvent: (e: UploaderEvent) => void;
  /** Shared with the uploader: one back-off, one pause, one answer log. */
  health: DeliveryHealth;
  /** Read routes the service lacks: GET /times among them, no check can be made. */
  routes?: RouteGate;
};

/** Settles in-doubt punches with `GET /times`, on the uploader's slots and back-off. */
export class Reconciler {
  private readonly outbox: Outbox;
  private readonly api: Pick<TimesApi, 'getTimes'>;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly opts: { backoff: BackoffOptions; maxChecks: number };
  private readonly log: Logger;
  private readonly onEvent: (e: UploaderEvent) => void;
  private readonly health: DeliveryHealth;
  private readonly routes: RouteGate | undefined;

  constructor(d: ReconcilerDeps) {
    this.outbox = d.outbox;
    this.api = d.api;
    this.clock = d.clock;
    this.random = d.random;
    this.opts = d.opts;
    this.log = d.log;
    this.onEvent = d.onEvent;
    this.health = d.health;
    this.routes = d.routes;
  }

  /**
   * Null when a check may ask the service. Else the service lacks GET /times (it is on pause): the
   * uploader settles the punch with `handOver`, without a request or a slot of the budget.
   */
  timesAbsent(): AbsentRoute | null {
    return this.routes?.held('GET /times') ?? null;
  }

  /**
   * No check can be made while the service lacks GET /times: a person decides now (send it again
   * or mark it delivered), rather than after back-offs that would each ask nothing.
   */
  handOver(item: PunchRow, absent: AbsentRoute): void {
    const now = this.clock.now();
    const why = `${absentReason(absent)}, so it cannot say whether it has this punch: send it again or mark it delivered`;
    this.log.warn('in-doubt punch handed to a person', { punchId: item.id, reason: absentReason(absent) });
    this.outbox.markHeld(item.id, now, 'unverified', why, now);
    this.onEvent({ type: 'held', punchId: item.id, reason: why });
  }

  /**
   * Before anything is sent again: is the record already on the server? Only a list that could be
   * read and lacks it proves it is not; any other answer keeps the punch in doubt, and after
   * `maxChecks` answers that prove nothing it is handed to a person.
   */
  async check(item: PunchRow): Promise<number> {
    const sentAt = this.clock.now();
    const range = checkRange(item);
    const ref = employeeRefOf(item);
    const res = await this.api.getTimes(ref, range.start, range.end);
    const now = this.clock.now();
    this.health.noteAnswer(res, sentAt, now);
    this.routes?.noteAnswer('GET /times', `${ref.kind}:${ref.value}`, res);
    switch (res.kind) {
      case 'ok': {
        const verdict = verdictOf(res.value, sentMinuteOf(item), this.outbox.settledTwins(item));
        if (verdict.kind === 'present') {
          this.outbox.markSent(item.id, now, verdict.record.id, 'reconciled');
          this.onEvent({ type: 'sent', punchId: item.id });
        } else if (verdict.kind === 'unproven') {
          this.checkFailed(item, now, verdict.reason);
        } else {
          // Not there: it never arrived. Due now, so the send follows at once.
          this.outbox.markAbsent(item.id, now, now, 'not found on server after unknown outcome');
        }
        return now;
      }
      case 'rate_limited':
        this.health.rateLimited(res, now);
        this.outbox.markInDoubt(item.id, now, now, '429 rate limited');
        return now;
      case 'auth':
        this.outbox.markInDoubt(item.id, now, now, res.reason);
        this.health.authRefused(res.reason, now);
        return now;
      case 'not_sent':
      case 'server_error':
      case 'unknown':
      case 'setup': {
        // The service was not reached or not the API: the queue backs off; nothing was learnt.
        const why = res.kind === 'setup' ? res.reason : res.error;
        this.outbox.markInDoubt(
          item.id,
          now,
          Math.max(this.health.blockedUntil, now + this.opts.backoff.baseMs),
          `reconciliation failed: ${why}`,
        );
        return now;
      }
      case 'refused':
      case 'forbidden':
        this.checkFailed(item, now, res.reason);
        return now;
    }
  }

  /**
   * `POST /times` answered 409 (the service holds a record of this employee at this minute) after
   * a list of its records said this punch is not there: the two answers disagree, and sending
   * again would only get another 409. It counts as a check that proved nothing, so after
   * `maxChecks` a person decides. False (nothing done) when no list has said it absent.
   */
  conflictAfterAbsent(item: PunchRow, now: number, reason: string): boolean {
    if (!this.outbox.foundAbsent(item.id)) return false;
    this.log.warn("409 for a punch the service's list does not show", { punchId: item.id, reason });
    this.checkFailed(
      item,
      now,
      `409 after a list without it: ${reason}`,
      (checks) =>
        `the service answers 409 (it already has a record of this employee at ${item.local_date} ${item.local_time}) but its list of records does not show this punch (${checks} checks): mark it delivered if that record is this punch, else send it again`,
    );
    return true;
  }

  /**
   * An answer that proves nothing either way (a 404, a 400, an unreadable record): back off this punch, then hand it
   * over.
   */
  private checkFailed(item: PunchRow, now: number, reason: string, heldWhy?: (checks: number) => string): void {
    const checks = item.checks + 1;
    if (checks >= this.opts.maxChecks) {
      const why =
        heldWhy?.(checks) ??
        `the service would not say whether it has this punch (${checks} checks, last: ${reason}): send it again or mark it delivered`;
      this.log.warn('in-doubt punch handed to a person', { punchId: item.id, reason });
      this.outbox.markHeld(item.id, now, 'unverified', why, now);
      this.onEvent({ type: 'held', punchId: item.id, reason: why });
      return;
    }
    this.outbox.markCheckFailed(
      item.id,
      now,
      now + backoffDelay(checks, this.opts.backoff, this.random),
      `reconciliation failed: ${reason}`,
    );
  }
}
