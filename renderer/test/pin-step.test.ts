import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { initialModel, screenName, step, type Effect, type Event, type Model } from '../src/machine.js';
import { firstName, pinErrorText, pinTitle } from '../src/pin-step.js';

const ID = { kind: 'id' as const, value: '1008' };
const pinRequired: PunchResultView = {
  ok: false,
  reason: 'pin_required',
  employeeName: 'Ana Paula Ferreira da Silva',
  employeeExternalId: '1008',
};
const wrong = (n: string): PunchResultView => ({
  ok: false,
  reason: 'pin_wrong',
  params: { n },
  employeeName: 'Ana Paula Ferreira da Silva',
  employeeExternalId: '1008',
});
const ok: PunchResultView = {
  ok: true,
  punchId: 1,
  employeeName: 'Ana Paula Ferreira da Silva',
  employeeExternalId: '1008',
  localDate: '2025-03-05',
  localTime: '12:07',
  repeat: false,
};

function run(events: Event[], start: Model): { model: Model; effects: Effect[] } {
  let model = start;
  const effects: Effect[] = [];
  for (const e of events) {
    const s = step(model, e);
    model = s.model;
    effects.push(...s.effects);
  }
  return { model, effects };
}
const ready = (settings: Model['settings']): Model => step(initialModel(), { type: 'ready', settings }).model;
const keys = (s: string): Event[] => [...s].map((key) => ({ type: 'key', key }));
const enter: Event = { type: 'key', key: 'Enter' };
const answer = (result: PunchResultView, credential: typeof ID | null = ID): Event => ({
  type: 'punchAnswer',
  credential,
  result,
  queued: false,
});

describe('the PIN step of a typed ID', () => {
  const named = ready({ pinRequiredFor: ['id'], adminEnabled: false });

  it('asks the agent first, so the PIN step knows whose PIN it asks for', () => {
    const r = run([...keys('1008'), enter], named);
    expect(r.effects).toEqual([{ type: 'punch', credential: ID }]);
    expect(r.model.busy).toBe(true);
    const asked = step(r.model, answer(pinRequired)).model;
    expect(asked.screen).toMatchObject({
      name: 'pin',
      value: '',
      for: { credential: ID },
      employeeName: 'Ana Paula Ferreira da Silva',
    });
    expect(asked.busy).toBe(false);
  });

  it('with names off, goes straight to the PIN without asking', () => {
    const r = run([...keys('1008'), enter], ready({ pinRequiredFor: ['id'], adminEnabled: false, pinShowName: false }));
    expect(r.effects).toEqual([]);
    expect(r.model.screen).toMatchObject({ name: 'pin', for: { credential: ID }, employeeName: null });
  });

  it('a wrong PIN keeps the ID and asks again on the same screen, cleared, with the tries left; the right one punches', () => {
    const onPin = run([...keys('1008'), enter, answer(pinRequired), ...keys('9999'), enter], named);
    expect(onPin.effects.at(-1)).toEqual({ type: 'punch', credential: ID, pin: '9999' });
    const again = step(onPin.model, answer(wrong('4')));
    expect(screenName(again.model)).toBe('pin');
    expect(again.model.busy).toBe(false);
    expect(again.model.screen).toMatchObject({
      name: 'pin',
      value: '',
      for: { credential: ID },
      error: { kind: 'wrong', left: 4 },
      employeeName: 'Ana Paula Ferreira da Silva',
    });
    expect(again.effects).toEqual([{ type: 'sound', sound: 'error' }]);
    // Typing again keeps the message until the next answer; the ID is resubmitted with the new PIN.
    const right = run([...keys('4321'), enter], again.model);
    expect(right.model.screen).toMatchObject({ name: 'pin', value: '4321', error: { kind: 'wrong', left: 4 } });
    expect(right.effects).toEqual([{ type: 'punch', credential: ID, pin: '4321' }]);
    const done = step(right.model, answer(ok));
    expect(done.model.screen).toEqual({ name: 'result', shown: { result: ok, queued: false } });
  });

  it('a PIN of the wrong shape is asked again too, saying the shape', () => {
    const onPin = run([...keys('1008'), enter, answer(pinRequired), ...keys('1'), enter], named).model;
    const bad: PunchResultView = { ok: false, reason: 'pin_wrong', params: { min: '4', max: '8' } };
    expect(step(onPin, answer(bad)).model.screen).toMatchObject({
      name: 'pin',
      value: '',
      error: { kind: 'format', min: '4', max: '8' },
    });
  });

  it('a locked or throttled PIN still ends in the refusal', () => {
    const onPin = run([...keys('1008'), enter, answer(pinRequired), ...keys('9999'), enter], named).model;
    for (const reason of ['pin_locked', 'pin_throttled'] as const) {
      const refused: PunchResultView = { ok: false, reason, params: { until: '12:30', seconds: '30' } };
      const r = step(onPin, answer(refused));
      expect(r.model.screen, reason).toEqual({ name: 'result', shown: { result: refused, queued: false } });
      expect(r.effects).toEqual([{ type: 'sound', sound: 'error' }]);
    }
  });

  it('a wrong answer to a reader’s one-time challenge (spent) shows the refusal, as does a pin_wrong outside the PIN step', () => {
    const challenged: PunchResultView = { ...pinRequired, pinChallenge: 'c0ffee' };
    const onPin = run([{ type: 'punchEvent', result: challenged, queued: false }, ...keys('9999'), enter], named).model;
    expect(screenName(step(onPin, answer(wrong('4'), null)).model)).toBe('result');
    expect(screenName(step(named, answer(wrong('4'))).model)).toBe('result');
  });
});

describe('the PIN step’s words', () => {
  it('names the employee by first name, unless the terminal is set not to', () => {
    expect(firstName('  Ana Paula Ferreira da Silva ')).toBe('Ana');
    expect(pinTitle('Ana Paula Ferreira da Silva', undefined, 'pt-BR')).toBe('Ana, digite seu PIN');
    expect(pinTitle('Ana Paula Ferreira da Silva', true, 'es')).toBe('Ana, ingrese su PIN');
    expect(pinTitle('Ana Paula Ferreira da Silva', false, 'pt-BR')).toBe('Digite seu PIN');
    expect(pinTitle(null, true, 'en')).toBe('Type your PIN');
  });

  it('says the tries left with the plural of the language', () => {
    expect(pinErrorText({ kind: 'wrong', left: 2 }, 'pt-BR')).toBe('PIN incorreto. Restam 2 tentativas.');
    expect(pinErrorText({ kind: 'wrong', left: 1 }, 'pt-BR')).toBe('PIN incorreto. Resta 1 tentativa.');
    expect(pinErrorText({ kind: 'wrong', left: 1 }, 'en')).toBe('Wrong PIN. 1 try left.');
    expect(pinErrorText({ kind: 'wrong', left: 3 }, 'es')).toBe('PIN incorrecto. Quedan 3 intentos.');
    expect(pinErrorText({ kind: 'wrong', left: null }, 'en')).toBe('Wrong PIN. Please try again.');
    expect(pinErrorText({ kind: 'format', min: '4', max: '8' }, 'en')).toBe(
      'A PIN has 4 to 8 digits. Please try again.',
    );
  });
});
