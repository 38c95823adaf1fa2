/**
 * Whether the employee is away for the whole of a local date, for the note on their screen. Only a
 * whole-day leave (spec rule 4: no start_time) that is approved counts: a partial leave still
 * expects punches that day, and a leave not yet approved (or whose approval is not defined) may
 * never happen. Pure: the leaves (as src/api/leave-records.ts reads them) and the date are given.
 */

/** What this needs of a leave. */
export type LeaveFacts = {
  type: string | null;
  startDate: string;
  endDate: string;
  startTime: string | null;
  endTime?: string | null;
  approved: boolean | null;
};

/** 'vacation': the type is 'ferias' (any case or accents); 'other': its type as sent (null: not defined). */
export type LeaveToday = { kind: 'vacation'; type: string } | { kind: 'other'; type: string | null };

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** 'Férias', ' FERIAS ' and 'ferias' alike. */
function isVacation(type: string | null): boolean {
  return type !== null && type.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase() === 'ferias';
}

/** Does `leave` keep the employee away for the whole of `date`? */
function coversWholeDay(leave: LeaveFacts, date: string): boolean {
  if (leave.approved !== true) return false;
  if (leave.startTime !== null || (leave.endTime ?? null) !== null) return false;
  // YYYY-MM-DD compares as text; a leave with unreadable dates covers nothing.
  if (!DATE.test(leave.startDate) || !DATE.test(leave.endDate)) return false;
  return leave.startDate <= date && date <= leave.endDate;
}

/**
 * The approved whole-day leave covering `date` (YYYY-MM-DD, the employee's local date), or null.
 * When several do, a vacation wins (the note the employee expects), else the first given.
 */
export function wholeDayLeaveOn(leaves: readonly LeaveFacts[], date: string): LeaveToday | null {
  if (!DATE.test(date)) throw new RangeError(`wholeDayLeaveOn: date must be YYYY-MM-DD, got '${date}'`);
  const covering = leaves.filter((l) => coversWholeDay(l, date));
  const vacation = covering.find((l) => isVacation(l.type));
  if (vacation) return { kind: 'vacation', type: vacation.type as string };
  const first = covering[0];
  return first ? { kind: 'other', type: first.type } : null;
}
