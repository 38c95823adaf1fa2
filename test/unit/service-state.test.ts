import { describe, expect, it } from 'vitest';
import { BAD_IN_A_ROW, ServiceState, type ServiceObservation } from '../../src/domain/rate/service-state.js';

const ok: ServiceObservation = { kind: 'answer', status: 201 };
const e503: ServiceObservation = { kind: 'answer', status: 503 };
const lost: ServiceObservation = { kind: 'lost', reason: 'ECONNRESET' };

/** The states a sequence of observations goes through (one per change). */
function run(seq: ServiceObservation[], s = new ServiceState()): string[] {
  return seq.map((o, i) => s.observe(o, i)?.state).filter((x): x is NonNullable<typeof x> => x !== undefined);
}

describe('whether the service answers', () => {
  it('is unknown before any request; the first answer or the first lost request decides', () => {
    expect(new ServiceState().current).toBeNull();
    expect(run([ok])).toEqual(['online']);
    expect(run([lost])).toEqual(['offline']);
    expect(run([e503])).toEqual(['errors']);
  });

  it('one lost connection, or two, amid good answers keeps it online', () => {
    expect(run([ok, lost, ok, lost, lost, ok, lost, ok])).toEqual(['online']);
  });

  it(`${BAD_IN_A_ROW} lost requests in a row are offline; any answer is back`, () => {
    expect(run([ok, lost, lost, lost, ok])).toEqual(['online', 'offline', 'online']);
  });

  it('a run of server errors is "answering errors", not online, though every one was an answer', () => {
    const s = new ServiceState();
    expect(run([ok, e503, e503], s)).toEqual(['online']);
    expect(s.observe(e503, 10)).toEqual({ state: 'errors', since: 10, reason: 'HTTP 503' });
    // Lost requests among the errors do not make it online, and three of them in a row make it offline.
    expect(run([ok, e503, lost, e503, lost, e503])).toEqual(['online', 'errors']);
    expect(run([e503, lost, lost, lost])).toEqual(['errors', 'offline']);
    // 501 is a route the service lacks (it answers): not an error.
    expect(
      run([ok, { kind: 'answer', status: 501 }, { kind: 'answer', status: 501 }, { kind: 'answer', status: 501 }]),
    ).toEqual(['online']);
  });

  it("the liveness check's unreachable host is offline at once; its return is not online until an answer", () => {
    const s = new ServiceState();
    s.observe(ok, 0);
    expect(s.observe({ kind: 'host', reachable: false, reason: 'ECONNREFUSED 127.0.0.1:1' }, 5)).toEqual({
      state: 'offline',
      since: 5,
      reason: 'ECONNREFUSED 127.0.0.1:1',
    });
    expect(s.observe({ kind: 'host', reachable: true, reason: null }, 6)).toBeNull();
    expect(s.current?.state).toBe('offline');
    expect(s.observe(ok, 7)?.state).toBe('online');
  });
});
