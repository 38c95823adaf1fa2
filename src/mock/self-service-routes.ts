/**
 * GET /timesheets and GET /work-leaves, for the employee's own screen. The timesheet is computed
 * from the stored time records (the day's `horarios`, a worked `total` from in/out pairs) and the
 * balance the mock keeps per employee; it does no other hour accounting. api-routes.ts dispatches
 * here and pages the leaves like every other list.
 */
import { localDatePattern, type ApiDialect } from '../api/shapes.js';
import { errorReply, type Reply } from './reply.js';
import type { MockEmployee } from './seed.js';
import type { MockLeave } from './self-service-state.js';
import type { MockState } from './state.js';
import { padText, type ServerVariants } from './variants.js';

type TimesheetNames = ApiDialect['timesheetQuery'];

/** The parameter names of the `timesheetQuery` variant. */
export const TIMESHEET_QUERY_NAMES: Record<NonNullable<ServerVariants['timesheetQuery']>, TimesheetNames> = {
  'employee-from-to': { employeeExternalId: 'employee', employeeId: 'employee', startDate: 'from', endDate: 'to' },
  'data-inicio-fim': {
    employeeExternalId: 'employee_external_id',
    employeeId: 'employee_id',
    startDate: 'data_inicio',
    endDate: 'data_fim',
  },
};

/** A timesheet is a pay period, not a history: longer asks are refused. */
export const MAX_TIMESHEET_DAYS = 366;
/** The `status` filter values of GET /work-leaves ('aprovado' is the spec's; the others are the mock's). */
export const LEAVE_STATUSES = ['aprovado', 'reprovado', 'pendente'] as const;

const DAY_MS = 86_400_000;

/** YYYY-MM-DD that the calendar has (2026-02-30 is refused). */
function calendarDate(s: string | null): s is string {
  return s !== null && localDatePattern.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
}

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Minutes as the spec's centesimal hours with two decimals (495 → "8.25"). */
function centesimal(minutes: number): string {
  return (minutes / 60).toFixed(2);
}

/** Worked minutes of a sorted day: first to second punch, third to fourth…; an odd last one counts nothing yet. */
function workedMinutes(horarios: string[]): number {
  const m = horarios.map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5)));
  let sum = 0;
  for (let i = 0; i + 1 < m.length; i += 2) sum += (m[i + 1] as number) - (m[i] as number);
  return sum;
}

/** The `timesheetMalformedDays` rewrite (see variants.ts). */
function malformDays(days: Record<string, unknown>): void {
  Object.keys(days).forEach((date, i) => {
    const day = days[date] as { horarios: string[] };
    if (i % 4 === 1) days[date] = null;
    else if (i % 4 === 2) days[date] = { ...day, horarios: day.horarios.join(' ') || '08:00' };
    else if (i % 4 === 3) days[date] = { ...day, horarios: [...day.horarios, '25:99'] };
  });
  days['not-a-date'] = { horarios: ['08:00'], total: '0.00' };
}

function findEmployee(
  state: MockState,
  names: TimesheetNames,
  params: URLSearchParams,
): { emp: MockEmployee | undefined; asked: string } {
  const ext = params.get(names.employeeExternalId);
  if (names.employeeId === names.employeeExternalId) {
    // One parameter for both: an `_id` or an external id.
    const key = ext ?? '';
    return { emp: state.employeesById.get(key) ?? state.byExternal(key), asked: `${names.employeeId} '${key}'` };
  }
  if (ext !== null) return { emp: state.byExternal(ext), asked: `${names.employeeExternalId} '${ext}'` };
  const id = params.get(names.employeeId) ?? '';
  return { emp: state.employeesById.get(id), asked: `${names.employeeId} '${id}'` };
}

export function getTimesheet(state: MockState, params: URLSearchParams): Reply {
  const v = state.variants ?? {};
  const names = v.timesheetQuery ? TIMESHEET_QUERY_NAMES[v.timesheetQuery] : state.dialect.timesheetQuery;
  const issues: Record<string, string> = {};
  const known = new Set(Object.values(names));
  for (const key of params.keys()) if (!known.has(key)) issues[key] = 'unknown parameter';
  const single = names.employeeId === names.employeeExternalId;
  const hasExt = params.get(names.employeeExternalId) !== null;
  const hasId = !single && params.get(names.employeeId) !== null;
  if (hasExt === hasId)
    issues[names.employeeExternalId] = single
      ? 'required'
      : `exactly one of ${names.employeeExternalId} and ${names.employeeId} is required`;
  const start = params.get(names.startDate);
  const end = params.get(names.endDate);
  if (!calendarDate(start)) issues[names.startDate] = 'required, YYYY-MM-DD';
  if (!calendarDate(end)) issues[names.endDate] = 'required, YYYY-MM-DD';
  else if (calendarDate(start) && (start > end || Date.parse(end) - Date.parse(start) >= MAX_TIMESHEET_DAYS * DAY_MS)) {
    issues[names.endDate] = `must be from ${names.startDate} to at most ${MAX_TIMESHEET_DAYS} days later`;
  }
  if (Object.keys(issues).length > 0 || !calendarDate(start) || !calendarDate(end))
    return errorReply(400, 'invalid query', issues);

  const { emp, asked } = findEmployee(state, names, params);
  if (!emp) return errorReply(404, `no employee with ${asked}`);
  const byDay = new Map<string, string[]>();
  for (const r of state.records) {
    const date = r.time.slice(0, 10);
    if (r.employee_id !== emp._id || date < start || date > end) continue;
    const list = byDay.get(date) ?? [];
    list.push(r.time.slice(11, 16));
    byDay.set(date, list);
  }
  const days: Record<string, unknown> = {};
  let total = 0;
  for (let d = start; d <= end; d = addDays(d, 1)) {
    const horarios = (byDay.get(d) ?? []).sort();
    const worked = workedMinutes(horarios);
    total += worked;
    days[d] = { horarios, total: centesimal(worked) };
  }
  if (v.timesheetMalformedDays) malformDays(days);
  const balance = state.selfService.balanceOf(emp._id);
  const body: Record<string, unknown> = {
    employee_id: emp._id,
    period: { start_date: start, end_date: end },
    totals: { total: centesimal(total) },
    hours_bank_summary: {
      previous_balance: balance,
      generated_balance: '0.00',
      created_balance: '0.00',
      final_balance: balance,
      period: { type: 'cyclic', start_date: start, end_date: end },
    },
    days,
  };
  if (v.timesheetWithoutHoursBank) delete body.hours_bank_summary;
  return { status: 200, body };
}

export type LeaveSelection =
  | { ok: true; items: MockLeave[]; extra: Record<string, string>; toWire: (l: MockLeave) => unknown }
  | { ok: false; reply: Reply };

/**
 * The filters of GET /work-leaves (spec: employee, "all leaves that contain dates between" the dates, type, status).
 */
export function selectWorkLeaves(state: MockState, params: URLSearchParams): LeaveSelection {
  const issues: Record<string, string> = {};
  const extra: Record<string, string> = {};
  for (const key of ['employee_id', 'employee_external_id', 'start_date', 'end_date', 'type', 'status']) {
    const value = params.get(key);
    if (value !== null) extra[key] = value;
  }
  const { employee_id: id, employee_external_id: ext, start_date: start, end_date: end, type, status } = extra;
  if (id !== undefined && ext !== undefined) issues.employee_id = 'mutually exclusive with employee_external_id';
  if (start !== undefined && !calendarDate(start)) issues.start_date = 'must be YYYY-MM-DD';
  if (end !== undefined && !calendarDate(end)) issues.end_date = 'must be YYYY-MM-DD';
  else if (start !== undefined && end !== undefined && calendarDate(start) && start > end)
    issues.end_date = 'must not be before start_date';
  if (status !== undefined && !(LEAVE_STATUSES as readonly string[]).includes(status))
    issues.status = `one of ${LEAVE_STATUSES.join(', ')}`;
  if (Object.keys(issues).length > 0) return { ok: false, reply: errorReply(400, 'invalid query', issues) };

  // An unknown employee selects nobody, like any other list filter.
  const empId = id ?? (ext !== undefined ? (state.byExternal(ext)?._id ?? null) : undefined);
  const items = state.selfService.leaves
    .filter(
      (l) =>
        (empId === undefined || l.employee_id === empId) &&
        (start === undefined || l.end_date >= start) &&
        (end === undefined || l.start_date <= end) &&
        (type === undefined || l.type === type) &&
        (status === undefined ||
          (status === 'pendente'
            ? l.approval_info === undefined
            : l.approval_info?.approved === (status === 'aprovado'))),
    )
    .sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a._id < b._id ? -1 : 1));
  const omitApproval = state.variants?.leavesWithoutApproval === true;
  const long = state.variants?.longStrings;
  const toWire = (stored: MockLeave): unknown => {
    const l = long === undefined ? stored : { ...stored, type: padText(stored.type, long) };
    if (!omitApproval) return l;
    const { approval_info: _approval, ...rest } = l;
    return rest;
  };
  return { ok: true, items, extra, toWire };
}
