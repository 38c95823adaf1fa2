import { describeOutcome, type ApiOutcome } from '../../api/classify.js';
import type { EmployeeRef } from '../../api/shapes.js';
import type { TimeRecordRead, TimesReading } from '../../api/time-records.js';
import type { Clock } from '../../domain/time/clock.js';
import { recordNamesMinute, recordWallMinute, type WallZone } from '../../domain/time/record-time.js';
import { rateLimitPause } from '../../domain/rate/retry-policy.js';
import type { AuditMark } from '../../store/journal/audit-marks.js';
import { Priority, type RateBudget } from '../window/rate-budget.js';
import { isApiRecord, isRecordOf } from '../delivery/record-match.js';
import { checkRange, employeeRefOf } from '../delivery/reconcile.js';
import type { AuditMarkResult, AuditReport, Unexplained } from './audit-report.js';

/**
 * `timeclock audit compare`: the evidence journal's marks of a date range against what the service
 * holds. One `GET /times` per employee for a run of days with marks (never more than one request
 * per employee-day), each through the budget at the audit priority, standing aside while punches
 * are due. A mark is found (the service's `_id`), missing (a list that could be read whole lacks
 * it) or unchecked (no answer that proves either); API records on those days that no mark explains
 * are listed, not judged: another terminal or integration may share the account.
 */

export type { AuditCounts, AuditMarkResult, AuditReport, Unexplained } from './audit-report.js';

export type AuditProgress = { requestsDone: number; requestsTotal: number; marks: number };

export type AuditDeps = {
  api: { getTimes(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesReading>> };
  budget: RateBudget;
  clock: Clock;
  /** While true, audit requests wait (the outbox has punches due). */
  punchesDue: () => boolean;
  windowMs: () => number;
  authRetryMs: number;
};

export type AuditOptions = {
  from: string;
  to: string;
  signal?: AbortSignal;
  onProgress?: (p: AuditProgress) => void;
  /** Longest run of days (first to last mark) asked in one request; 1: one request per employee-day. */
  maxDaysPerRequest?: number;
  /** 429s of one request before its marks are left unchecked. */
  maxRateLimited?: number;
  /** Failures in a row (unreachable, timeouts, 5xx) before the rest is left unasked. */
  maxFailuresInRow?: number;
};

/** One employee's marks by day (the minute's day: the day the service files the record under). */
export type AuditGroup = { ref: EmployeeRef; label: string; days: Map<string, AuditMark[]> };
export type AuditRequest = { group: AuditGroup; days: string[] };
type Asked = { ok: true; reading: TimesReading } | { ok: false; reason: string; stop: boolean; failure: boolean };

const dayDiff = (a: string, b: string): number =>
  (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/** The requests to make: per employee, its days with marks cut into runs of at most `maxDays` calendar days. */
export function planRequests(groups: Iterable<AuditGroup>, maxDays: number): AuditRequest[] {
  const out: AuditRequest[] = [];
  for (const group of groups) {
    const days = [...group.days.keys()].sort();
    let run: string[] = [];
    for (const d of days) {
      if (run.length > 0 && dayDiff(run[0] as string, d) >= maxDays) {
        out.push({ group, days: run });
        run = [];
      }
      run.push(d);
    }
    if (run.length > 0) out.push({ group, days: run });
  }
  return out;
}

export async function compareWithService(
  deps: AuditDeps,
  marks: Iterable<AuditMark>,
  opts: AuditOptions,
): Promise<AuditReport> {
  const startedAt = deps.clock.now();
  const results = new Map<number, AuditMarkResult>();
  const groups = new Map<string, AuditGroup>();
  let count = 0;
  for (const m of marks) {
    count++;
    const base = {
      nsr: m.nsr,
      employee: m.employee ? (m.employee.externalId ?? m.employee.key) : null,
      minute: m.minute,
      delivered: m.delivered,
      state: m.state,
    };
    if (m.problem !== null || m.employee === null || m.minute === null) {
      results.set(m.nsr, { ...base, status: 'unchecked', reason: m.problem ?? 'no known employee' });
      continue;
    }
    const g = groups.get(m.employee.key) ?? {
      ref: employeeRefOf({ employee_key: m.employee.key, employee_external_id: m.employee.externalId }),
      label: base.employee ?? m.employee.key,
      days: new Map<string, AuditMark[]>(),
    };
    groups.set(m.employee.key, g);
    const day = m.minute.slice(0, 10);
    g.days.set(day, [...(g.days.get(day) ?? []), m]);
  }
  const requests = planRequests(groups.values(), Math.max(1, opts.maxDaysPerRequest ?? 31));
  const unexplained: Unexplained[] = [];
  let skippedRecords = 0;
  let done = 0;
  const sent = { n: 0 };
  let failuresInRow = 0;
  let stopWhy: string | null = null;
  opts.onProgress?.({ requestsDone: 0, requestsTotal: requests.length, marks: count });
  for (const req of requests) {
    const before = sent.n;
    const asked: Asked =
      stopWhy !== null ? { ok: false, reason: stopWhy, stop: true, failure: false } : await ask(deps, req, opts, sent);
    if (asked.ok) {
      failuresInRow = 0;
      skippedRecords += asked.reading.skipped;
      settle(req, asked.reading, results, unexplained);
    } else {
      if (asked.stop) stopWhy ??= asked.reason;
      failuresInRow = asked.failure ? failuresInRow + 1 : 0;
      if (failuresInRow >= (opts.maxFailuresInRow ?? 3))
        stopWhy ??= `not asked: ${failuresInRow} requests in a row failed (last: ${asked.reason})`;
      for (const m of req.days.flatMap((d) => req.group.days.get(d) ?? [])) {
        results.set(m.nsr, {
          nsr: m.nsr,
          employee: req.group.label,
          minute: m.minute,
          delivered: m.delivered,
          state: m.state,
          status: 'unchecked',
          reason: asked.reason,
        });
      }
    }
    if (sent.n > before) done++;
    opts.onProgress?.({ requestsDone: done, requestsTotal: requests.length, marks: count });
  }
  const list = [...results.values()].sort((a, b) => a.nsr - b.nsr);
  const n = (s: AuditMarkResult['status']) => list.filter((r) => r.status === s).length;
  return {
    from: opts.from,
    to: opts.to,
    startedAt,
    finishedAt: deps.clock.now(),
    marks: list,
    unexplained,
    counts: {
      marks: list.length,
      found: n('found'),
      missing: n('missing'),
      unchecked: n('unchecked'),
      unexplained: unexplained.length,
      missingDelivered: list.filter((r) => r.status === 'missing' && r.delivered === true).length,
      requests: sent.n,
    },
    skippedRecords,
    stopped: opts.signal?.aborted === true && done < requests.length,
  };
}

/**
 * One request through the budget (`sent` counts what went out); a 429 pauses everybody, as any caller's does, and is
 * asked again.
 */
async function ask(deps: AuditDeps, req: AuditRequest, opts: AuditOptions, sent: { n: number }): Promise<Asked> {
  const first = req.days[0] as string;
  const last = req.days[req.days.length - 1] as string;
  const range = { start: checkRange({ local_date: first }).start, end: checkRange({ local_date: last }).end };
  for (let limited = 0; ;) {
    const ticket = await deps.budget.acquire(Priority.audit, 'audit', {
      signal: opts.signal,
      standAside: deps.punchesDue,
    });
    if (!ticket)
      return { ok: false, reason: 'the comparison was stopped before this was asked', stop: true, failure: false };
    let res: ApiOutcome<TimesReading>;
    sent.n++;
    try {
      res = await deps.api.getTimes(req.group.ref, range.start, range.end);
    } finally {
      deps.budget.release(ticket);
    }
    const now = deps.clock.now();
    switch (res.kind) {
      case 'ok':
        return { ok: true, reading: res.value };
      case 'rate_limited':
        deps.budget.pauseUntil(
          now + rateLimitPause(res.retryAfterHeader, now, deps.windowMs(), res.serverDate),
          'retry_after',
        );
        if (++limited >= (opts.maxRateLimited ?? 3))
          return { ok: false, reason: `the service answered 429 ${limited} times`, stop: false, failure: true };
        continue;
      case 'auth':
        deps.budget.pauseUntil(now + deps.authRetryMs, 'auth');
        return { ok: false, reason: `the service refused the API token: ${res.reason}`, stop: true, failure: true };
      case 'refused':
      case 'forbidden':
        return { ok: false, reason: `the service would not answer: ${res.reason}`, stop: false, failure: false };
      case 'not_sent':
      case 'unknown':
      case 'server_error':
      case 'setup':
        return { ok: false, reason: `no answer to use: ${describeOutcome(res)}`, stop: false, failure: true };
    }
  }
}

/**
 * Matches the marks of the request's days with the records (sync/delivery/record-match.ts: the punch's wall
 * minute in its zone, by instant for a record with an offset), one record per mark (two marks of
 * one minute need two records); API records left over on those days are unexplained, shown at
 * their wall minute in the zone of the employee's first mark.
 */
function settle(
  req: AuditRequest,
  reading: TimesReading,
  results: Map<number, AuditMarkResult>,
  unexplained: Unexplained[],
): void {
  const days = new Set(req.days);
  const marksOf = (day: string) =>
    [...(req.group.days.get(day) ?? [])].sort(
      (a, b) => (a.minute as string).localeCompare(b.minute as string) || a.nsr - b.nsr,
    );
  const zone: WallZone = marksOf(req.days[0] as string)[0]?.where ?? { offsetMinutes: 0 };
  const free = reading.times
    .map((t) => ({ t, minute: recordWallMinute(t.time, zone) }))
    .filter((r) => days.has(r.minute.slice(0, 10)));
  const taken = new Set<TimeRecordRead>();
  for (const day of req.days) {
    for (const m of marksOf(day)) {
      const base = { nsr: m.nsr, employee: req.group.label, minute: m.minute, delivered: m.delivered, state: m.state };
      const sent = { minute: m.minute as string, where: m.where };
      // Every record of the answer, not only those of the day in the first mark's zone: this mark's own zone decides.
      const rec = reading.times.find((t) => !taken.has(t) && isRecordOf(t, sent));
      if (rec) {
        taken.add(rec);
        results.set(m.nsr, { ...base, status: 'found', recordId: rec.id, type: rec.type });
      } else if (reading.skipped > 0) {
        results.set(m.nsr, {
          ...base,
          status: 'unchecked',
          reason: `not among the records read, but ${reading.skipped} record(s) of the answer could not be read`,
        });
      } else {
        const other = reading.times.find((t) => !isApiRecord(t) && recordNamesMinute(t.time, sent.minute, sent.where));
        results.set(m.nsr, {
          ...base,
          status: 'missing',
          note: other ? `the service has a record of type '${other.type}' at that minute` : null,
        });
      }
    }
  }
  for (const { t, minute } of free) {
    if (taken.has(t) || !isApiRecord(t)) continue;
    unexplained.push({ employee: req.group.label, day: minute.slice(0, 10), minute, recordId: t.id, type: t.type });
  }
}
