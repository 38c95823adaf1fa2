import { describe, expect, it } from 'vitest';
import { connectionOf, isQueued, Reachability } from '../src/connection.js';
import { status } from './status-fixture.js';

describe('connection state', () => {
  it('reports online, offline with the waiting count, paused and unknown', () => {
    expect(connectionOf(status())).toEqual({ state: 'online', waiting: 0 });
    expect(connectionOf(status({ online: false, unsent: 4 }))).toEqual({ state: 'offline', waiting: 4 });
    expect(connectionOf(status({ online: true, unsent: 2, sendingPaused: { reason: 'auth', until: 10 } }))).toEqual({
      state: 'paused',
      waiting: 2,
    });
    expect(connectionOf(status({ online: null }))).toEqual({ state: 'unknown', waiting: 0 });
    expect(connectionOf(null)).toEqual({ state: 'unknown', waiting: 0 });
  });

  it('a set-up problem (wrong address, not the API) is its own state, ahead of paused, online and offline', () => {
    const setupProblem = {
      at: 1,
      reason: 'the service answered from another address: https://login.example.com/ (HTTP 302)',
      location: 'https://login.example.com/',
    };
    expect(connectionOf(status({ setupProblem, unsent: 3 }))).toEqual({ state: 'setup', waiting: 3 });
    expect(connectionOf(status({ setupProblem, online: false }))).toEqual({ state: 'setup', waiting: 0 });
    expect(connectionOf(status({ setupProblem, online: null }))).toEqual({ state: 'setup', waiting: 0 });
    expect(connectionOf(status({ setupProblem, sendingPaused: { reason: 'retry_after', until: 10 } }))).toEqual({
      state: 'setup',
      waiting: 0,
    });
    // Cleared by the next answer of the API: back to what the contact says.
    expect(connectionOf(status({ setupProblem: null }))).toEqual({ state: 'online', waiting: 0 });
  });

  it('a service answering with server errors is its own state: not online, not "no connection"', () => {
    const service = { state: 'errors' as const, since: 5, reason: 'HTTP 503' };
    expect(connectionOf(status({ online: false, service, unsent: 3 }))).toEqual({ state: 'errors', waiting: 3 });
    expect(isQueued(status({ online: false, service }))).toBe(true);
    // Paused sending and a set-up problem still come first.
    expect(
      connectionOf(status({ online: false, service, sendingPaused: { reason: 'retry_after', until: 10 } })).state,
    ).toBe('paused');
    expect(connectionOf(status({ online: false, service: { state: 'offline', since: 5, reason: null } })).state).toBe(
      'offline',
    );
  });

  it('calls a punch queued unless the terminal is online and sending', () => {
    expect(isQueued(status())).toBe(false);
    expect(isQueued(status({ online: false }))).toBe(true);
    expect(isQueued(status({ online: null }))).toBe(true);
    expect(isQueued(status({ sendingPaused: { reason: 'retry_after', until: 5 } }))).toBe(true);
    expect(isQueued(null)).toBe(true);
    expect(
      isQueued(
        status({
          setupProblem: {
            at: 1,
            reason: 'this address does not look like the API (HTTP 200, text/html: <html>)',
            location: null,
          },
        }),
      ),
    ).toBe(true);
  });
});

describe('agent reachability', () => {
  it('turns unreachable only after failures for more than 5 s, and back at the first success', () => {
    const r = new Reachability(5_000);
    r.fail(1_000);
    r.fail(4_000); // a later failure does not restart the grace period
    expect(r.unreachable(6_000)).toBe(false);
    expect(r.nextCheckAt()).toBe(6_001);
    expect(r.unreachable(6_001)).toBe(true);
    r.ok();
    expect(r.unreachable(60_000)).toBe(false);
    expect(r.nextCheckAt()).toBeNull();
  });
});
