/**
 * The read routes the service lacks, at the door of every caller that reads them (the employee's
 * day, reconciliation, the roster's site): asked before a request is made (no budget slot is
 * taken for a route on pause) and told every answer. The rules are domain/rate/absent-routes.ts; this
 * reads API answers into them, words the reason, and tells the agent when the list changes.
 */
import type { ApiOutcome } from '../../api/classify.js';
import { AbsentRoutes, type AbsentRoute, type ReadRoute, type RouteSignal } from '../../domain/rate/absent-routes.js';
import type { Clock } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';

export type { AbsentRoute, ReadRoute } from '../../domain/rate/absent-routes.js';

/** What an answer says about its route: 404 may be about the subject, 405 and 501 are about the route. */
export function routeSignal(res: ApiOutcome<unknown>): RouteSignal {
  switch (res.kind) {
    case 'ok':
      return { kind: 'present' };
    case 'refused':
      // A 400 or 422 means the route read the request; a 2xx whose body says it failed too.
      if (res.status === 404) return { kind: 'lacks', status: 404, sure: false };
      if (res.status === 405) return { kind: 'lacks', status: 405, sure: true };
      return { kind: 'present' };
    case 'setup':
      // A proxy's HTML page: a 404 there may be a wrong base URL for everything, so it is only a doubt too.
      if (res.status === 404) return { kind: 'lacks', status: 404, sure: false };
      if (res.status === 405 || res.status === 501) return { kind: 'lacks', status: res.status, sure: true };
      return { kind: 'nothing' };
    case 'server_error':
      return res.status === 501 ? { kind: 'lacks', status: 501, sure: true } : { kind: 'nothing' };
    default:
      return { kind: 'nothing' };
  }
}

/** `YYYY-MM-DD HH:MM UTC`: logs and reasons kept with a punch; the screens show their own zone. */
function utcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "the service has no GET /times (404 since 2026-11-24 13:02 UTC)". */
export function absentReason(a: Pick<AbsentRoute, 'route' | 'status' | 'since'>): string {
  return `the service has no ${a.route} (${a.status} since ${utcMinute(a.since)})`;
}

export type RouteGateDeps = {
  clock: Clock;
  log: Logger;
  /** Routes absent when the terminal last ran against the same service and dialect. */
  remembered?: readonly AbsentRoute[];
  /** The list changed (a route found absent, paused again, or back): kept for status. */
  changed?: (absent: AbsentRoute[]) => void;
};

export class RouteGate {
  private readonly routes: AbsentRoutes;

  constructor(private readonly d: RouteGateDeps) {
    this.routes = new AbsentRoutes(d.remembered ?? [], d.clock.now());
  }

  /** Null: ask the service. Else the route is on pause and nothing is asked. */
  held(route: ReadRoute): AbsentRoute | null {
    return this.routes.check(route, this.d.clock.now());
  }

  /** The absence of `route` if known (whether or not its pause is over); asks nothing of the pause. */
  absent(route: ReadRoute): AbsentRoute | null {
    return this.routes.absent(route);
  }

  /** The answer to a request to `route` about `subject` (an employee, a site). */
  noteAnswer(route: ReadRoute, subject: string, res: ApiOutcome<unknown>): void {
    const change = this.routes.note(route, subject, routeSignal(res), this.d.clock.now());
    if (!change) return;
    const a = change.absent;
    if (change.kind === 'back') this.d.log.info(`the service answers ${route} again`, { route });
    else
      this.d.log.warn(`${absentReason(a)}: not asked again before ${utcMinute(a.nextAt)}`, {
        route,
        status: a.status,
        pauses: a.pauses,
      });
    this.d.changed?.(this.routes.list());
  }

  list(): AbsentRoute[] {
    return this.routes.list();
  }
}
