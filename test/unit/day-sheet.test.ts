import { describe, expect, it } from 'vitest';
import { daySheet, type WallPunch } from '../../src/domain/time/day-sheet.js';

const at = (date: string, time: string): WallPunch => ({ date, time });
const D = '2026-11-24';
const summary = (s: ReturnType<typeof daySheet>) =>
  s.punches.map(
    (p) => `${p.time}${p.direction === 'entry' ? 'E' : 'S'}${p.fromService ? '*' : ''}${p.isNew ? '!' : ''}`,
  );

describe('the day sheet of a punch', () => {
  it('the first punch of the day is an entry, the next an exit, then entry and exit again after lunch', () => {
    expect(daySheet(at(D, '08:01'), [], []).direction).toBe('entry');
    expect(daySheet(at(D, '12:00'), [at(D, '08:01')], []).direction).toBe('exit');
    const s = daySheet(at(D, '17:02'), [at(D, '08:01'), at(D, '12:00'), at(D, '13:00')], []);
    expect(s.direction).toBe('exit');
    expect(summary(s)).toEqual(['08:01E', '12:00S', '13:00E', '17:02S!']);
  });

  it('says entry again after a gap longer than a shift: yesterday’s forgotten exit does not make this morning an exit', () => {
    const s = daySheet(at(D, '07:55'), [at('2026-11-23', '08:00')], []);
    expect(s.direction).toBe('entry');
    expect(summary(s)).toEqual(['07:55E!']);
    // The same gap inside one day: a punch 17 h after an entry starts again with an entry.
    expect(daySheet(at(D, '23:10'), [at(D, '06:00')], []).direction).toBe('entry');
  });

  it('a night shift that began yesterday ends with an exit this morning', () => {
    const s = daySheet(at(D, '06:03'), [at('2026-11-23', '22:00')], []);
    expect(s.direction).toBe('exit');
    expect(summary(s)).toEqual(['06:03S!']);
  });

  it('fills in the service’s records (another terminal, the app) and counts a record of the same minute once', () => {
    const s = daySheet(at(D, '13:01'), [at(D, '08:00')], [at(D, '08:00'), at(D, '12:02'), at('2026-11-20', '08:00')]);
    expect(summary(s)).toEqual(['08:00E', '12:02S*', '13:01E!']);
    expect(s.direction).toBe('entry');
  });

  it('ignores records it cannot read and lists a punch with seconds at its minute', () => {
    const s = daySheet(at(D, '12:00:41'), [at(D, '08:00:12')], [at('not a date', '10:00'), at(D, 'noon')]);
    expect(summary(s)).toEqual(['08:00E', '12:00S!']);
  });

  it('a repeat of the same minute is the same punch, not a second one', () => {
    const s = daySheet(at(D, '08:00'), [at(D, '08:00')], []);
    expect(summary(s)).toEqual(['08:00E!']);
  });
});
