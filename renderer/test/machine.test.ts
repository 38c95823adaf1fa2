import { describe, expect, it } from 'vitest';
import type { PunchResultView } from '../../src/contract.js';
import { initialModel, screenName, step, type Effect, type Event, type Model } from '../src/machine.js';
import { loginErrorText } from '../src/screens/keypad.js';

const okResult: PunchResultView = {
  ok: true,
  punchId: 1,
  employeeName: 'Ana',
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '12:07',
  repeat: false,
};
const pinRequired: PunchResultView = {
  ok: false,
  reason: 'pin_required',
  employeeName: 'Ana',
  employeeExternalId: '1001',
};

function run(events: Event[], start: Model = ready()): { model: Model; effects: Effect[] } {
  let model = start;
  const effects: Effect[] = [];
  for (const e of events) {
    const s = step(model, e);
    model = s.model;
    effects.push(...s.effects);
  }
  return { model, effects };
}

function ready(settings: Model['settings'] = { pinRequiredFor: [], adminEnabled: true }): Model {
  return step(initialModel(), { type: 'ready', settings }).model;
}

const keys = (s: string): Event[] => [...s].map((key) => ({ type: 'key', key }));

describe('screen flow', () => {
  it('starts loading and shows idle once settings and status are in', () => {
    expect(screenName(initialModel())).toBe('loading');
    expect(screenName(ready())).toBe('idle');
  });

  it('a digit typed on idle opens the keypad with that digit; OK punches the ID once', () => {
    const { model, effects } = run([...keys('1001'), { type: 'key', key: 'Enter' }, { type: 'key', key: 'Enter' }]);
    expect(model.screen).toMatchObject({ name: 'keypad', value: '1001' });
    expect(effects).toEqual([{ type: 'punch', credential: { kind: 'id', value: '1001' } }]);
  });

  it('backspace, clear and cancel edit or leave the keypad; OK on nothing does nothing', () => {
    expect(run([{ type: 'openKeypad' }, ...keys('123'), { type: 'key', key: 'Backspace' }]).model.screen).toMatchObject(
      { value: '12' },
    );
    expect(
      run([{ type: 'openKeypad' }, ...keys('123'), { type: 'key', key: 'Clear' }, { type: 'key', key: 'Enter' }])
        .effects,
    ).toEqual([]);
    expect(screenName(run([{ type: 'openKeypad' }, ...keys('12'), { type: 'key', key: 'Escape' }]).model)).toBe('idle');
  });

  it('the answer shows as a result with a sound; the result times out (or a tap dismisses) to idle', () => {
    const r = run([
      ...keys('1001'),
      { type: 'key', key: 'Enter' },
      { type: 'punchAnswer', credential: { kind: 'id', value: '1001' }, result: okResult, queued: true },
    ]);
    expect(r.model.screen).toEqual({ name: 'result', shown: { result: okResult, queued: true } });
    expect(r.effects).toContainEqual({ type: 'sound', sound: 'success' });
    expect(screenName(step(r.model, { type: 'timeout' }).model)).toBe('idle');
    expect(screenName(step(r.model, { type: 'dismiss' }).model)).toBe('idle');
  });

  it('a punch kept with a note (no employee list yet, unknown code, not allowed by API) still plays the success sound', () => {
    for (const note of ['awaiting_roster', 'unknown_code', 'held_not_allowed'] as const) {
      const result: PunchResultView = { ...okResult, note, employeeName: note === 'held_not_allowed' ? 'Ana' : null };
      const r = run([{ type: 'punchEvent', result, queued: false }]);
      expect(r.model.screen, note).toEqual({ name: 'result', shown: { result, queued: false } });
      expect(r.effects, note).toEqual([{ type: 'sound', sound: 'success' }]);
    }
  });

  it('a pin_required answer asks for the PIN and resubmits the same credential with it', () => {
    const badge = { kind: 'badge' as const, value: 'AB12CD' };
    const r = run([
      { type: 'scan', code: 'AB12CD' },
      { type: 'punchAnswer', credential: badge, result: pinRequired, queued: false },
      ...keys('4321'),
      { type: 'key', key: 'Enter' },
    ]);
    expect(r.model.screen).toMatchObject({ name: 'pin', employeeName: 'Ana', value: '4321' });
    expect(r.effects).toEqual([
      { type: 'badgeScan', code: 'AB12CD' },
      { type: 'punch', credential: badge, pin: '4321' },
    ]);
  });

  it('a badge from a reader (an event) that needs a PIN asks for it and answers the agent’s challenge', () => {
    const challenged: PunchResultView = { ...pinRequired, pinChallenge: 'c0ffee' };
    const r = run([
      { type: 'punchEvent', result: challenged, queued: false },
      ...keys('4321'),
      { type: 'key', key: 'Enter' },
    ]);
    expect(r.model.screen).toMatchObject({ name: 'pin', employeeName: 'Ana', for: { challenge: 'c0ffee' } });
    expect(r.effects).toEqual([{ type: 'answerPin', challenge: 'c0ffee', pin: '4321' }]);
    // Someone typing an ID on the keypad is not taken over by a scan's PIN request.
    const typing = run([...keys('10'), { type: 'punchEvent', result: challenged, queued: false }]);
    expect(screenName(typing.model)).not.toBe('pin');
  });

  it('goes straight to the PIN when IDs need one and the PIN step names nobody, and a PIN takes digits only', () => {
    const m = ready({ pinRequiredFor: ['id'], adminEnabled: false, pinShowName: false });
    const r = run([...keys('1001'), { type: 'key', key: 'Enter' }, ...keys('1a2'), { type: 'key', key: 'Enter' }], m);
    expect(r.effects).toEqual([{ type: 'punch', credential: { kind: 'id', value: '1001' }, pin: '12' }]);
  });

  it('a refusal plays the error sound; a scan already taken another way (null) shows nothing', () => {
    const refused: PunchResultView = { ok: false, reason: 'pin_wrong' };
    expect(
      run([{ type: 'punchAnswer', credential: { kind: 'id', value: '1' }, result: refused, queued: false }]).effects,
    ).toEqual([{ type: 'sound', sound: 'error' }]);
    const none = run([
      { type: 'scan', code: 'X1234' },
      { type: 'punchAnswer', credential: { kind: 'badge', value: 'X1234' }, result: null, queued: false },
    ]);
    expect(screenName(none.model)).toBe('idle');
    expect(none.effects).toEqual([{ type: 'badgeScan', code: 'X1234' }]);
  });

  it('the keypad gives up after inactivity', () => {
    expect(screenName(run([{ type: 'openKeypad' }, ...keys('1'), { type: 'timeout' }]).model)).toBe('idle');
  });

  it('a call that failed shows a refusal, not a silent return', () => {
    const r = run([...keys('1'), { type: 'key', key: 'Enter' }, { type: 'punchFailed', message: 'network' }]);
    expect(r.model.screen).toEqual({ name: 'result', shown: { result: null, failure: 'network' } });
    expect(r.model.busy).toBe(false);
  });
});

describe('administration', () => {
  const login = (pin: string): Event[] => [{ type: 'openAdmin' }, ...keys(pin), { type: 'key', key: 'Enter' }];

  it('admin is closed when the terminal has it disabled', () => {
    expect(screenName(run([{ type: 'openAdmin' }], ready({ pinRequiredFor: [], adminEnabled: false })).model)).toBe(
      'idle',
    );
  });

  it('a wrong PIN stays on the login with a message; the right one opens admin', () => {
    const wrong = run([...login('1111'), { type: 'adminLoginAnswer', ok: false, code: 'wrong_pin' }]);
    expect(wrong.effects).toContainEqual({ type: 'adminLogin', pin: '1111' });
    expect(wrong.model.screen).toEqual({ name: 'admin-login', value: '', error: { kind: 'wrong' } });
    const tooMany = step(wrong.model, { type: 'adminLoginAnswer', ok: false, code: 'too_many' });
    expect(tooMany.model.screen).toMatchObject({ error: { kind: 'too_many' } });
    const right = run(
      [...keys('2468'), { type: 'key', key: 'Enter' }, { type: 'adminLoginAnswer', ok: true, code: 'opened' }],
      wrong.model,
    );
    expect(screenName(right.model)).toBe('admin');
  });

  it('a locked-out login (issue 25) says "locked for N min" in the screen’s language, never "wrong PIN", even to the right PIN', () => {
    const locked = run([
      ...login('2468'),
      { type: 'adminLoginAnswer', ok: false, code: 'too_many', lockedForMs: 14 * 60_000 + 1 },
    ]);
    expect(locked.model.screen).toEqual({
      name: 'admin-login',
      value: '',
      error: { kind: 'too_many', lockedForMs: 14 * 60_000 + 1 },
    });
    const error = { kind: 'too_many' as const, lockedForMs: 14 * 60_000 + 1 };
    expect(loginErrorText(error, 'pt-BR')).toMatch(/^Bloqueado por 15 min\b/);
    expect(loginErrorText(error, 'es')).toMatch(/^Bloqueado por 15 min\b/);
    expect(loginErrorText(error, 'en')).toMatch(/^Locked for 15 min\b/);
    expect(loginErrorText(error, 'pt-BR')).not.toMatch(/incorreto\. Tente/);
    expect(loginErrorText({ kind: 'too_many', lockedForMs: 30_000 }, 'pt-BR')).toMatch(/^Bloqueado por 1 min\b/);
  });

  const inAdmin = (): Model => run([...login('2468'), { type: 'adminLoginAnswer', ok: true, code: 'opened' }]).model;

  it('an expired session goes back to the login saying so', () => {
    expect(step(inAdmin(), { type: 'sessionExpired' }).model.screen).toEqual({
      name: 'admin-login',
      value: '',
      error: { kind: 'expired' },
    });
  });

  it('lock and inactivity leave admin and end the session', () => {
    for (const e of [{ type: 'lock' }, { type: 'timeout' }] as Event[]) {
      const r = step(inAdmin(), e);
      expect(screenName(r.model)).toBe('idle');
      expect(r.effects).toEqual([{ type: 'lock' }]);
    }
  });

  it('a punch while admin is open is reported in the admin message area, not over it', () => {
    const r = step(inAdmin(), { type: 'punchEvent', result: okResult, queued: false });
    expect(screenName(r.model)).toBe('admin');
    expect(r.effects).toContainEqual({ type: 'adminNotice', shown: { result: okResult, queued: false } });
  });
});

describe('agent not answering', () => {
  it('shows the offline-agent screen, drops what was typed, and returns to idle', () => {
    const typing = run([...keys('10')]).model;
    const down = step(typing, { type: 'reachable', reachable: false }).model;
    expect(screenName(down)).toBe('offline-agent');
    expect(screenName(step(down, { type: 'key', key: '5' }).model)).toBe('offline-agent');
    const back = step(down, { type: 'reachable', reachable: true }).model;
    expect(screenName(back)).toBe('idle');
  });

  it('before settings arrive it goes back to loading, not idle', () => {
    const down = step(initialModel(), { type: 'reachable', reachable: false }).model;
    expect(screenName(step(down, { type: 'reachable', reachable: true }).model)).toBe('loading');
  });
});
