import { describe, expect, it } from 'vitest';
import {
  AbsentRoutes,
  FIRST_PAUSE_MS,
  LONGEST_PAUSE_MS,
  pauseMs,
  PROBE_STALE_MS,
  type RouteSignal,
} from '../../src/domain/rate/absent-routes.js';
import { routeSignal } from '../../src/sync/delivery/route-gate.js';

const H = 3_600_000;
const lacks404: RouteSignal = { kind: 'lacks', status: 404, sure: false };
const lacks405: RouteSignal = { kind: 'lacks', status: 405, sure: true };
const present: RouteSignal = { kind: 'present' };
const nothing: RouteSignal = { kind: 'nothing' };

describe('pauses of a route the service lacks', () => {
  it('an hour, doubling, at most a day', () => {
    expect([1, 2, 3, 4, 5, 6, 40].map(pauseMs)).toEqual([H, 2 * H, 4 * H, 8 * H, 16 * H, 24 * H, 24 * H]);
    expect(FIRST_PAUSE_MS).toBe(H);
    expect(LONGEST_PAUSE_MS).toBe(24 * H);
  });
});

describe('AbsentRoutes', () => {
  it('one 404 is a doubt (it may be about the employee); a 404 for another employee makes it an absence, dated from the first', () => {
    const r = new AbsentRoutes();
    expect(r.note('GET /timesheets', 'e:1', lacks404, 1_000)).toBeNull();
    expect(r.check('GET /timesheets', 1_001)).toBeNull();
    // The same employee again proves nothing more.
    expect(r.note('GET /timesheets', 'e:1', lacks404, 2_000)).toBeNull();
    expect(r.check('GET /timesheets', 2_001)).toBeNull();
    const change = r.note('GET /timesheets', 'e:2', lacks404, 3_000);
    expect(change).toEqual({
      kind: 'absent',
      absent: { route: 'GET /timesheets', status: 404, since: 1_000, lastAt: 3_000, nextAt: 3_000 + H, pauses: 1 },
    });
    expect(r.check('GET /timesheets', 3_000 + H - 1)).toMatchObject({ route: 'GET /timesheets', nextAt: 3_000 + H });
    // Other routes are not touched.
    expect(r.check('GET /work-leaves', 4_000)).toBeNull();
  });

  it('an answer of the route in between clears the doubt', () => {
    const r = new AbsentRoutes();
    r.note('GET /times', 'e:1', lacks404, 0);
    expect(r.note('GET /times', 'e:2', present, 1)).toBeNull();
    expect(r.note('GET /times', 'e:3', lacks404, 2)).toBeNull();
    expect(r.check('GET /times', 3)).toBeNull();
  });

  it('405 and 501 are about the route: absent at once', () => {
    const r = new AbsentRoutes();
    expect(r.note('GET /work-leaves', 'e:1', lacks405, 10)?.kind).toBe('absent');
    expect(r.note('GET /sites', 's', { kind: 'lacks', status: 501, sure: true }, 10)?.absent).toMatchObject({
      status: 501,
      since: 10,
    });
    expect(r.list().map((a) => a.route)).toEqual(['GET /work-leaves', 'GET /sites']);
  });

  it('after the pause one request goes (the others wait for its answer); another absence doubles the pause, an answer ends it', () => {
    const r = new AbsentRoutes();
    r.note('GET /timesheets', 'x', lacks405, 0);
    expect(r.check('GET /timesheets', H)).toBeNull(); // the probe
    expect(r.check('GET /timesheets', H + 1)).not.toBeNull(); // the others wait
    expect(r.note('GET /timesheets', 'y', lacks405, H + 10)).toMatchObject({
      kind: 'absent',
      absent: { pauses: 2, nextAt: H + 10 + 2 * H },
    });
    expect(r.check('GET /timesheets', 3 * H)).not.toBeNull();
    expect(r.check('GET /timesheets', 3 * H + 10)).toBeNull();
    expect(r.note('GET /timesheets', 'z', present, 3 * H + 20)).toMatchObject({
      kind: 'back',
      absent: { route: 'GET /timesheets' },
    });
    expect(r.list()).toEqual([]);
    expect(r.check('GET /timesheets', 3 * H + 30)).toBeNull();
  });

  it('a probe that proves nothing (no answer, a 503) waits another pause of the same length; one that never reports is retried after a while', () => {
    const r = new AbsentRoutes();
    r.note('GET /times', 'x', lacks405, 0);
    expect(r.check('GET /times', H)).toBeNull();
    expect(r.note('GET /times', 'x', nothing, H + 5)).toBeNull();
    expect(r.check('GET /times', 2 * H + 4)).not.toBeNull();
    expect(r.check('GET /times', 2 * H + 5)).toBeNull();
    // Its caller stopped: no answer ever comes.
    expect(r.check('GET /times', 2 * H + 5 + PROBE_STALE_MS - 1)).not.toBeNull();
    expect(r.check('GET /times', 2 * H + 5 + PROBE_STALE_MS)).toBeNull();
  });

  it('an answer to a request that left before the pause began changes nothing', () => {
    const r = new AbsentRoutes();
    r.note('GET /times', 'x', lacks405, 0);
    expect(r.note('GET /times', 'y', lacks405, 5)).toBeNull();
    expect(r.list()[0]).toMatchObject({ pauses: 1, nextAt: H, lastAt: 5 });
  });

  it('a route absent before a restart is asked again at once, and one 404 pauses it again from its first date', () => {
    const before = {
      route: 'GET /timesheets' as const,
      status: 404,
      since: 100,
      lastAt: 200,
      nextAt: 50 * H,
      pauses: 3,
    };
    const r = new AbsentRoutes([before], 1_000);
    expect(r.list()).toEqual([{ ...before, nextAt: 1_000 }]);
    expect(r.check('GET /timesheets', 1_000)).toBeNull();
    expect(r.note('GET /timesheets', 'e:1', lacks404, 2_000)).toEqual({
      kind: 'absent',
      absent: { route: 'GET /timesheets', status: 404, since: 100, lastAt: 2_000, nextAt: 2_000 + H, pauses: 1 },
    });
    // Or it answers now: told as back, and forgotten.
    const r2 = new AbsentRoutes([before], 1_000);
    expect(r2.note('GET /timesheets', 'e:1', present, 2_000)?.kind).toBe('back');
    expect(r2.list()).toEqual([]);
  });
});

describe('routeSignal: what an API answer says of its route', () => {
  it('reads 404 as a doubt, 405 and 501 as sure, 2xx/400/422 as present, the rest as nothing', () => {
    expect(routeSignal({ kind: 'ok', status: 200, value: null, serverDate: null })).toEqual(present);
    expect(routeSignal({ kind: 'refused', status: 404, reason: '404 x', serverDate: null })).toEqual(lacks404);
    expect(routeSignal({ kind: 'refused', status: 405, reason: '405 x', serverDate: null })).toEqual(lacks405);
    expect(routeSignal({ kind: 'refused', status: 400, reason: '400 x', serverDate: null })).toEqual(present);
    expect(routeSignal({ kind: 'setup', status: 404, reason: 'html', location: null, serverDate: null })).toEqual(
      lacks404,
    );
    expect(routeSignal({ kind: 'setup', status: 302, reason: 'moved', location: '/x', serverDate: null })).toEqual(
      nothing,
    );
    expect(routeSignal({ kind: 'server_error', status: 501, error: 'x', serverDate: null })).toEqual({
      kind: 'lacks',
      status: 501,
      sure: true,
    });
    expect(routeSignal({ kind: 'server_error', status: 503, error: 'x', serverDate: null })).toEqual(nothing);
    expect(routeSignal({ kind: 'not_sent', error: 'ECONNREFUSED' })).toEqual(nothing);
    expect(routeSignal({ kind: 'rate_limited', retryAfterHeader: null, serverDate: null })).toEqual(nothing);
  });
});
