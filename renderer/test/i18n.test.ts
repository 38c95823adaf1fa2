import { describe, expect, it } from 'vitest';
import { adminCodeSchema, heldPunchSchema, punchNoteSchema, type AdminCode } from '../../src/contract.js';
import { answerText, dictionaries, LANGS, t } from '../src/i18n.js';

describe('i18n', () => {
  // Same keys, none empty, same placeholders in every language and plural form: test/unit/messages.test.ts.

  it('fills placeholders and formats numbers in the language', () => {
    expect(t('pt-BR', 'conn.offline', { n: 3 })).toBe('Sem conexão — 3 registros aguardando envio');
    expect(t('en', 'conn.offline', { n: 1200 })).toBe('No connection — 1,200 punches waiting to be sent');
    expect(t('pt-BR', 'conn.offline', { n: 1200 })).toBe('Sem conexão — 1.200 registros aguardando envio');
  });

  it('the idle prompt reads as the site expects in both languages', () => {
    expect(t('pt-BR', 'idle.prompt')).toBe('Aproxime seu crachá ou digite sua matrícula');
    expect(t('en', 'idle.prompt')).toBe('Scan your badge or type your ID');
  });

  it('the roster work’s texts read as the site expects in both languages', () => {
    expect(t('pt-BR', 'idle.noRoster')).toBe(
      'Terminal sem lista de funcionários — os registros são guardados e confirmados depois',
    );
    expect(t('en', 'idle.noRoster')).toBe('No employee list yet — punches are kept and confirmed later');
    expect(t('pt-BR', 'result.awaitingRoster', { time: '07:58' })).toBe(
      'Será confirmado quando o terminal receber a lista de funcionários.',
    );
    expect(t('en', 'result.awaitingRoster', { time: '07:58' })).toBe(
      'It will be confirmed when the terminal receives the employee list.',
    );
    expect(t('pt-BR', 'result.heldNotAllowed', { time: '07:58' })).toBe(
      'Guardado neste terminal: procure o RH para liberar o envio.',
    );
    expect(t('en', 'result.heldNotAllowed', { time: '07:58' })).toBe(
      'Kept on this terminal: please see HR to allow sending.',
    );
    expect(t('pt-BR', 'roster.shrinkConfirm')).toBe('Confirmar nova lista');
    expect(t('en', 'roster.shrinkConfirm')).toBe('Apply the smaller list');
    expect(t('pt-BR', 'queue.held')).toBe('Retidos');
    expect(t('en', 'queue.held')).toBe('Held');
  });

  it('the answers to confirming a held smaller roster are worded from their codes', () => {
    // The agent sends it with or without an employee count (applied now, or fetched again first): worded for both.
    for (const params of [{}, { employees: '120' }] as Record<string, string>[]) {
      expect(answerText('pt-BR', { code: 'roster_shrink_applied', params })).toBe(
        'Confirmado: a nova lista de funcionários, menor, é aplicada (baixada de novo antes, se preciso, qualquer que seja o tamanho).',
      );
      expect(answerText('en', { code: 'roster_shrink_applied', params })).toBe(
        'Confirmed: the smaller employee list is applied (fetched again first when needed, whatever its size).',
      );
    }
    expect(answerText('pt-BR', { code: 'roster_shrink_none' })).toMatch(
      /^Não há lista de funcionários retida para confirmar/,
    );
    expect(answerText('en', { code: 'roster_shrink_none' })).toMatch(/^There is no held employee list to apply/);
  });

  it('the answers about held and rejected punches are worded from their codes, with the punch id or the count', () => {
    const ans = (code: AdminCode, params: Record<string, string>) => ({ code, params });
    expect(answerText('pt-BR', ans('retry_all_queued', { n: '4' }))).toBe(
      'Registros recusados reenviados para envio: 4.',
    );
    expect(answerText('en', ans('retry_all_queued', { n: '0' }))).toBe('Rejected punches queued to be sent again: 0.');
    expect(answerText('pt-BR', ans('held_resend_queued', { id: '17' }))).toBe(
      'Registro retido 17 colocado de novo na fila de envio.',
    );
    expect(answerText('en', ans('held_resend_queued', { id: '17' }))).toBe('Held punch 17 queued to be sent again.');
    expect(answerText('pt-BR', ans('held_marked_delivered', { id: '17' }))).toBe(
      'Registro retido 17 marcado como entregue; nada mais será enviado para ele.',
    );
    expect(answerText('en', ans('held_marked_delivered', { id: '17' }))).toBe(
      'Held punch 17 marked as delivered; nothing more is sent for it.',
    );
    expect(answerText('pt-BR', ans('held_not_held', { id: '17' }))).toBe(
      'O registro 17 não está (mais) retido; nada foi alterado.',
    );
    expect(answerText('en', ans('held_not_held', { id: '17' }))).toBe(
      'Punch 17 is not held (any more); nothing was changed.',
    );
    expect(answerText('pt-BR', ans('held_disputed', { id: '17' }))).toBe(
      'Registro 17 contestado: fica guardado neste terminal e não será enviado.',
    );
    expect(answerText('en', ans('held_disputed', { id: '17' }))).toBe(
      'Punch 17 disputed: it stays kept on this terminal and will not be sent.',
    );
    expect(answerText('pt-BR', ans('held_reason_required', { id: '17' }))).toBe('Escreva o motivo da contestação.');
    expect(answerText('en', ans('held_reason_required', {}))).toBe('Write the reason for the dispute.');
  });

  it('a punch whose PIN was not verified: the result line and the held list read as the site expects', () => {
    expect(t('pt-BR', 'result.heldPinUnverified', { time: '07:58' })).toBe(
      'PIN não verificado: o gestor vai confirmar este registro.',
    );
    expect(t('en', 'result.heldPinUnverified', { time: '07:58' })).toBe(
      'PIN not verified: the manager will confirm this punch.',
    );
    expect(t('pt-BR', 'held.reason.pin_unverified')).toBe(
      'PIN não verificado (funcionário bloqueado por PINs errados) — confirme ou conteste',
    );
    expect(t('en', 'held.reason.pin_unverified')).toBe(
      'PIN not verified (employee locked out after wrong PINs) — confirm or dispute',
    );
    expect(t('pt-BR', 'held.reason.disputed')).toBe('contestado pelo gestor — guardado, não será enviado');
    expect(t('en', 'held.reason.disputed')).toBe('disputed by the manager — kept, never sent');
    expect(t('pt-BR', 'held.confirmPin')).toBe('Confirmar');
    expect(t('en', 'held.confirmPin')).toBe('Confirm');
    expect(t('pt-BR', 'held.dispute')).toBe('Contestar');
    expect(t('en', 'held.dispute')).toBe('Dispute');
    expect(t('pt-BR', 'held.disputeConfirm')).toBe('Contestar');
    expect(t('en', 'held.disputeConfirm')).toBe('Dispute');
  });

  it('every held reason and every punch note of the contract has its words in both languages', () => {
    for (const reason of [...heldPunchSchema.shape.held_reason.unwrap().options, 'unknown'] as const) {
      for (const lang of LANGS)
        expect(t(lang, `held.reason.${reason}`).trim(), `${lang} held.reason.${reason}`).not.toBe('');
    }
    expect(punchNoteSchema.options).toContain('held_pin_unverified');
  });

  it('the queue tab’s new buttons and headings read as the site expects', () => {
    expect(t('pt-BR', 'queue.retryAll')).toBe('Reenviar todos');
    expect(t('en', 'queue.retryAll')).toBe('Retry all');
    expect(t('pt-BR', 'held.resend')).toBe('Enviar de novo');
    expect(t('en', 'held.resend')).toBe('Send again');
    expect(t('pt-BR', 'held.delivered')).toBe('Marcar como entregue');
    expect(t('en', 'held.delivered')).toBe('Mark as delivered');
    expect(t('pt-BR', 'conn.warnings')).toBe('Avisos de configuração');
    expect(t('en', 'conn.warnings')).toBe('Configuration warnings');
  });

  it('every code an admin answer can carry has its text in both languages', () => {
    for (const code of adminCodeSchema.options) {
      for (const lang of LANGS) {
        const text = (dictionaries[lang] as Readonly<Record<string, string>>)[`answer.${code}`];
        expect(text, `${lang} answer.${code}`).toEqual(expect.any(String));
        expect(text?.trim(), `${lang} answer.${code}`).not.toBe('');
      }
    }
    // And no answer text for a code the contract does not have.
    const codes = new Set<string>(adminCodeSchema.options);
    for (const key of Object.keys(dictionaries.en))
      if (key.startsWith('answer.')) expect(codes.has(key.slice('answer.'.length)), key).toBe(true);
  });

  it('an admin answer is worded from its code in the language, with its params', () => {
    const ans = (code: AdminCode, params?: Record<string, string>) => ({ code, params });
    expect(answerText('pt-BR', ans('pin_set', { name: 'Ana Paula Ferreira da Silva' }))).toBe(
      'PIN definido para Ana Paula Ferreira da Silva.',
    );
    expect(answerText('en', ans('pin_set', { name: 'Ana Paula Ferreira da Silva' }))).toBe(
      'PIN set for Ana Paula Ferreira da Silva.',
    );
    expect(answerText('pt-BR', ans('retry_queued', { id: '1234' }))).toBe('Registro 1234 reenviado para envio.');
    expect(answerText('pt-BR', ans('badge_moved', { name: 'Ana', previousName: 'Bruno' }))).toBe(
      'Crachá cadastrado para Ana (antes era de Bruno).',
    );
    expect(answerText('pt-BR', ans('site_unknown', { siteId: 'abc' }))).toBe(
      'O serviço não tem o local abc; nada foi alterado.',
    );
    expect(answerText('pt-BR', ans('token_demo'))).toMatch(
      /^Modo demonstração: o token da demonstração é fixo; nada foi salvo/,
    );
    // Where the token is kept is worded as the settings panel words it.
    expect(answerText('pt-BR', ans('token_saved', { store: 'keyring' }))).toContain('(cofre de senhas do sistema)');
    expect(answerText('en', ans('token_saved', { store: 'file' }))).toContain('(a protected file)');
    // Ids stay as they are (no number formatting), and a param's own braces are not filled again.
    expect(answerText('pt-BR', ans('retry_not_rejected', { id: '{id}' }))).toBe(
      'O registro {id} não está (mais) entre os recusados.',
    );
    expect(
      answerText(
        'pt-BR',
        ans('budget_set', { limit: '1200', window: '60', previousLimit: '60', previousWindow: '60' }),
      ),
    ).toContain('1200 a cada 60 s');
  });

  it("the answers' placeholders are all among the params the agent sends", () => {
    const sample: Record<string, string> = {
      id: '7',
      query: '1001',
      name: 'Ana',
      previousName: 'Bruno',
      badge: 'CARD-1',
      employee: 'Ana',
      min: '4',
      max: '8',
      error: 'disk full',
      store: 'file',
      reason: 'HTTP 503',
      siteId: 'abc',
      limit: '60',
      window: '60',
      previousLimit: '30',
      previousWindow: '60',
      n: '3',
    };
    for (const code of adminCodeSchema.options)
      expect(answerText('pt-BR', { code, params: sample }), code).not.toMatch(/\{\w+\}/);
  });
});
