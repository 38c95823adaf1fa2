/**
 * What the mock remembers for the employee's own screen: work leaves and each employee's
 * hours-bank balance (the mock does no hour accounting: the balance is whatever was seeded or set).
 */
import { objectIdFor, type MockEmployee } from './seed.js';
import { balanceSchema, DEFAULT_FINAL_BALANCE, leaveInputSchema, type LeaveInput } from './self-service-input.js';

export { balanceSchema, DEFAULT_FINAL_BALANCE, leaveInputSchema, type LeaveInput } from './self-service-input.js';

/** A stored leave, in its read shape. */
export type MockLeave = {
  _id: string;
  _created: string;
  _updated: string;
  _etag: string;
  employee_id: string;
  employee_external_id?: string;
  type: string;
  start_date: string;
  end_date: string;
  start_time?: string;
  end_time?: string;
  approval_info?: { approved: boolean; request_date: string };
};

function stamp(ms: number, seconds: boolean): string {
  return `${new Date(ms).toISOString().slice(0, seconds ? 19 : 16)}+00:00`;
}

export class SelfServiceState {
  readonly leaves: MockLeave[] = [];
  private readonly balances = new Map<string, string>();
  private leaveSeq = 0;

  constructor(
    /** An employee by `_id` or external id (inactive ones included). */
    private readonly find: (key: string) => MockEmployee | undefined,
    private readonly now: () => number,
  ) {}

  /** Adds a leave; null when no employee has that `_id` or external id. */
  addLeave(input: LeaveInput): MockLeave | null {
    const l = leaveInputSchema.parse(input);
    const e = this.find(l.employee);
    if (!e) return null;
    const at = this.now();
    const n = ++this.leaveSeq;
    const leave: MockLeave = {
      _id: objectIdFor('work_leave', n),
      _created: stamp(at, false),
      _updated: stamp(at, false),
      _etag: objectIdFor('work_leave_etag', n),
      employee_id: e._id,
      type: l.type,
      start_date: l.start_date,
      end_date: l.end_date,
    };
    if (e.external_id !== undefined) leave.employee_external_id = e.external_id;
    if (l.start_time !== undefined && l.end_time !== undefined)
      Object.assign(leave, { start_time: l.start_time, end_time: l.end_time });
    if (l.approved !== undefined) leave.approval_info = { approved: l.approved, request_date: stamp(at, true) };
    this.leaves.push(leave);
    return leave;
  }

  deleteLeave(id: string): boolean {
    const i = this.leaves.findIndex((l) => l._id === id);
    if (i < 0) return false;
    this.leaves.splice(i, 1);
    return true;
  }

  /** Sets (or with undefined, resets to the default) an employee's `final_balance`; false for an unknown employee. */
  setBalance(key: string, value: string | undefined): boolean {
    const e = this.find(key);
    if (!e) return false;
    if (value === undefined) this.balances.delete(e._id);
    else this.balances.set(e._id, balanceSchema.parse(value));
    return true;
  }

  balanceOf(employeeId: string): string {
    return this.balances.get(employeeId) ?? DEFAULT_FINAL_BALANCE;
  }
}
