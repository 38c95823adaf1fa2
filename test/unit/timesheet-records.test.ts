/** GET /timesheets read record by record: absent members are "not yet defined", odd ones are skipped alone. */
import { describe, expect, it } from 'vitest';
import { centesimalToMinutes, horariosOn, readTimesheet } from '../../src/api/timesheet-records.js';

const FULL = {
  employee_id: 'a'.repeat(24),
  period: { start_date: '2026-11-01', end_date: '2026-11-30' },
  totals: { total: '16.50' },
  hours_bank_summary: {
    previous_balance: '1.00',
    generated_balance: '-4.25',
    created_balance: '0.00',
    final_balance: '-3.25',
    period: { type: 'cyclic', start_date: '2026-06-01', end_date: '2026-11-30' },
  },
  days: {
    '2026-11-24': { horarios: ['13:00', '08:02', '17:31', '12:00'], total: '8.48', horas_normais: '8.00' },
    '2026-11-23': { horarios: ['08:00'], total: '0.00' },
  },
};

describe('centesimal hours to minutes', () => {
  it.each([
    ['-3.25', -195],
    ['3.25', 195],
    ['+3.25', 195],
    ['12.50', 750],
    ['0.00', 0],
    ['-0.00', 0],
    ['8', 480],
    ['0.01', 1], // 0.6 min rounds up
    ['-0.01', -1], // and its opposite alike
    ['0.008', 0], // 0.48 min rounds down
    ['1.125', 68], // 67.5 min rounds away from zero
    ['-1.125', -68],
    [' 2.50 ', 150],
  ])('%s → %d min', (text, minutes) => {
    expect(centesimalToMinutes(text)).toBe(minutes);
  });

  it.each(['', 'abc', '3,25', '3.', '.5', '--1', '1e3', '3:15'])('%j is not a number of hours', (text) => {
    expect(centesimalToMinutes(text)).toBeNull();
  });
});

describe('readTimesheet', () => {
  it("reads the balance in minutes, the periods and each day's punches in order", () => {
    const r = readTimesheet(FULL);
    expect(r.employeeId).toBe('a'.repeat(24));
    expect(r.period).toEqual({ startDate: '2026-11-01', endDate: '2026-11-30' });
    expect(r.hoursBank).toEqual({
      finalBalanceMinutes: -195,
      finalBalanceText: '-3.25',
      period: { type: 'cyclic', startDate: '2026-06-01', endDate: '2026-11-30' },
    });
    expect(r.days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24']);
    expect(horariosOn(r, '2026-11-24')).toEqual(['08:02', '12:00', '13:00', '17:31']);
    expect(horariosOn(r, '2026-11-25')).toEqual([]);
    expect(r.skipped).toEqual([]);
  });

  it('reads every absent member as not defined, never as an error', () => {
    expect(readTimesheet({})).toEqual({ employeeId: null, period: null, hoursBank: null, days: [], skipped: [] });
    const r = readTimesheet({ hours_bank_summary: {}, days: { '2026-11-24': {} } });
    expect(r.hoursBank).toEqual({ finalBalanceMinutes: null, finalBalanceText: null, period: null });
    expect(r.days).toEqual([{ date: '2026-11-24', horarios: [] }]);
    expect(r.skipped).toEqual([]);
  });

  it('skips each malformed day or value with its reason and keeps the rest', () => {
    const r = readTimesheet({
      ...FULL,
      days: {
        '2026-11-20': { horarios: ['08:00', '25:99', 7, '17:00'] },
        '2026-11-21': null,
        '2026-11-22': { horarios: '08:00 17:00' },
        'not-a-date': { horarios: ['08:00'] },
        '2026-11-23': { horarios: ['09:00'] },
      },
    });
    expect(r.days).toEqual([
      { date: '2026-11-20', horarios: ['08:00', '17:00'] },
      { date: '2026-11-23', horarios: ['09:00'] },
    ]);
    expect(r.skipped).toEqual([
      { at: 'days.2026-11-20.horarios[1]', reason: 'bad_time' },
      { at: 'days.2026-11-20.horarios[2]', reason: 'bad_time' },
      { at: 'days.2026-11-21', reason: 'day_not_an_object' },
      { at: 'days.2026-11-22.horarios', reason: 'bad_horarios' },
      { at: 'days.not-a-date', reason: 'bad_day_key' },
    ]);
    expect(r.hoursBank?.finalBalanceMinutes).toBe(-195);
  });

  it('an unreadable balance is null with a reason; the days are still read', () => {
    const r = readTimesheet({ ...FULL, hours_bank_summary: { final_balance: '3h15' } });
    expect(r.hoursBank?.finalBalanceMinutes).toBeNull();
    expect(r.hoursBank?.finalBalanceText).toBe('3h15');
    expect(r.skipped).toEqual([{ at: 'hours_bank_summary.final_balance', reason: 'bad_balance' }]);
    expect(r.days).toHaveLength(2);
    expect(readTimesheet({ hours_bank_summary: { final_balance: -1.5 } }).hoursBank?.finalBalanceMinutes).toBe(-90);
    expect(readTimesheet({ hours_bank_summary: { final_balance: { v: 1 } } }).skipped).toEqual([
      { at: 'hours_bank_summary.final_balance', reason: 'bad_balance' },
    ]);
  });

  it('members of the wrong kind are skipped as bad members', () => {
    const r = readTimesheet({
      hours_bank_summary: 'n/a',
      days: [],
      period: { start_date: '1/11/2026', end_date: '2026-11-30' },
    });
    expect(r.hoursBank).toBeNull();
    expect(r.days).toEqual([]);
    expect(r.period).toEqual({ startDate: null, endDate: '2026-11-30' });
    expect(r.skipped.map((s) => s.at)).toEqual(['period.start_date', 'hours_bank_summary', 'days']);
  });

  it.each([null, [], 'timesheet', 3])('an answer that is not an object (%j) is refused whole', (raw) => {
    expect(() => readTimesheet(raw)).toThrow(/not a JSON object/);
  });
});
