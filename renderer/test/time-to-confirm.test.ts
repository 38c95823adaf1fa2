import { describe, expect, it } from 'vitest';
import type { PunchReceiptView, PunchResultView } from '../../src/contract.js';
import { receiptRows } from '../src/receipt-view.js';
import { resultView } from '../src/result-view.js';

const result = (timeToConfirm?: boolean): Extract<PunchResultView, { ok: true }> => ({
  ok: true,
  punchId: 5,
  employeeName: 'Ana Souza',
  employeeExternalId: '1001',
  localDate: '2026-11-23',
  localTime: '17:25',
  repeat: false,
  ...(timeToConfirm === undefined ? {} : { timeToConfirm }),
});

const receipt: PunchReceiptView = {
  nsr: '000000002',
  date: '2026-11-23',
  time: '17:25:31',
  utcOffset: '-03:00',
  employeeName: 'Ana Souza',
  punchKept: true,
  cpf: '***.982.247-**',
  terminalId: 'obra-1',
  employer: { name: null, cnpj: null, cpf: null },
  hash: 'a'.repeat(64),
  portalUrl: null,
  text: 'x',
};

describe('a time the service has not confirmed yet, and a corrected one', () => {
  it('the result says "horário a confirmar" beside the time (pt-BR, es, en); nothing when confirmed', () => {
    expect(resultView({ result: result(true), queued: false }, 'pt-BR')).toMatchObject({
      time: '17:25',
      timeNote: 'horário a confirmar',
    });
    expect(resultView({ result: result(true), queued: false }, 'es').timeNote).toBe('hora por confirmar');
    expect(resultView({ result: result(true), queued: false }, 'en').timeNote).toBe('time to be confirmed');
    expect(resultView({ result: result(), queued: false }, 'pt-BR').timeNote).toBe('');
  });

  it('the receipt shows the corrected time and the clock adjustment record, or that the time is to be confirmed', () => {
    const corrected = receiptRows(
      {
        ...receipt,
        corrected: { date: '2026-11-23', time: '19:25:31', utcOffset: '-03:00', adjustmentNsr: '000000003' },
      },
      'pt-BR',
    );
    expect(corrected.find((r) => r.key === 'corrected')).toMatchObject({
      label: 'Horário corrigido',
      value: expect.stringMatching(/19:25:31 UTC-03:00 \(ajuste do relógio, NSR 000000003\)$/),
    });
    const pending = receiptRows({ ...receipt, timeToConfirm: true }, 'pt-BR');
    expect(pending.find((r) => r.key === 'time-to-confirm')?.value).toMatch(/^Horário a confirmar/);
    expect(receiptRows(receipt, 'pt-BR').some((r) => r.key === 'corrected' || r.key === 'time-to-confirm')).toBe(false);
  });
});
