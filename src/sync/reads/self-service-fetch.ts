/**
 * What the service knows of one employee's day, for their result screen: the day's punches and the
 * hours bank (GET /timesheets, whose `days[date].horarios` are the punches as the service has them:
 * one request for both), and an approved leave today (GET /work-leaves). Each request goes through
 * the budget at the lowest priority, standing aside while punches are due: a shift change drains
 * at the full limit whether these run or not. Nothing here ever delays a punch's result: the
 * screen shows what an earlier fetch left in the cache (agent/receipts/self-service.ts).
 */
import type { ApiOutcome } from '../../api/classify.js';
import { describeOutcome } from '../../api/classify.js';
import type { WorkLeavesReading } from '../../api/leave-records.js';
import type { EmployeeRef } from '../../api/shapes.js';
import { horariosOn, type TimesheetReading } from '../../api/timesheet-records.js';
import type { Clock } from '../../domain/time/clock.js';
import { wholeDayLeaveOn, type LeaveToday } from '../../domain/time/leave-today.js';
import { rateLimitPause } from '../../domain/rate/retry-policy.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';
import { absentReason, type ReadRoute, type RouteGate } from '../delivery/route-gate.js';

export type SelfServiceApi = {
  getTimesheet(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesheetReading>>;
  getWorkLeaves(
    ref: EmployeeRef,
    startDate: string,
    endDate: string,
    opts?: { status?: string },
  ): Promise<ApiOutcome<WorkLeavesReading>>;
};

export type SelfServiceDeps = {
  api: SelfServiceApi;
  budget: RateBudget;
  clock: Clock;
  /** While true, these requests wait (the outbox has punches due). */
  punchesDue: () => boolean;
  windowMs: () => number;
  authRetryMs: number;
  /** Routes the service lacks: not asked while on pause; the day is read from what the others give. */
  routes?: RouteGate;
};

/** The service's day of one employee; `null` members were not asked or could not be read. */
export type ServiceDay = {
  date: string;
  /** HH:MM of the day's records as the service has them (null: no timesheet read). */
  punches: string[] | null;
  /** Signed minutes of `hours_bank_summary.final_balance` (null: not defined or not read). */
  hoursBankMinutes: number | null;
  /** Whether leaves were read, and the approved whole-day one covering the date. */
  leaveRead: boolean;
  leave: LeaveToday | null;
};

export type FetchOutcome =
  { ok: true; day: ServiceDay; requests: number } | { ok: false; reason: string; requests: number; stop: boolean };

/** The leaves' status filter for an approved leave (spec: "'aprovado' is an allowed value"). */
const APPROVED = 'aprovado';

/**
 * Asks the service for `date` of the employee: the timesheet, and the leaves when `withLeaves`
 * (they change rarely: the caller asks for them less often). `stop` says the budget is paused for
 * everybody (a refused token) or the signal aborted: the caller's queue waits.
 */
export async function fetchServiceDay(
  deps: SelfServiceDeps,
  ref: EmployeeRef,
  date: string,
  opts: { withLeaves: boolean; signal?: AbortSignal },
): Promise<FetchOutcome> {
  let requests = 0;
  const subject = `${ref.kind}:${ref.value}`;
  const sheet = await ask(deps, 'GET /timesheets', subject, opts.signal, () => deps.api.getTimesheet(ref, date, date));
  requests += sheet.requests;
  // A service without timesheets may still have leaves to show: the day goes on without that part.
  if (!sheet.ok && !sheet.absent) return { ok: false, reason: sheet.reason, requests, stop: sheet.stop };
  const day: ServiceDay = {
    date,
    punches: sheet.ok ? horariosOn(sheet.value, date) : null,
    hoursBankMinutes: sheet.ok ? (sheet.value.hoursBank?.finalBalanceMinutes ?? null) : null,
    leaveRead: false,
    leave: null,
  };
  if (!opts.withLeaves) return { ok: true, day, requests };
  const leaves = await ask(deps, 'GET /work-leaves', subject, opts.signal, () =>
    deps.api.getWorkLeaves(ref, date, date, { status: APPROVED }),
  );
  requests += leaves.requests;
  if (!leaves.ok) {
    if (leaves.stop) return { ok: false, reason: leaves.reason, requests, stop: true };
    // The timesheet is worth keeping without the leaves: the screen just shows no note.
    if (sheet.ok || leaves.absent) return { ok: true, day, requests };
    return { ok: false, reason: leaves.reason, requests, stop: false };
  }
  return { ok: true, day: { ...day, leaveRead: true, leave: wholeDayLeaveOn(leaves.value.leaves, date) }, requests };
}

/** `absent`: the service lacks the route (on pause, or this answer showed it): nothing to ask again soon. */
type Asked<T> =
  | { ok: true; value: T; requests: number }
  | { ok: false; reason: string; stop: boolean; requests: number; absent: boolean };

/**
 * One request through the budget, unless the service lacks the route (then none, and no slot is
 * taken); a 429 pauses everybody (as any caller's does) and is asked again, at most twice.
 */
async function ask<T>(
  deps: SelfServiceDeps,
  route: ReadRoute,
  subject: string,
  signal: AbortSignal | undefined,
  call: () => Promise<ApiOutcome<T>>,
): Promise<Asked<T>> {
  let requests = 0;
  const paused = deps.routes?.held(route);
  if (paused) return { ok: false, reason: absentReason(paused), stop: false, requests, absent: true };
  for (let limited = 0; ;) {
    const ticket = await deps.budget.acquire(Priority.selfService, 'self_service', {
      ...(signal ? { signal } : {}),
      standAside: deps.punchesDue,
    });
    if (!ticket) return { ok: false, reason: 'stopped', stop: true, requests, absent: false };
    let res: ApiOutcome<T>;
    requests++;
    try {
      res = await call();
    } finally {
      deps.budget.release(ticket);
    }
    deps.routes?.noteAnswer(route, subject, res);
    const now = deps.clock.now();
    switch (res.kind) {
      case 'ok':
        return { ok: true, value: res.value, requests };
      case 'rate_limited':
        deps.budget.pauseUntil(
          now + rateLimitPause(res.retryAfterHeader, now, deps.windowMs(), res.serverDate),
          'retry_after',
        );
        if (++limited >= 2)
          return { ok: false, reason: 'the service answered 429 twice', stop: false, requests, absent: false };
        continue;
      case 'auth':
        deps.budget.pauseUntil(now + deps.authRetryMs, 'auth');
        return {
          ok: false,
          reason: `the service refused the API token: ${res.reason}`,
          stop: true,
          requests,
          absent: false,
        };
      default: {
        // This answer may have shown the route missing: then it is on pause from now on.
        const learnt = deps.routes?.absent(route) ?? null;
        return {
          ok: false,
          reason: learnt ? absentReason(learnt) : describeOutcome(res),
          stop: false,
          requests,
          absent: learnt !== null,
        };
      }
    }
  }
}
