/**
 * Whether the service answers, from every request's outcome and the liveness check's verdict on
 * its host. Pure: the caller says what happened and when.
 *
 * - online: the service answers (any HTTP answer but a server error);
 * - errors: it answers, but with server errors (5xx): sending backs off, punches are kept;
 * - offline: no answer (refused, reset, timed out), or its host takes no connections.
 *
 * One lost connection or one 503 amid good answers is a blip, not a change: it takes
 * BAD_IN_A_ROW of them (no good answer between) to leave online. The liveness check's "host
 * unreachable" (already two failed connects) is offline at once. A host that takes connections
 * again is not "online": only an answer is (the caller asks one at once).
 */

export type ServiceStateName = 'online' | 'errors' | 'offline';

export type ServiceStateRecord = { state: ServiceStateName; since: number; reason: string | null };

export type ServiceObservation =
  /** An HTTP answer with this status. */
  | { kind: 'answer'; status: number }
  /** A request that got no answer. */
  | { kind: 'lost'; reason: string | null }
  /** The liveness check's verdict on the host (a change only). */
  | { kind: 'host'; reachable: boolean; reason: string | null };

/** Lost requests, or server errors, in a row before an online service counts as offline, or answering errors. */
export const BAD_IN_A_ROW = 3;

/**
 * A server error: the service answers but cannot do the work. 501 is a route it lacks
 * (domain/rate/absent-routes.ts), not a failure.
 */
export function isServerError(status: number): boolean {
  return status >= 500 && status !== 501;
}

export class ServiceState {
  private record: ServiceStateRecord | null = null;
  private lostInARow = 0;
  private errorsSinceGood = 0;

  get current(): ServiceStateRecord | null {
    return this.record ? { ...this.record } : null;
  }

  /** What `o` at `now` changes: the new state, or null when it stays as it was. */
  observe(o: ServiceObservation, now: number): ServiceStateRecord | null {
    const was = this.record?.state ?? null;
    switch (o.kind) {
      case 'answer':
        this.lostInARow = 0;
        if (!isServerError(o.status)) {
          this.errorsSinceGood = 0;
          return this.set('online', null, now);
        }
        this.errorsSinceGood += 1;
        // Out of contact, one error answer already says more than "no answer"; online, it takes a run of them.
        if (was !== 'online' || this.errorsSinceGood >= BAD_IN_A_ROW)
          return this.set('errors', `HTTP ${o.status}`, now);
        return null;
      case 'lost':
        this.lostInARow += 1;
        if (was === null || this.lostInARow >= BAD_IN_A_ROW) return this.set('offline', o.reason, now);
        return null;
      case 'host':
        if (o.reachable) return null;
        return this.set('offline', o.reason, now);
    }
  }

  private set(state: ServiceStateName, reason: string | null, now: number): ServiceStateRecord | null {
    if (this.record?.state === state) return null;
    this.record = { state, since: now, reason };
    return { ...this.record };
  }
}
