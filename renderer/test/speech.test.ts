import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { resultView } from '../src/result-view.js';
import { announcementText, speak, SPEECH_LANG, speechText } from '../src/speech.js';

const ok = (direction: 'entry' | 'exit', name: string | null = 'Ana Paula Ferreira'): PunchResultView => ({
  ok: true,
  punchId: 1,
  employeeName: name,
  employeeExternalId: '1001',
  localDate: '2026-11-24',
  localTime: '13:01',
  repeat: false,
  day: {
    direction,
    punches: [{ time: '13:01', direction, fromService: false, isNew: true }],
    serviceAt: null,
    hoursBank: null,
    leave: null,
  },
});

describe('what the result says aloud', () => {
  it('the first name and "entry registered" / "exit registered" in the screen’s language', () => {
    expect(speechText(resultView({ result: ok('entry'), queued: false }, 'pt-BR'), 'pt-BR')).toBe(
      'Ana, entrada registrada',
    );
    expect(speechText(resultView({ result: ok('exit'), queued: false }, 'pt-BR'), 'pt-BR')).toBe(
      'Ana, saída registrada',
    );
    expect(speechText(resultView({ result: ok('exit'), queued: false }, 'es'), 'es')).toBe('Ana, salida registrada');
    expect(speechText(resultView({ result: ok('entry'), queued: false }, 'en'), 'en')).toBe('Ana, entry registered');
  });

  it('a refusal: its headline; a punch without a name: the headline alone', () => {
    const refused = resultView({ result: { ok: false, reason: 'unknown_credential' }, queued: false }, 'pt-BR');
    expect(speechText(refused, 'pt-BR')).toBe('Ponto NÃO registrado');
    expect(speechText(resultView({ result: { ok: false, reason: 'pin_wrong' }, queued: false }, 'en'), 'en')).toBe(
      'Punch NOT registered',
    );
    const nameless = resultView({ result: ok('entry', null), queued: false }, 'es');
    expect(speechText(nameless, 'es')).toBe(nameless.headline);
  });

  it('the voice’s language for each screen language', () => {
    expect(SPEECH_LANG).toEqual({ 'pt-BR': 'pt-BR', es: 'es', en: 'en-US' });
  });

  it('announces headline, name, time and message, leaving out empty lines', () => {
    const v = resultView({ result: ok('entry'), queued: false }, 'pt-BR');
    expect(announcementText(v, ['Banco de horas: +12h30 (em 24/11 10:05)', null])).toBe(
      'Entrada registrada. Ana Paula Ferreira. 13:01. Primeiro registro do dia. Banco de horas: +12h30 (em 24/11 10:05).',
    );
    const refused = resultView({ result: { ok: false, reason: 'unknown_credential' }, queued: false }, 'en');
    expect(announcementText(refused)).toBe(`Punch NOT registered. ${refused.message}`.replace(/([^.])$/, '$1.'));
  });

  it('does nothing where there is no speechSynthesis', () => {
    expect(speak('Ana, entrada registrada', 'pt-BR')).toBe(false);
  });
});
