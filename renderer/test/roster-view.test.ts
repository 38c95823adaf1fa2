import { describe, expect, it } from 'vitest';
import {
  lastSyncText,
  healthView,
  heldShrinkView,
  listState,
  nextSyncText,
  noRosterNotice,
  notAllowedView,
  siteFilterView,
  skippedView,
  unresolvedRow,
} from '../src/roster-view.js';
import { t } from '../src/i18n.js';
import { rosterStatus, status } from './status-fixture.js';

// 2025-03-05 15:07:30 UTC = 12:07:30 in São Paulo (UTC-3, no DST since 2019)
const AT = Date.UTC(2025, 2, 5, 15, 7, 30);
const SP = 'America/Sao_Paulo';

describe('idle screen: no employee list yet', () => {
  it('says so in the site’s language while the list is not complete', () => {
    const incomplete = status({ roster: rosterStatus({ complete: false }) });
    expect(noRosterNotice(incomplete, 'pt-BR')).toBe(
      'Terminal sem lista de funcionários — os registros são guardados e confirmados depois',
    );
    expect(noRosterNotice(incomplete, 'en')).toBe('No employee list yet — punches are kept and confirmed later');
  });

  it('says nothing with a complete list, or before the first status', () => {
    expect(noRosterNotice(status(), 'pt-BR')).toBeNull();
    expect(noRosterNotice(null, 'pt-BR')).toBeNull();
  });
});

describe('admin roster tab', () => {
  it('says whether the list is complete', () => {
    expect(listState(rosterStatus(), 'pt-BR')).toEqual({ complete: true, text: 'completa' });
    expect(listState(rosterStatus({ complete: false }), 'en')).toEqual({
      complete: false,
      text: 'not complete — punches are kept and confirmed later',
    });
  });

  it('says when the next sync is due, how far off, or that none is planned', () => {
    expect(nextSyncText(AT + 5 * 60_000, AT, 'pt-BR', SP)).toBe('05/03/2025, 12:12:30 (em 5 min)');
    expect(nextSyncText(AT + 2 * 3_600_000, AT, 'en', SP)).toBe('03/05/2025, 14:07:30 (in 2 hr)');
    expect(nextSyncText(AT - 10_000, AT, 'en', SP)).toBe('03/05/2025, 12:07:20 (due now)');
    expect(nextSyncText(null, AT, 'pt-BR', SP)).toBe('nenhuma prevista');
  });

  it('a suspect site filter is a warning naming the setting to check; verified and unknown are plain values', () => {
    const suspect = siteFilterView('suspect', 'en');
    expect(suspect).toMatchObject({ state: 'suspect', value: 'suspect' });
    expect(suspect?.warning).toBe(
      'The service returned the same number of employees with and without the site filter, and the account has more than one site: it may ignore the filter. Ask the technician to check the site filter setting.',
    );
    expect(siteFilterView('suspect', 'pt-BR')?.warning).toContain('Peça ao responsável técnico');
    expect(siteFilterView('one_site', 'pt-BR')).toMatchObject({ state: 'one_site', warning: null });
    expect(siteFilterView('verified', 'pt-BR')).toEqual({
      state: 'verified',
      value: 'conferido: o serviço devolve só os funcionários deste local',
      warning: null,
    });
    expect(siteFilterView('unknown', 'en')).toEqual({
      state: 'unknown',
      value: 'not verified (no totals to compare)',
      warning: null,
    });
    expect(siteFilterView(null, 'en')).toBeNull();
  });

  it('a held smaller list says what came, what is in use, since when, the next check and the button', () => {
    const held = heldShrinkView({ employees: 120, inUse: 412, since: AT, recheckAt: AT + 3_600_000 }, 'pt-BR', SP);
    expect(held).toEqual({
      title: 'Nova lista de funcionários retida',
      body: 'Uma sincronização trouxe 120 funcionários, menos da metade dos 412 em uso. Ela está retida desde 05/03/2025, 12:07:30; a lista atual continua valendo.',
      recheck: 'Uma nova sincronização em 05/03/2025, 13:07:30 a aplica se trouxer o mesmo.',
      confirm: 'Confirmar nova lista',
    });
    const en = heldShrinkView({ employees: 3, inUse: 1200, since: AT, recheckAt: null }, 'en', SP);
    expect(en?.body).toBe(
      'A sync brought 3 employees, less than half of the 1,200 in use. It is held since 03/05/2025, 12:07:30; the current list stays in use.',
    );
    expect(en?.recheck).toBeNull();
    expect(en?.confirm).toBe('Apply the smaller list');
    expect(heldShrinkView(null, 'en', SP)).toBeNull();
  });

  it('records the last sync could not use: the count, the first ones with position, id and reason, and how many more', () => {
    const v = skippedView(
      {
        count: 37,
        examples: [
          { position: 12, id: null, reason: 'no_ids' },
          { position: 48, id: '65f0c0ffee', reason: 'not_an_object' },
        ],
      },
      'pt-BR',
    );
    expect(v).toEqual({
      summary: 'Registros da última sincronização que o terminal não pôde usar: 37',
      examples: ['registro 12, sem id: sem _id nem external_id', 'registro 48 (65f0c0ffee): não é um registro JSON'],
      more: '…e mais 35',
    });
    expect(skippedView({ count: 1, examples: [{ position: 3, id: null, reason: 'no_ids' }] }, 'en')).toEqual({
      summary: 'Records of the last sync the terminal could not use: 1',
      examples: ['record 3, no id: neither _id nor external_id'],
      more: null,
    });
    expect(skippedView(null, 'en')).toBeNull();
    expect(skippedView({ count: 0, examples: [] }, 'en')).toBeNull();
  });

  it('employees not allowed to record by API are listed with their held punches', () => {
    const v = notAllowedView(
      {
        count: 3,
        employees: [
          { id: 'c', externalId: '2002', name: 'Carla Mendes', heldPunches: 4 },
          { id: 'd', externalId: null, name: 'Diego Alves', heldPunches: 0 },
        ],
      },
      'en',
    );
    expect(v?.title).toBe('Not allowed to record by API; punches held');
    expect(v?.rows).toEqual([
      { id: 'c', name: 'Carla Mendes (2002)', held: '4 held', heldPunches: 4 },
      { id: 'd', name: 'Diego Alves', held: '0 held', heldPunches: 0 },
    ]);
    expect(v?.more).toBe('…and 1 more');
    expect(
      notAllowedView({ count: 1, employees: [{ id: 'c', externalId: null, name: 'Carla', heldPunches: 2 }] }, 'pt-BR')
        ?.rows[0]?.held,
    ).toBe('2 retidos');
    expect(
      notAllowedView({ count: 1, employees: [{ id: 'c', externalId: null, name: 'Carla', heldPunches: 1 }] }, 'pt-BR')
        ?.rows[0]?.held,
    ).toBe('1 retido');
    expect(notAllowedView({ count: 0, employees: [] }, 'en')).toBeNull();
  });

  it('an unresolved punch reads as when it was captured, its code, badge or ID, and when it was last checked', () => {
    expect(
      unresolvedRow(
        { id: 11, captured_at: AT, code: '0004512987', credential_kind: 'badge', last_checked_at: AT + 60_000 },
        'pt-BR',
        SP,
      ),
    ).toEqual({
      id: 11,
      when: '05/03/2025, 12:07:30',
      code: '0004512987',
      kind: 'crachá',
      checked: 'conferido em 05/03/2025, 12:08:30',
    });
    expect(
      unresolvedRow({ id: 12, captured_at: AT, code: '1234', credential_kind: 'id', last_checked_at: null }, 'en', SP),
    ).toMatchObject({
      kind: 'ID',
      checked: 'not checked yet',
    });
    // A kind this page does not know is shown as the agent named it.
    expect(
      unresolvedRow({ id: 13, captured_at: AT, code: 'X', credential_kind: 'cpf', last_checked_at: null }, 'en', SP)
        .kind,
    ).toBe('cpf');
  });

  it('health counts unusable time zones and names what each employee lacks', () => {
    const v = healthView(
      {
        missingWorkSchedule: 1,
        missingEmployer: 0,
        badTimeZone: 2,
        employees: [{ id: 'a', externalId: '1001', name: 'Ana', missing: ['work_schedule', 'timezone'] }],
      },
      'pt-BR',
    );
    expect(v).toEqual({
      ok: false,
      counts: '1 sem jornada, 0 sem empregador',
      timeZone: '2 com fuso horário inválido (usa-se o do local)',
      employees: [{ id: 'a', name: 'Ana (1001)', missing: 'sem jornada, fuso horário inválido' }],
    });
    expect(
      healthView({ missingWorkSchedule: 0, missingEmployer: 0, badTimeZone: 1, employees: [] }, 'en'),
    ).toMatchObject({
      ok: false,
      timeZone: '1 with an unusable time zone (the site’s is used)',
    });
    expect(
      healthView({ missingWorkSchedule: 1, missingEmployer: 0, badTimeZone: 0, employees: [] }, 'en'),
    ).toMatchObject({ timeZone: null });
    expect(healthView({ missingWorkSchedule: 0, missingEmployer: 0, badTimeZone: 0, employees: [] }, 'en')).toEqual({
      ok: true,
      text: 'Every employee has a work schedule, an employer and a usable time zone.',
    });
  });
});

describe("admin roster tab: the last sync in the screen's language", () => {
  const at = { at: 1, employees: 40, lastOkAt: 1 };
  it("a held shrink and an incomplete sync are worded, not shown as the agent's English error", () => {
    const held = rosterStatus({
      lastSync: { ...at, ok: false, error: 'the new roster has 11 employees, less than half…', outcome: 'shrink_held' },
      heldShrink: { employees: 11, inUse: 32, since: 1, recheckAt: null },
    });
    expect(lastSyncText(held, 'pt-BR')).toBe('uma lista menor (11 funcionários) aguarda confirmação');
    const incomplete = rosterStatus({
      lastSync: { ...at, ok: false, error: 'the total moved from 131 to 129', outcome: 'incomplete' },
    });
    expect(lastSyncText(incomplete, 'en')).toBe('incomplete, the list in use stays; tried again soon');
  });

  it("a failure keeps the service's reason; success and never are worded", () => {
    expect(
      lastSyncText(
        rosterStatus({ lastSync: { ...at, ok: false, error: '500 internal error', outcome: 'failed' } }),
        'pt-BR',
      ),
    ).toBe('falhou: 500 internal error');
    expect(lastSyncText(rosterStatus({ lastSync: { ...at, ok: true, error: null } }), 'en')).toBe('OK, 40 employees');
    expect(lastSyncText(rosterStatus({ lastSync: null }), 'en')).toBe(t('en', 'roster.never'));
  });
});
