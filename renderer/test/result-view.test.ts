import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { resultView } from '../src/result-view.js';

const ok = (repeat: boolean, name: string | null = 'Ana Souza'): Extract<PunchResultView, { ok: true }> => ({
  ok: true,
  punchId: 5,
  employeeName: name,
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '07:58',
  repeat,
});

describe('result screen content', () => {
  it('success: green, name, time and date, success sound', () => {
    const v = resultView({ result: ok(false), queued: false }, 'pt-BR');
    expect(v).toMatchObject({
      ok: true,
      reason: 'ok',
      tone: 'ok',
      sound: 'success',
      name: 'Ana Souza',
      time: '07:58',
      date: 'quarta-feira, 5 de março',
      queued: false,
    });
    // Without the employee's day there is nothing new to say: no second line (never the time again).
    expect(v.message).toBe('');
  });

  it('says the punch is saved and will be sent when the terminal is offline', () => {
    expect(resultView({ result: ok(false), queued: true }, 'pt-BR').message).toBe(
      'Salvo — será enviado quando a conexão voltar.',
    );
    expect(resultView({ result: ok(false), queued: true }, 'en').message).toBe(
      'Saved, will be sent when the connection returns.',
    );
  });

  it('repeat: amber, "already registered at", still the success sound', () => {
    const v = resultView({ result: ok(true), queued: false }, 'en');
    expect(v).toMatchObject({ ok: true, reason: 'repeat', tone: 'repeat', sound: 'success' });
    expect(v.message).toBe('You already registered at 07:58.');
  });

  it('refusals: red, error sound, a human message per reason in the language', () => {
    const refuse = (reason: Extract<PunchResultView, { ok: false }>['reason']) =>
      resultView({ result: { ok: false, reason }, queued: false }, 'pt-BR');
    expect(refuse('unknown_credential')).toMatchObject({
      ok: false,
      reason: 'unknown_credential',
      tone: 'error',
      sound: 'error',
      time: '',
    });
    expect(refuse('unknown_credential').message).toBe('Crachá ou matrícula não reconhecido. Procure o gestor.');
    expect(refuse('storage_failed').message).toMatch(/gestor/);
    const reasons = [
      'invalid_code',
      'invalid_cpf',
      'ambiguous_credential',
      'pin_required',
      'pin_wrong',
      'pin_locked',
      'pin_throttled',
      'no_pin',
      'storage_failed',
      'shutting_down',
    ] as const;
    const messages = reasons.map((r) => refuse(r).message);
    expect(new Set(messages).size).toBe(reasons.length);
    for (const m of messages) expect(m).not.toBe('agent text');
  });

  it('an enrollment scan is worded in the screen’s language from its code; a failed one sounds like an error', () => {
    const good = resultView(
      {
        result: {
          ok: false,
          reason: 'enrollment',
          enrollment: { ok: true, code: 'badge_enrolled', params: { name: 'Ana Souza' } },
        },
        queued: false,
      },
      'pt-BR',
    );
    expect(good).toMatchObject({ reason: 'enrollment', tone: 'info', sound: 'success' });
    const bad = resultView(
      { result: { ok: false, reason: 'enrollment', enrollment: { ok: false, code: 'badge_invalid' } }, queued: false },
      'en',
    );
    expect(bad).toMatchObject({ tone: 'error', sound: 'error' });
    // Without a code (an older agent), the agent's words as they are.
    expect(resultView({ result: { ok: false, reason: 'enrollment' }, queued: false }, 'pt-BR')).toMatchObject({
      message: 'Cadastro de crachá: nenhum ponto foi registrado.',
      sound: 'error',
    });
  });

  it('awaiting_roster: kept until the employee list arrives, said plainly, with the success look and sound', () => {
    const awaiting: PunchResultView = { ...ok(false, null), note: 'awaiting_roster' };
    const pt = resultView({ result: awaiting, queued: false }, 'pt-BR');
    expect(pt).toMatchObject({
      ok: true,
      tone: 'ok',
      sound: 'success',
      note: 'awaiting_roster',
      headline: 'Registro salvo',
      name: '',
      time: '07:58',
    });
    expect(pt.message).toBe('Será confirmado quando o terminal receber a lista de funcionários.');
    const en = resultView({ result: awaiting, queued: true }, 'en');
    expect(en).toMatchObject({ tone: 'ok', sound: 'success', headline: 'Punch saved' });
    // Offline too, the note is what the worker needs to hear.
    expect(en.message).toBe('It will be confirmed when the terminal receives the employee list.');
  });

  it('unknown_code: the unresolved punch’s usual words, a success', () => {
    const unknown: PunchResultView = { ...ok(false, null), note: 'unknown_code' };
    expect(resultView({ result: unknown, queued: false }, 'pt-BR')).toMatchObject({
      tone: 'ok',
      sound: 'success',
      note: 'unknown_code',
      headline: 'Registro salvo',
    });
    expect(resultView({ result: unknown, queued: true }, 'en')).toMatchObject({ headline: 'Punch saved' });
  });

  it('held_not_allowed: the employee’s name and a neutral notice to see HR, with the success sound', () => {
    const held: PunchResultView = { ...ok(false), note: 'held_not_allowed' };
    const pt = resultView({ result: held, queued: true }, 'pt-BR');
    expect(pt).toMatchObject({
      ok: true,
      tone: 'info',
      sound: 'success',
      note: 'held_not_allowed',
      name: 'Ana Souza',
      time: '07:58',
      headline: 'Ponto registrado',
    });
    expect(pt.message).toBe('Guardado neste terminal: procure o RH para liberar o envio.');
    // Not "waiting for the connection": it is not sent at all until HR allows it.
    expect(pt.queued).toBe(false);
    expect(resultView({ result: held, queued: false }, 'en').message).toBe(
      'Kept on this terminal: please see HR to allow sending.',
    );
  });

  it('held_pin_unverified: taken while locked out after wrong PINs, the name and a neutral notice that the manager confirms it, with the success sound', () => {
    const held: PunchResultView = { ...ok(false), note: 'held_pin_unverified' };
    const pt = resultView({ result: held, queued: true }, 'pt-BR');
    expect(pt).toMatchObject({
      ok: true,
      reason: 'ok',
      tone: 'info',
      sound: 'success',
      note: 'held_pin_unverified',
      name: 'Ana Souza',
      time: '07:58',
      headline: 'Ponto registrado',
    });
    expect(pt.message).toBe('PIN não verificado: o gestor vai confirmar este registro.');
    // Held here until the manager decides: never "waiting for the connection".
    expect(pt.queued).toBe(false);
    const en = resultView({ result: held, queued: false }, 'en');
    expect(en).toMatchObject({ tone: 'info', sound: 'success', headline: 'Punch registered', queued: false });
    expect(en.message).toBe('PIN not verified: the manager will confirm this punch.');
  });

  it('a punch without a note says none, and a refusal never carries one', () => {
    expect(resultView({ result: ok(false), queued: false }, 'en').note).toBe('none');
    expect(resultView({ result: { ok: false, reason: 'pin_wrong' }, queued: false }, 'en').note).toBe('none');
  });

  it('a call that got no answer says to try again', () => {
    expect(resultView({ result: null, failure: 'fetch failed' }, 'en')).toMatchObject({
      ok: false,
      reason: 'no_answer',
      tone: 'error',
    });
  });
});
