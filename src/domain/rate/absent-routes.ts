/**
 * Which read routes the service does not have, learnt from its answers, so that a route it lacks
 * is asked at most once an hour (then every 2, 4 … 24 hours while it lasts) instead of after every
 * punch. Pure: the caller says what each answer meant and when; nothing here reads a clock.
 *
 * A 405 or a 501 says the route is missing whatever was asked. A 404 may say only that the
 * service has no such employee, so one 404 is a doubt: a second one for another subject (another
 * employee) with no answer of the route in between makes it an absence. A route known to be absent
 * before a restart needs just one 404 to be paused again; any answer of the route ends it.
 */

/** The read routes whose absence the terminal learns, named as a request line. */
export const READ_ROUTES = ['GET /timesheets', 'GET /work-leaves', 'GET /times', 'GET /sites'] as const;
export type ReadRoute = (typeof READ_ROUTES)[number];

/** What one answer says about the route it came from. */
export type RouteSignal =
  /** The route answered as a route does (a 2xx, or a 400 or 422 about the request). */
  | { kind: 'present' }
  /** 404 (`sure` false: it may be about the subject), 405 or 501 (`sure`). */
  | { kind: 'lacks'; status: number; sure: boolean }
  /** Nothing learnt: no answer, a 429, a 5xx, a refused token. */
  | { kind: 'nothing' };

/** A route the service lacks, as status shows it. */
export type AbsentRoute = {
  route: ReadRoute;
  /** The last status that said so. */
  status: number;
  /** The first answer that said so. */
  since: number;
  /** The last answer that said so. */
  lastAt: number;
  /** When it is asked again (one request: the others wait for its answer). */
  nextAt: number;
  /** Pauses so far: the next one is twice as long, up to LONGEST_PAUSE_MS. */
  pauses: number;
};

export type RouteChange = { kind: 'absent' | 'back'; absent: AbsentRoute };

export const FIRST_PAUSE_MS = 3_600_000;
export const LONGEST_PAUSE_MS = 24 * 3_600_000;
/**
 * A request let through after a pause that never reported back (its caller stopped) holds the route no longer than
 * this.
 */
export const PROBE_STALE_MS = 5 * 60_000;

/** The length of pause number `n` (1-based): an hour, doubling, at most a day. */
export function pauseMs(n: number): number {
  return Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.max(0, Math.min(n - 1, 10)));
}

type Entry =
  /** One 404 for `subject`; or (`was`) the route was absent before a restart, so any 404 confirms it. */
  | { state: 'doubt'; subject: string | null; status: number; at: number; was?: AbsentRoute }
  | { state: 'absent'; absent: AbsentRoute; probingSince: number | null };

export class AbsentRoutes {
  private readonly entries = new Map<ReadRoute, Entry>();

  /**
   * `remembered`: routes absent when the terminal last ran against the same service and dialect.
   * They are asked again from `now` (a restart tries again) and one 404 pauses them again.
   */
  constructor(remembered: readonly AbsentRoute[] = [], now = 0) {
    for (const r of remembered) {
      this.entries.set(r.route, {
        state: 'doubt',
        subject: null,
        status: r.status,
        at: r.since,
        was: { ...r, nextAt: Math.min(r.nextAt, now) },
      });
    }
  }

  /**
   * Whether a request to `route` may go at `now`: null to ask, else the absence that holds it back.
   * Once a pause is over, the first caller is let through (its answer decides) and the others wait.
   */
  check(route: ReadRoute, now: number): AbsentRoute | null {
    const e = this.entries.get(route);
    if (!e || e.state !== 'absent') return null;
    if (now < e.absent.nextAt) return { ...e.absent };
    if (e.probingSince !== null && now - e.probingSince < PROBE_STALE_MS) return { ...e.absent };
    e.probingSince = now;
    return null;
  }

  /** The absence of `route`, if it is known, without taking the request a finished pause lets through. */
  absent(route: ReadRoute): AbsentRoute | null {
    const e = this.entries.get(route);
    return e?.state === 'absent' ? { ...e.absent } : null;
  }

  /**
   * Learns from the answer of a request to `route` about `subject` (the employee, the site); a change for status and
   * the log, or null.
   */
  note(route: ReadRoute, subject: string, signal: RouteSignal, now: number): RouteChange | null {
    const e = this.entries.get(route);
    if (signal.kind === 'present') {
      if (!e) return null;
      this.entries.delete(route);
      const was = e.state === 'absent' ? e.absent : e.was;
      return was ? { kind: 'back', absent: { ...was, nextAt: now } } : null;
    }
    if (signal.kind === 'nothing') {
      // The request let through after the pause proved nothing: another pause of the same length.
      if (e?.state === 'absent' && e.probingSince !== null) {
        e.probingSince = null;
        e.absent.nextAt = now + pauseMs(e.absent.pauses);
      }
      return null;
    }
    if (e?.state === 'absent') {
      e.absent.status = signal.status;
      e.absent.lastAt = now;
      // An answer to a request that left before the pause began changes nothing; the probe's doubles it.
      if (e.probingSince === null) return null;
      e.probingSince = null;
      e.absent.pauses += 1;
      e.absent.nextAt = now + pauseMs(e.absent.pauses);
      return { kind: 'absent', absent: { ...e.absent } };
    }
    const confirmed = signal.sure || (e !== undefined && (e.subject === null || e.subject !== subject));
    if (!confirmed) {
      if (!e) this.entries.set(route, { state: 'doubt', subject, status: signal.status, at: now });
      return null;
    }
    const absent: AbsentRoute = {
      route,
      status: signal.status,
      since: e?.at ?? now,
      lastAt: now,
      nextAt: now + pauseMs(1),
      pauses: 1,
    };
    this.entries.set(route, { state: 'absent', absent, probingSince: null });
    return { kind: 'absent', absent: { ...absent } };
  }

  /** The routes known to be absent, and those absent before a restart not asked again yet, in READ_ROUTES order. */
  list(): AbsentRoute[] {
    const out: AbsentRoute[] = [];
    for (const route of READ_ROUTES) {
      const e = this.entries.get(route);
      if (e?.state === 'absent') out.push({ ...e.absent });
      else if (e?.was) out.push({ ...e.was });
    }
    return out;
  }
}
