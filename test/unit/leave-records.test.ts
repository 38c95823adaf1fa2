/** GET /work-leaves items read one by one: a leave that cannot be placed in time is skipped alone. */
import { describe, expect, it } from 'vitest';
import { hasNextPage, readLeave, readLeaveItems, type WorkLeavesReading } from '../../src/api/leave-records.js';

const LEAVE = {
  _id: 'b'.repeat(24),
  employee_id: 'a'.repeat(24),
  employee_external_id: '1033',
  type: 'ferias',
  start_date: '2026-11-20',
  end_date: '2026-12-05',
  approval_info: { approved: true, request_date: '2026-10-01T10:00:00-03:00', change_request: {} },
  _etag: 'x',
};

describe('readLeave', () => {
  it('reads a whole-day approved leave', () => {
    expect(readLeave(LEAVE)).toEqual({
      ok: true,
      leave: {
        id: 'b'.repeat(24),
        employeeId: 'a'.repeat(24),
        employeeExternalId: '1033',
        type: 'ferias',
        startDate: '2026-11-20',
        endDate: '2026-12-05',
        startTime: null,
        endTime: null,
        approved: true,
      },
    });
  });

  it('reads a partial leave with its times', () => {
    const r = readLeave({ ...LEAVE, type: 'abono', start_time: '08:00', end_time: '10:30' });
    expect(r.ok && [r.leave.startTime, r.leave.endTime]).toEqual(['08:00', '10:30']);
  });

  it('absent approval_info, or an absent or odd approved, is not yet defined (null), not refused', () => {
    const { approval_info: _a, ...noApproval } = LEAVE;
    for (const raw of [
      noApproval,
      { ...LEAVE, approval_info: {} },
      { ...LEAVE, approval_info: { approved: 'sim' } },
      { ...LEAVE, approval_info: null },
    ]) {
      const r = readLeave(raw);
      expect(r.ok && r.leave.approved).toBeNull();
    }
    const refused = readLeave({ ...LEAVE, approval_info: { approved: false } });
    expect(refused.ok && refused.leave.approved).toBe(false);
  });

  it('absent type and ids read as null', () => {
    const r = readLeave({ start_date: '2026-11-20', end_date: '2026-11-20' });
    expect(r).toEqual({
      ok: true,
      leave: {
        id: null,
        employeeId: null,
        employeeExternalId: null,
        type: null,
        startDate: '2026-11-20',
        endDate: '2026-11-20',
        startTime: null,
        endTime: null,
        approved: null,
      },
    });
  });

  it.each([
    ['no start_date', { ...LEAVE, start_date: undefined }, 'bad_dates'],
    ['a date in another shape', { ...LEAVE, end_date: '05/12/2026' }, 'bad_dates'],
    ['an end before its start', { ...LEAVE, end_date: '2026-11-19' }, 'bad_dates'],
    ['a start_time that is not HH:MM', { ...LEAVE, start_time: '8h', end_time: '10:00' }, 'bad_times'],
  ])('skips a leave with %s', (_what, raw, reason) => {
    expect(readLeave(raw)).toEqual({ ok: false, id: 'b'.repeat(24), reason });
  });

  it('one bad leave does not sink the others', () => {
    const into: Pick<WorkLeavesReading, 'leaves' | 'skipped'> = { leaves: [], skipped: [] };
    readLeaveItems(
      [LEAVE, 'nope', { ...LEAVE, _id: 'c'.repeat(24), start_date: 'x' }, { ...LEAVE, _id: 'd'.repeat(24) }],
      into,
    );
    expect(into.leaves.map((l) => l.id)).toEqual(['b'.repeat(24), 'd'.repeat(24)]);
    expect(into.skipped).toEqual([
      { id: null, reason: 'not_an_object' },
      { id: 'c'.repeat(24), reason: 'bad_dates' },
    ]);
  });
});

describe('hasNextPage', () => {
  it("goes by the server's _meta, not by what was asked", () => {
    expect(hasNextPage({ maxResults: 2, page: 1, total: 5 }, 1, 2, 2)).toBe(true);
    expect(hasNextPage({ maxResults: 2, page: 2, total: 5 }, 2, 2, 2)).toBe(true);
    expect(hasNextPage({ maxResults: 2, page: 3, total: 5 }, 3, 1, 2)).toBe(false);
    expect(hasNextPage({ maxResults: 100, page: 1, total: 0 }, 1, 0, 0)).toBe(false);
  });

  it('without _meta, stops at an empty page or one shorter than the first', () => {
    const none = { maxResults: null, page: null, total: null };
    expect(hasNextPage(none, 1, 3, 3)).toBe(true);
    expect(hasNextPage(none, 2, 1, 3)).toBe(false);
    expect(hasNextPage(none, 1, 0, 0)).toBe(false);
  });
});
