/**
 * The admin screen's team tab lists the workers without a CPF or an employer of their own (issue 26), in the screen's
 * language.
 */
import { describe, expect, it } from 'vitest';
import { evidenceGapsView } from '../../renderer/src/roster-view.js';

const health = { missingWorkSchedule: 0, missingEmployer: 0, badTimeZone: 0, employees: [] };

describe('evidence gaps on the team tab', () => {
  it('says nothing when every worker has a CPF and an employer, or an older agent did not say', () => {
    expect(evidenceGapsView(health, 'pt-BR')).toBeNull();
    expect(
      evidenceGapsView(
        { ...health, evidence: { noCpf: { count: 0, employees: [] }, noEmployer: { count: 0, employees: [] } } },
        'pt-BR',
      ),
    ).toBeNull();
  });

  it('counts and names each worker with what is missing', () => {
    const v = evidenceGapsView(
      {
        ...health,
        evidence: {
          noCpf: { count: 1, employees: [{ id: 'a', externalId: '1034', name: 'Simone Azevedo Cunha' }] },
          noEmployer: {
            count: 2,
            employees: [
              { id: 'b', externalId: null, name: 'Débora Fonseca', reason: 'unknown' },
              { id: 'c', externalId: '1020', name: 'Rafael', reason: 'unread' },
            ],
          },
        },
      },
      'pt-BR',
    );
    expect(v?.lines).toEqual([
      '1 sem CPF: seus registros são guardados, mas o AFD mostra zeros no lugar do CPF',
      '2 sem empregador conhecido do serviço: comprovante e AFD usam o empregador configurado',
    ]);
    expect(v?.employees).toEqual([
      { id: 'a', name: 'Simone Azevedo Cunha (1034)', missing: 'sem CPF' },
      { id: 'b', name: 'Débora Fonseca', missing: 'empregador desconhecido do serviço' },
      { id: 'c', name: 'Rafael (1020)', missing: 'empregador ainda não lido' },
    ]);
    expect(
      evidenceGapsView(
        { ...health, evidence: { noCpf: { count: 1, employees: [] }, noEmployer: { count: 0, employees: [] } } },
        'en',
      )?.lines,
    ).toEqual(['1 without a CPF: their punches are kept, the AFD shows zeros for the CPF']);
  });
});
