import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { resultView } from '../src/result-view.js';

const ok = (repeat: boolean, name: string | null = 'Ana Souza'): PunchResultView => ({
  ok: true,
  punchId: 5,
  employeeName: name,
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '07:58',
  repeat,
  message: 'x',
});

describe('result screen content', () => {
  it('success: green, name, time and date, success sound', () => {
    const v = resultView({ result: ok(false), queued: false }, 'pt-BR');
    expect(v).toMatchObject({ ok: true, reason: 'ok', tone: 'ok', sound: 'success', name: 'Ana Souza', time: '07:58', date: 'quarta-feira, 5 de março', queued: false });
    expect(v.message).toBe('Registrado às 07:58.');
  });

  it('says the punch is saved and will be sent when the terminal is offline', () => {
    expect(resultView({ result: ok(false), queued: true }, 'pt-BR').message).toBe('Salvo — será enviado quando a conexão voltar.');
    expect(resultView({ result: ok(false), queued: true }, 'en').message).toBe('Saved, will be sent when the connection returns.');
  });

  it('repeat: amber, "already registered at", still the success sound', () => {
    const v = resultView({ result: ok(true), queued: false }, 'en');
    expect(v).toMatchObject({ ok: true, reason: 'repeat', tone: 'repeat', sound: 'success' });
    expect(v.message).toBe('You already registered at 07:58.');
  });

  it('refusals: red, error sound, a human message per reason in the language', () => {
    const refuse = (reason: Extract<PunchResultView, { ok: false }>['reason']) => resultView({ result: { ok: false, reason, message: 'agent text' }, queued: false }, 'pt-BR');
    expect(refuse('unknown_credential')).toMatchObject({ ok: false, reason: 'unknown_credential', tone: 'error', sound: 'error', time: '' });
    expect(refuse('unknown_credential').message).toBe('Crachá ou matrícula não reconhecido. Procure o gestor.');
    expect(refuse('storage_failed').message).toMatch(/gestor/);
    const reasons = ['invalid_code', 'invalid_cpf', 'ambiguous_credential', 'pin_required', 'pin_wrong', 'pin_locked', 'pin_throttled', 'no_pin', 'storage_failed', 'shutting_down'] as const;
    const messages = reasons.map((r) => refuse(r).message);
    expect(new Set(messages).size).toBe(reasons.length);
    for (const m of messages) expect(m).not.toBe('agent text');
  });

  it('an enrollment scan is worded in the screen’s language from its code; a failed one sounds like an error', () => {
    const good = resultView(
      { result: { ok: false, reason: 'enrollment', message: 'badge enrolled for Ana Souza', enrollment: { ok: true, code: 'badge_enrolled', params: { name: 'Ana Souza' } } }, queued: false },
      'pt-BR',
    );
    expect(good).toMatchObject({ reason: 'enrollment', tone: 'info', sound: 'success', message: 'Crachá cadastrado para Ana Souza.' });
    const bad = resultView(
      { result: { ok: false, reason: 'enrollment', message: 'Badge NOT enrolled: too short', enrollment: { ok: false, code: 'badge_invalid' } }, queued: false },
      'en',
    );
    expect(bad).toMatchObject({ tone: 'error', sound: 'error' });
    // Without a code (an older agent), the agent's words as they are.
    expect(resultView({ result: { ok: false, reason: 'enrollment', message: 'Badge NOT enrolled: x' }, queued: false }, 'pt-BR')).toMatchObject({ message: 'Badge NOT enrolled: x', sound: 'error' });
  });

  it('a call that got no answer says to try again', () => {
    expect(resultView({ result: null, failure: 'fetch failed' }, 'en')).toMatchObject({ ok: false, reason: 'no_answer', tone: 'error', message: 'The terminal did not answer. Please try again.' });
  });
});
