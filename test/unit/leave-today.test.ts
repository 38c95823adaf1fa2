/** The screen's "on leave today" note: approved whole-day leaves only. */
import { describe, expect, it } from 'vitest';
import { wholeDayLeaveOn, type LeaveFacts } from '../../src/domain/time/leave-today.js';

const leave = (over: Partial<LeaveFacts> = {}): LeaveFacts => ({
  type: 'ferias',
  startDate: '2026-11-20',
  endDate: '2026-12-05',
  startTime: null,
  endTime: null,
  approved: true,
  ...over,
});

describe('wholeDayLeaveOn', () => {
  it('finds an approved vacation on its first, a middle and its last day, not the days around', () => {
    for (const d of ['2026-11-20', '2026-11-24', '2026-12-05'])
      expect(wholeDayLeaveOn([leave()], d)).toEqual({ kind: 'vacation', type: 'ferias' });
    for (const d of ['2026-11-19', '2026-12-06']) expect(wholeDayLeaveOn([leave()], d)).toBeNull();
  });

  it('reads Férias / FERIAS as vacation and other types as such', () => {
    expect(wholeDayLeaveOn([leave({ type: 'Férias' })], '2026-11-24')?.kind).toBe('vacation');
    expect(wholeDayLeaveOn([leave({ type: ' FERIAS ' })], '2026-11-24')?.kind).toBe('vacation');
    expect(wholeDayLeaveOn([leave({ type: 'atestado' })], '2026-11-24')).toEqual({ kind: 'other', type: 'atestado' });
    expect(wholeDayLeaveOn([leave({ type: null })], '2026-11-24')).toEqual({ kind: 'other', type: null });
  });

  it('ignores partial leaves', () => {
    expect(wholeDayLeaveOn([leave({ type: 'abono', startTime: '08:00', endTime: '10:00' })], '2026-11-24')).toBeNull();
    expect(wholeDayLeaveOn([leave({ endTime: '10:00' })], '2026-11-24')).toBeNull();
  });

  it('ignores leaves refused or whose approval is not defined', () => {
    expect(wholeDayLeaveOn([leave({ approved: false })], '2026-11-24')).toBeNull();
    expect(wholeDayLeaveOn([leave({ approved: null })], '2026-11-24')).toBeNull();
  });

  it('prefers a vacation when several leaves cover the day, else the first', () => {
    expect(wholeDayLeaveOn([leave({ type: 'atestado' }), leave({ type: 'ferias' })], '2026-11-24')).toEqual({
      kind: 'vacation',
      type: 'ferias',
    });
    expect(wholeDayLeaveOn([leave({ type: 'atestado' }), leave({ type: 'folga' })], '2026-11-24')).toEqual({
      kind: 'other',
      type: 'atestado',
    });
    expect(wholeDayLeaveOn([leave({ approved: false }), leave({ type: 'folga' })], '2026-11-24')).toEqual({
      kind: 'other',
      type: 'folga',
    });
  });

  it('a leave with unreadable dates covers nothing; a bad date asked is a programming error', () => {
    expect(wholeDayLeaveOn([leave({ startDate: 'soon' })], '2026-11-24')).toBeNull();
    expect(() => wholeDayLeaveOn([leave()], '24/11/2026')).toThrow(RangeError);
  });
});
