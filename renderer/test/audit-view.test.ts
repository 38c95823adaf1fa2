import { describe, expect, it } from 'vitest';
import { auditStateSchema, type AuditSummary } from '../../src/contract.js';
import { auditRangeOk, auditRows, localToday } from '../src/audit-view.js';

// 2026-03-31 12:00:05 UTC = 09:00:05 in São Paulo.
const AT = Date.UTC(2026, 2, 31, 12, 0, 5);
const last: AuditSummary = {
  at: AT,
  startedAt: AT - 60_000,
  from: '2026-03-01',
  to: '2026-03-31',
  marks: 1200,
  found: 1196,
  missing: 3,
  unchecked: 1,
  unexplained: 2,
  missingDelivered: 2,
  requests: 180,
  firstMissing: [17, 204, 1003],
  stopped: false,
};
const rows = (s: unknown, lang: 'pt-BR' | 'en') =>
  auditRows(auditStateSchema.parse(s), lang, 'America/Sao_Paulo').map((r) => [r.key, r.label, r.value]);

describe('the journal compared with the service, on the admin screen', () => {
  it('the last comparison: when, which days, the counts, the missing NSRs as printed, and what to do about them', () => {
    expect(rows({ running: null, last }, 'pt-BR')).toEqual([
      ['last', 'Última conferência', '31/03/2026, 09:00:05 — dias 01/03/2026 a 31/03/2026'],
      ['result', 'Resultado', '1.200 marcações: 1.196 encontradas, 3 ausentes, 1 não conferidas.'],
      ['missing', 'Ausentes (NSR)', '000000017, 000000204, 000001003'],
      [
        'delivered',
        'Observação',
        '2 das marcações ausentes tinham sido entregues: pergunte ao serviço o que houve com elas.',
      ],
      [
        'unexplained',
        'Observação',
        '2 registros do serviço nesses dias não correspondem a nenhuma marcação deste terminal (podem ser de outro terminal ou integração na mesma conta).',
      ],
    ]);
    const en = rows(
      {
        running: null,
        last: {
          ...last,
          missing: 12,
          firstMissing: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
          unexplained: 0,
          missingDelivered: 0,
          stopped: true,
        },
      },
      'en',
    );
    expect(en.map((r) => r[0])).toEqual(['last', 'result', 'missing', 'stopped']);
    expect(en[2]?.[2]).toBe(
      '000000001, 000000002, 000000003, 000000004, 000000005, 000000006, 000000007, 000000008, 000000009, 000000010 …',
    );
    expect(en[3]?.[2]).toBe('Stopped before the end (the terminal stopped): compare again.');
  });

  it('one under way shows how far it got, above the last one; none yet says so', () => {
    const running = { from: '2026-04-01', to: '2026-04-07', startedAt: AT, requestsDone: 3, requestsTotal: 40 };
    expect(rows({ running, last }, 'en')[0]).toEqual([
      'running',
      'Under way',
      'Days 04/01/2026 to 04/07/2026: 3 of 40 requests.',
    ]);
    expect(rows({ running: { ...running, requestsTotal: null }, last: null }, 'pt-BR')).toEqual([
      ['running', 'Em andamento', 'Dias 01/04/2026 a 07/04/2026: começando.'],
    ]);
    expect(rows({ running: null, last: null }, 'pt-BR')).toEqual([['last', 'Última conferência', 'Nenhuma ainda.']]);
  });

  it('the date fields: the site’s today, and a range the agent accepts', () => {
    expect(localToday(Date.UTC(2026, 3, 1, 2, 0), 'America/Sao_Paulo')).toBe('2026-03-31');
    expect(localToday(Date.UTC(2026, 3, 1, 2, 0), 'UTC')).toBe('2026-04-01');
    expect(auditRangeOk('2026-03-01', '2026-03-31')).toBe(true);
    expect(auditRangeOk('2026-03-31', '2026-03-01')).toBe(false);
    expect(auditRangeOk('2026-01-01', '2027-01-02')).toBe(false);
    expect(auditRangeOk('', '2026-03-01')).toBe(false);
  });
});
