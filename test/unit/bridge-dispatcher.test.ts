/**
 * src/bridge/dispatcher.ts against a stand-in agent that behaves as the real one does where it
 * matters here: a punch's event is emitted inside the call (after its awaits), before it returns.
 */
import { describe, expect, it } from 'vitest';
import type { BridgeAgent } from '../../src/agent/bridge-handlers.js';
import { createDispatcher, refusal, type Caller } from '../../src/bridge/dispatcher.js';
import type { EventName, EventPayload, PunchResultView } from '../../src/contract.js';
import { createLogger } from '../../src/log.js';

type Emitted = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];

const result = (name: string): PunchResultView => ({
  ok: true,
  punchId: 1,
  employeeName: name,
  employeeExternalId: '1001',
  localDate: '2025-03-05',
  localTime: '12:07',
  repeat: false,
});

function standIn() {
  const listeners = { punch: new Set<(p: unknown) => void>(), status: new Set<(p: unknown) => void>() };
  const emit = (p: unknown): void => listeners.punch.forEach((fn) => fn(p));
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const agent = {
    on: (event: 'punch' | 'status', fn: (p: unknown) => void) => {
      listeners[event].add(fn);
      return () => listeners[event].delete(fn);
    },
    punch: async (credential: { value: string }) => {
      await gate;
      const r = credential.value === 'bad' ? { ...result('x'), punchId: 'not a number' } : result(credential.value);
      emit(r);
      return r;
    },
    status: () => ({ not: 'a status' }),
  };
  return { agent: agent as unknown as BridgeAgent, emit, release };
}

function setup() {
  const s = standIn();
  const lines: string[] = [];
  const d = createDispatcher({
    agent: s.agent,
    adminPin: { verify: async (p) => p === '4321' },
    log: createLogger({ level: 'debug', write: (l) => lines.push(l) }),
  });
  const caller: Caller = { session: d.newSession(), via: 'test' };
  const got: Emitted[] = [];
  const off = d.subscribe((name, payload) => got.push({ name, payload } as Emitted));
  return { ...s, d, caller, got, off, lines };
}

describe('the bridge dispatcher', () => {
  it('echoes a punch call’s requestId in the event of its result, and only there', async () => {
    const { d, caller, got, emit, release } = setup();
    const call = d.dispatch(
      'punch',
      () => ({ input: { credential: { kind: 'id', value: 'Ana' }, requestId: 'r-1' } }),
      caller,
    );
    // A reader's punch while the call waits: not the call's, so no id.
    emit(result('Bia'));
    release();
    const answer = await call;
    expect(answer).toEqual({ ok: true, value: result('Ana') });
    expect(got).toEqual([
      { name: 'punch', payload: result('Bia') },
      { name: 'punch', payload: { ...result('Ana'), requestId: 'r-1' } },
    ]);
    // A call without an id: its event has none either.
    await d.dispatch('punch', () => ({ input: { credential: { kind: 'id', value: 'Caio' } } }), caller);
    expect(got[2]).toEqual({ name: 'punch', payload: result('Caio') });
    expect('requestId' in got[2]!.payload).toBe(false);
  });

  it('gates admin calls before the transport reads the input', async () => {
    const { d, caller } = setup();
    let read = false;
    const r = await d.dispatch('listRejected', () => ((read = true), { input: {} }), caller);
    expect(r).toEqual(refusal('forbidden', 'admin session required'));
    expect(read).toBe(false);
  });

  it('hands a framing refusal back as it is, refuses input outside the contract with where it was wrong', async () => {
    const { d, caller } = setup();
    expect(await d.dispatch('status', () => ({ refused: 'too large' }), caller)).toEqual({ refused: 'too large' });
    const bad = await d.dispatch('punch', () => ({ input: { credential: { kind: 'id' }, requestId: 'r 2' } }), caller);
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: 'input does not fit the punch call' },
    });
    expect(bad).toHaveProperty('error.issues', [
      { path: ['credential', 'value'], message: expect.any(String) },
      { path: ['requestId'], message: expect.any(String) },
    ]);
  });

  it('a punch answer or event outside the contract still goes out with what fits (issue 23); any other answer is an internal error; logged without its content', async () => {
    const { d, caller, got, release, lines } = setup();
    release();
    // The punch is stored: its facts go back, the field that did not fit is left out (punchId: null).
    const salvaged = { ...result('x'), punchId: null };
    expect(await d.dispatch('punch', () => ({ input: { credential: { kind: 'id', value: 'bad' } } }), caller)).toEqual({
      ok: true,
      value: salvaged,
    });
    expect(got).toEqual([{ name: 'punch', payload: salvaged }]);
    expect(
      lines.some(
        (l) =>
          l.includes('test punch answer outside the contract: sent with what fits') &&
          l.includes('"call":"punch"') &&
          l.includes('punchId'),
      ),
    ).toBe(true);
    expect(lines.some((l) => l.includes('punch event outside the contract: sent with what fits'))).toBe(true);
    expect(lines.some((l) => l.includes('not a number'))).toBe(false);
    expect(await d.dispatch('status', () => ({ input: {} }), caller)).toEqual(refusal('internal', 'the call failed'));
    expect(
      lines.some((l) => l.includes('test call answered outside the contract') && l.includes('"call":"status"')),
    ).toBe(true);
  });

  it('stops forwarding when unsubscribed', async () => {
    const { d, caller, got, off, release } = setup();
    off();
    release();
    await d.dispatch(
      'punch',
      () => ({ input: { credential: { kind: 'id', value: 'Ana' }, requestId: 'r-3' } }),
      caller,
    );
    expect(got).toEqual([]);
  });
});
