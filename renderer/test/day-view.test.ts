import { describe, expect, it } from 'vitest';
import type { PunchDayView, PunchResultView } from '../../src/contract.js';
import { dayHeadline, dayOfResult, dayView, formatBalance } from '../src/day-view.js';
import { resultView } from '../src/result-view.js';

const TZ = 'America/Sao_Paulo';
/** 2026-11-24 10:05 in São Paulo (UTC−3). */
const AT = Date.UTC(2026, 10, 24, 13, 5);

const day = (over: Partial<PunchDayView> = {}): PunchDayView => ({
  direction: 'entry',
  punches: [
    { time: '07:00', direction: 'entry', fromService: true, isNew: false },
    { time: '12:02', direction: 'exit', fromService: false, isNew: false },
    { time: '13:01', direction: 'entry', fromService: false, isNew: true },
  ],
  serviceAt: AT,
  hoursBank: { minutes: 750, at: AT },
  leave: null,
  ...over,
});

const ok = (over: Partial<Extract<PunchResultView, { ok: true }>> = {}): Extract<PunchResultView, { ok: true }> => ({
  ok: true,
  punchId: 7,
  employeeName: 'Ana Paula Ferreira',
  employeeExternalId: '1001',
  localDate: '2026-11-24',
  localTime: '13:01',
  repeat: false,
  day: day(),
  ...over,
});

describe('the employee’s day in words', () => {
  it('signs the hours bank: +12h30, −3h15 with a true minus, 0h00', () => {
    expect(formatBalance(750)).toBe('+12h30');
    expect(formatBalance(-195)).toBe('−3h15');
    expect(formatBalance(0)).toBe('0h00');
    expect(formatBalance(5)).toBe('+0h05');
    expect(formatBalance(-60)).toBe('−1h00');
  });

  it('pt-BR: headline, chips in order with the new one and the service’s marked, bank with when it was read', () => {
    const v = dayView(day(), 'pt-BR', TZ);
    expect(v.headline).toBe('Entrada registrada');
    expect(v.chips.map((c) => `${c.time} ${c.mark}`).join(' · ')).toBe('07:00 E · 12:02 S · 13:01 E');
    expect(v.chips.map((c) => c.isNew)).toEqual([false, false, true]);
    expect(v.chips[0]?.label).toBe('07:00 entrada, registrado em outro lugar');
    expect(v.chips[1]?.label).toBe('12:02 saída');
    expect(v.legend).toBe('registrado em outro lugar');
    expect(v.punchesLabel).toBe('Registros de hoje');
    expect(v.bank).toBe('Banco de horas: +12h30 (atualizado em 24/11 às 10:05)');
    expect(v.leave).toBeNull();
  });

  it('es and en: the same day in their words', () => {
    const es = dayView(day({ direction: 'exit' }), 'es', TZ);
    expect(es.headline).toBe('Salida registrada');
    expect(es.bank).toBe('Banco de horas: +12h30 (actualizado el 24/11 a las 10:05)');
    expect(es.chips[1]?.mark).toBe('S');
    expect(es.legend).toBe('registrado en otro lugar');
    const en = dayView(day(), 'en', TZ);
    expect(en.headline).toBe('Entry registered');
    expect(dayView(day({ direction: 'exit' }), 'en', TZ).headline).toBe('Exit registered');
    expect(en.chips.map((c) => `${c.time} ${c.mark}`).join(' · ')).toBe('07:00 In · 12:02 Out · 13:01 In');
    // English puts the month first, as its receipt and admin dates do (one order per language).
    expect(en.bank).toBe('Hours bank: +12h30 (updated 11/24 at 10:05)');
    expect(en.chips[0]?.label).toBe('07:00 entry, registered elsewhere');
  });

  it('negative and zero balances; no bank and no legend when unknown or none from the service', () => {
    expect(dayView(day({ hoursBank: { minutes: -195, at: AT } }), 'pt-BR', TZ).bank).toBe(
      'Banco de horas: −3h15 (atualizado em 24/11 às 10:05)',
    );
    expect(dayView(day({ hoursBank: { minutes: 0, at: AT } }), 'en', TZ).bank).toBe(
      'Hours bank: 0h00 (updated 11/24 at 10:05)',
    );
    const bare = dayView(
      day({
        hoursBank: null,
        serviceAt: null,
        punches: [{ time: '08:00', direction: 'entry', fromService: false, isNew: true }],
      }),
      'es',
      TZ,
    );
    expect(bare.bank).toBeNull();
    expect(bare.legend).toBeNull();
    expect(bare.chips).toHaveLength(1);
  });

  it('a leave today is a neutral note in the three languages: vacation, another leave with and without its type', () => {
    const vacation = day({ leave: { kind: 'vacation', type: 'ferias' } });
    expect(dayView(vacation, 'pt-BR', TZ).leave).toBe('Você está de férias hoje; o registro foi feito.');
    expect(dayView(vacation, 'es', TZ).leave).toBe('Hoy está de vacaciones; el registro se realizó.');
    expect(dayView(vacation, 'en', TZ).leave).toBe('You are on vacation today; the punch was registered.');
    const other = day({ leave: { kind: 'other', type: 'licença médica' } });
    expect(dayView(other, 'pt-BR', TZ).leave).toBe(
      'Você tem um afastamento hoje (licença médica); o registro foi feito.',
    );
    expect(dayView(other, 'es', TZ).leave).toBe('Hoy tiene una ausencia (licença médica); el registro se realizó.');
    expect(dayView(other, 'en', TZ).leave).toBe(
      'You have a leave of absence today (licença médica); the punch was registered.',
    );
    expect(dayView(day({ leave: { kind: 'other', type: null } }), 'pt-BR', TZ).leave).toBe(
      'Você tem um afastamento hoje; o registro foi feito.',
    );
  });

  it('the result’s headline says entry or exit for an ordinary punch with a day, and nothing changes without one', () => {
    expect(resultView({ result: ok(), queued: false }, 'pt-BR').headline).toBe('Entrada registrada');
    expect(resultView({ result: ok({ day: day({ direction: 'exit' }) }), queued: false }, 'es').headline).toBe(
      'Salida registrada',
    );
    expect(resultView({ result: ok({ day: day({ direction: 'exit' }) }), queued: true }, 'en')).toMatchObject({
      headline: 'Exit registered',
      tone: 'ok',
    });
    const { day: _none, ...noDay } = ok();
    expect(resultView({ result: noDay, queued: false }, 'pt-BR').headline).toBe('Ponto registrado');
    expect(dayOfResult(noDay)).toBeNull();
  });

  it('repeat, held, awaiting-roster, unknown-code and refused results stay as they were (no day shown)', () => {
    expect(resultView({ result: ok({ repeat: true }), queued: false }, 'pt-BR').headline).toBe('Já registrado');
    expect(dayOfResult(ok({ repeat: true }))).toBeNull();
    for (const note of ['awaiting_roster', 'unknown_code', 'held_not_allowed', 'held_pin_unverified'] as const) {
      expect(dayOfResult(ok({ note })), note).toBeNull();
      expect(dayHeadline(ok({ note }), 'en'), note).toBeNull();
    }
    expect(resultView({ result: ok({ note: 'held_not_allowed' }), queued: false }, 'pt-BR').headline).toBe(
      'Ponto registrado',
    );
    expect(dayOfResult({ ok: false, reason: 'unknown_credential' })).toBeNull();
    expect(dayOfResult(null)).toBeNull();
  });
});
