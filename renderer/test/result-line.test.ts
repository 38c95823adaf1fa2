import { describe, expect, it } from 'vitest';
import type { PunchDayView, PunchResultView } from '../../src/contract.js';
import { dayLine, formatWorked, workedMinutes } from '../src/result-line.js';
import { resultView } from '../src/result-view.js';

type P = PunchDayView['punches'][number];
const p = (time: string, direction: P['direction'], isNew = false): P => ({
  time,
  direction,
  fromService: false,
  isNew,
});
const day = (direction: PunchDayView['direction'], punches: P[]): PunchDayView => ({
  direction,
  punches,
  serviceAt: null,
  hoursBank: null,
  leave: null,
});
const ok = (d: PunchDayView, localTime: string): Extract<PunchResultView, { ok: true }> => ({
  ok: true,
  punchId: 9,
  employeeName: 'Ana Paula Ferreira',
  employeeExternalId: '1001',
  localDate: '2026-11-28',
  localTime,
  repeat: false,
  day: d,
});

describe('the second line of a registered punch: something new, never the time again', () => {
  it('an exit: the time worked today so far, every entry to its exit', () => {
    const d = day('exit', [p('07:00', 'entry'), p('12:02', 'exit'), p('13:01', 'entry'), p('19:42', 'exit', true)]);
    expect(workedMinutes(d.punches)).toBe(5 * 60 + 2 + 6 * 60 + 41);
    expect(dayLine(d, 'pt-BR')).toBe('Trabalhado hoje: 11h43');
    expect(dayLine(d, 'es')).toBe('Trabajado hoy: 11h43');
    expect(dayLine(d, 'en')).toBe('Worked today: 11h43');
    const v = resultView({ result: ok(d, '19:42'), queued: false }, 'pt-BR');
    expect(v.message).toBe('Trabalhado hoje: 11h43');
    expect(v.message).not.toContain('19:42');
  });

  it('a night shift across midnight counts the hours after it', () => {
    expect(workedMinutes([p('22:00', 'entry'), p('06:15', 'exit', true)])).toBe(8 * 60 + 15);
    expect(formatWorked(8 * 60 + 5)).toBe('8h05');
  });

  it('an entry: the punch before it, or that it is the first of the day', () => {
    const back = day('entry', [p('07:00', 'entry'), p('12:02', 'exit'), p('13:01', 'entry', true)]);
    expect(dayLine(back, 'pt-BR')).toBe('Registro anterior: saída às 12:02');
    expect(dayLine(back, 'es')).toBe('Registro anterior: salida a las 12:02');
    expect(dayLine(back, 'en')).toBe('Previous punch: exit at 12:02');
    const first = day('entry', [p('07:00', 'entry', true)]);
    expect(dayLine(first, 'pt-BR')).toBe('Primeiro registro do dia');
    expect(resultView({ result: ok(first, '07:00'), queued: false }, 'en').message).toBe('First punch of the day');
  });

  it('an exit with no entry before it today: the punch before it, not an invented worked time', () => {
    expect(dayLine(day('exit', [p('12:00', 'exit', true)]), 'en')).toBe('First punch of the day');
    expect(workedMinutes([p('12:00', 'exit', true)])).toBeNull();
  });

  it('kept offline: the line says so (that is what is new)', () => {
    const d = day('exit', [p('07:00', 'entry'), p('16:00', 'exit', true)]);
    expect(resultView({ result: ok(d, '16:00'), queued: true }, 'pt-BR').message).toBe(
      'Salvo — será enviado quando a conexão voltar.',
    );
  });
});
