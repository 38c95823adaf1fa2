import { describe, expect, it } from 'vitest';
import {
  DISPUTE_REASON_MAX,
  disputeReason,
  heldActions,
  heldDecisionOf,
  heldList,
  heldRow,
  type HeldPunch,
} from '../src/held-view.js';

function held(over: Partial<HeldPunch> = {}): HeldPunch {
  return {
    id: 17,
    captured_at: Date.UTC(2025, 2, 5, 10, 58, 0),
    local_date: '2025-03-05',
    local_time: '07:58',
    time_zone: 'America/Sao_Paulo',
    employee_external_id: '1001',
    employee_name: 'Ana Paula Ferreira',
    credential_kind: 'badge',
    state: 'held',
    attempts: 2,
    last_error: null,
    reject_reason: null,
    clock_flag: null,
    updated_at: Date.UTC(2025, 2, 5, 11, 0, 0),
    held_reason: 'unverified',
    ...over,
  };
}

describe('held punches on the queue tab', () => {
  it('a row reads: who, when (the punch’s own date and time), why, the service’s words, attempts', () => {
    const v = heldRow(
      held({ last_error: 'HTTP 504 from the gateway; GET /times found no record either way' }),
      'pt-BR',
    );
    expect(v).toEqual({
      id: 17,
      reason: 'unverified',
      name: 'Ana Paula Ferreira (1001)',
      when: '05/03/2025 07:58',
      reasonText: 'o serviço não confirma se recebeu — decida: enviar de novo ou marcar como entregue',
      detail: 'Detalhes: HTTP 504 from the gateway; GET /times found no record either way',
      attempts: '2 tentativas',
      decide: 'delivery',
    });
    const en = heldRow(held({ last_error: 'HTTP 504' }), 'en');
    expect(en.when).toBe('03/05/2025 07:58');
    expect(en.reasonText).toBe('the service does not confirm it received it — decide: send again or mark as delivered');
    expect(en.detail).toBe('Details: HTTP 504');
    expect(en.attempts).toBe('2 attempts');
  });

  it('a punch held by the employee’s contract sends the manager to HR, with no decision here', () => {
    const pt = heldRow(held({ held_reason: 'not_allowed', employee_external_id: null, attempts: 0 }), 'pt-BR');
    expect(pt.reasonText).toBe('contrato não permite registro pela API — procure o RH');
    expect(pt.name).toBe('Ana Paula Ferreira');
    expect(pt.detail).toBeNull();
    expect(pt.decide).toBeNull();
    expect(heldRow(held({ held_reason: 'not_allowed' }), 'en').reasonText).toBe(
      'the contract does not allow records by the API — see HR',
    );
  });

  it('a punch the service refused for its employee (403) says it is retried, and a person may still decide', () => {
    const pt = heldRow(
      held({ held_reason: 'forbidden', last_error: '403 Forbidden: employee not permitted' }),
      'pt-BR',
    );
    expect(pt.reasonText).toBe('o serviço recusou este funcionário (403) — nova tentativa automática');
    expect(pt.detail).toBe('Detalhes: 403 Forbidden: employee not permitted');
    expect(pt.decide).toBe('delivery');
    expect(heldRow(held({ held_reason: 'forbidden' }), 'en').reasonText).toBe(
      'the service refused this employee (403) — retried automatically',
    );
  });

  it('a row without a reason (kept by an older version) says it is kept here, with no decision', () => {
    const v = heldRow(held({ held_reason: null, last_error: '  ' }), 'pt-BR');
    expect(v.reason).toBe('unknown');
    expect(v.reasonText).toBe('guardado neste terminal');
    expect(v.detail).toBeNull();
    expect(v.decide).toBeNull();
  });

  it('the buttons read "send again" and "mark as delivered", and the second tap says nothing more is sent', () => {
    expect(heldActions('pt-BR')).toEqual({
      resend: 'Enviar de novo',
      delivered: 'Marcar como entregue',
      confirm: 'Confirmar: entregue',
      confirmHelp: 'Nada mais será enviado para este registro. Toque em “Confirmar” para marcá-lo como entregue.',
      cancel: 'Cancelar',
      confirmPin: 'Confirmar',
      dispute: 'Contestar',
      disputeReason: 'Motivo da contestação',
      disputeHelp: 'Um registro contestado fica guardado neste terminal e nunca é enviado.',
      disputeConfirm: 'Contestar',
    });
    expect(heldActions('en')).toEqual({
      resend: 'Send again',
      delivered: 'Mark as delivered',
      confirm: 'Confirm: delivered',
      confirmHelp: 'Nothing more will be sent for this punch. Tap “Confirm” to mark it as delivered.',
      cancel: 'Cancel',
      confirmPin: 'Confirm',
      dispute: 'Dispute',
      disputeReason: 'Reason for the dispute',
      disputeHelp: 'A disputed punch stays kept on this terminal and is never sent.',
      disputeConfirm: 'Dispute',
    });
  });

  it('a punch taken while its employee was locked out (PIN not verified) is the manager’s to confirm or dispute', () => {
    const pt = heldRow(held({ held_reason: 'pin_unverified', credential_kind: 'id', attempts: 0 }), 'pt-BR');
    expect(pt).toMatchObject({ reason: 'pin_unverified', decide: 'pin', detail: null, attempts: '0 tentativas' });
    expect(pt.reasonText).toBe('PIN não verificado (funcionário bloqueado por PINs errados) — confirme ou conteste');
    expect(heldRow(held({ held_reason: 'pin_unverified' }), 'en').reasonText).toBe(
      'PIN not verified (employee locked out after wrong PINs) — confirm or dispute',
    );
  });

  it('a disputed punch says it is kept and never sent, with the manager’s reason as its detail and no more decisions', () => {
    const reason = 'Funcionário estava de folga; não esteve na obra';
    const pt = heldRow(held({ held_reason: 'disputed', last_error: `  ${reason} ` }), 'pt-BR');
    expect(pt).toMatchObject({ reason: 'disputed', decide: null });
    expect(pt.reasonText).toBe('contestado pelo gestor — guardado, não será enviado');
    expect(pt.detail).toBe(`Motivo: ${reason}`);
    const en = heldRow(held({ held_reason: 'disputed', last_error: 'not at work that day' }), 'en');
    expect(en.reasonText).toBe('disputed by the manager — kept, never sent');
    expect(en.detail).toBe('Reason: not at work that day');
    // A reason's own braces are not filled in.
    expect(heldRow(held({ held_reason: 'disputed', last_error: '{reason}' }), 'en').detail).toBe('Reason: {reason}');
  });

  it('which decision each reason gets: delivery (send again / delivered), pin (confirm / dispute), or none', () => {
    expect(heldDecisionOf('unverified')).toBe('delivery');
    expect(heldDecisionOf('forbidden')).toBe('delivery');
    expect(heldDecisionOf('pin_unverified')).toBe('pin');
    expect(heldDecisionOf('disputed')).toBeNull();
    expect(heldDecisionOf('not_allowed')).toBeNull();
    expect(heldDecisionOf('unknown')).toBeNull();
  });

  it('a dispute reason is sent trimmed, never empty, at most what the agent takes', () => {
    expect(disputeReason('  não esteve na obra \n')).toBe('não esteve na obra');
    expect(disputeReason('')).toBeNull();
    expect(disputeReason(' \t ')).toBeNull();
    expect(disputeReason('x'.repeat(DISPUTE_REASON_MAX + 20))).toHaveLength(DISPUTE_REASON_MAX);
    expect(DISPUTE_REASON_MAX).toBe(300);
  });

  it('the list says when there is none, and how many more past what it shows', () => {
    expect(heldList([], 'pt-BR')).toEqual({ rows: [], empty: 'Nenhum registro retido.', more: null });
    expect(heldList([], 'en').empty).toBe('No held punches.');
    const many = Array.from({ length: 5 }, (_, i) => held({ id: i + 1 }));
    const v = heldList(many, 'pt-BR', 3);
    expect(v.rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(v.empty).toBeNull();
    expect(v.more).toBe('…e mais 2');
    expect(heldList(many, 'en').more).toBeNull();
  });
});
