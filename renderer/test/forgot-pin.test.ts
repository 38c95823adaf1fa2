/** The state machine's part of issue 29 item 6: "Esqueci meu PIN" on the PIN step, and the shift lead's session. */
import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { initialModel, step, type Effect, type Event, type Model } from '../src/machine.js';

const pinRequired: PunchResultView = {
  ok: false,
  reason: 'pin_required',
  employeeName: 'Ana',
  employeeExternalId: '1001',
};
const held: PunchResultView = {
  ok: true,
  punchId: 7,
  employeeName: 'Ana',
  employeeExternalId: '1001',
  localDate: '2026-11-27',
  localTime: '07:58',
  repeat: false,
  note: 'held_pin_unverified',
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

const ready = step(initialModel(), { type: 'ready', settings: { pinRequiredFor: ['id'], adminEnabled: true } }).model;
const credential = { kind: 'id' as const, value: '1001' };

describe('"Esqueci meu PIN" (issue 29)', () => {
  it('on the PIN step of a typed ID: one forgotPin call for that credential, then the held result', () => {
    const atPin = run(
      [
        { type: 'openKeypad' },
        ...[...'1001'].map((key): Event => ({ type: 'key', key })),
        { type: 'key', key: 'Enter' },
        { type: 'punchAnswer', credential, result: pinRequired, queued: false },
      ],
      ready,
    );
    expect(atPin.model.screen.name).toBe('pin');
    const asked = run([{ type: 'forgotPin' }, { type: 'forgotPin' }], atPin.model);
    expect(asked.effects).toEqual([{ type: 'forgotPin', for: { credential } }]);
    const shown = run([{ type: 'punchAnswer', credential: null, result: held, queued: false }], asked.model);
    expect(shown.model.screen).toMatchObject({ name: 'result', shown: { result: { note: 'held_pin_unverified' } } });
  });

  it("on a reader's PIN step it answers the challenge; elsewhere it does nothing", () => {
    const atPin = run(
      [{ type: 'punchEvent', result: { ...pinRequired, pinChallenge: 'c'.repeat(32) }, queued: false }],
      ready,
    );
    expect(run([{ type: 'forgotPin' }], atPin.model).effects).toEqual([
      { type: 'forgotPin', for: { challenge: 'c'.repeat(32) } },
    ]);
    expect(run([{ type: 'forgotPin' }], ready).effects).toEqual([]);
  });

  it("a shift lead's login opens the admin screen in the lead's role; the manager's in none", () => {
    const login = run([{ type: 'openAdmin' }], ready).model;
    expect(run([{ type: 'adminLoginAnswer', ok: true, code: 'opened', role: 'lead' }], login).model.screen).toEqual({
      name: 'admin',
      role: 'lead',
    });
    expect(run([{ type: 'adminLoginAnswer', ok: true, code: 'opened', role: 'manager' }], login).model.screen).toEqual({
      name: 'admin',
    });
  });
});
