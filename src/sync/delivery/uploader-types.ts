/**
 * What the uploader shares with its neighbours (the reconciler, the delivery health, the agent):
 * the API calls it needs, its options, the events it reports, and what it is built from. Apart from
 * the uploader's loop so the helpers in sync/ can name them without importing the loop itself.
 */
import type { ApiOutcome } from '../../api/client.js';
import type { EmployeeRef } from '../../api/shapes.js';
import type { TimesReading } from '../../api/time-records.js';
import type { BackoffOptions } from '../../domain/rate/retry-policy.js';
import type { Clock, Random, Sleep } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { RateBudget } from '../window/rate-budget.js';
import type { RouteGate } from './route-gate.js';

/** The two calls the uploader needs; ApiClient provides them. */
export type TimesApi = {
  postTime(ref: EmployeeRef, localDate: string, localTime: string): Promise<ApiOutcome<{ remoteId: string | null }>>;
  getTimes(ref: EmployeeRef, startDate: string, endDate: string): Promise<ApiOutcome<TimesReading>>;
  /** A cheap read with the token in use (after a 403 on a punch). */
  probe(): Promise<ApiOutcome<unknown>>;
};

export type UploaderOptions = {
  backoff: BackoffOptions;
  /** Wait after an unknown outcome before asking the server, so a slow server has finished. */
  inDoubtGraceMs: number;
  /** After a refused token, try again this much later (a restart with a fixed token resumes at once). */
  authRetryMs: number;
  /** Used when a 429 carries no usable Retry-After. */
  windowMs: number;
  /** Requests out at once, each on its own slot: keeps a window's slots busy when latency is high. */
  maxInFlight: number;
  /** A punch the service refused with 403 for its employee (the token being fine) is tried again this much later. */
  heldRetryMs: number;
  /** Reconciliation answers that prove nothing (404, 400…) before an in-doubt punch is handed to a person. */
  maxChecks: number;
};

export type UploaderEvent =
  | { type: 'sent'; punchId: number }
  | { type: 'rejected'; punchId: number; reason: string }
  | { type: 'auth_refused'; reason: string }
  | { type: 'error'; message: string }
  /** A request failed for a transient reason; `failures` counts them in a row. */
  | { type: 'failed'; failures: number; error: string; reachable: boolean }
  /** Kept and not sent for now: a 403 for this employee, or a check that could not be made (a person decides). */
  | { type: 'held'; punchId: number; reason: string }
  /** The answer was not the API's (a redirect, an HTML page): a set-up problem; sending backs off. */
  | { type: 'setup'; reason: string; location: string | null }
  /** An answer of the API (any but a 429): a set-up problem is over. */
  | { type: 'answered' }
  | { type: 'server_date'; serverDate: number; sentAt: number; receivedAt: number };

/**
 * Service-anchored time at the uploader's door: a punch taken before the first answer of its boot
 * must not leave with the wall clock's time. `needsAnchor`: no anchor yet, a probe fetches one now
 * (while the service sends no usable `Date`, only every few minutes); `mayGo`, after that probe:
 * the punch goes (anchored now, or at this terminal's clock because the service sends no `Date`)
 * or waits; `reanchor`: an anchor exists, recompute such punches now (true when this one changed);
 * `doubt`: why a punch about to go at its wall-clock time cannot have that time (it is held for a
 * person), or null.
 */
export type PunchAnchoring = {
  needsAnchor(p: PunchRow): boolean;
  mayGo(p: PunchRow): boolean;
  reanchor(p: PunchRow): boolean;
  doubt(p: PunchRow): string | null;
};

/** What the uploader is built from (build-delivery.ts). */
export type UploaderDeps = {
  outbox: Outbox;
  api: TimesApi;
  budget: RateBudget;
  clock: Clock;
  sleep: Sleep;
  random: Random;
  opts: UploaderOptions;
  log: Logger;
  /** Delivery bookkeeping: the status recorder in the agent. */
  onEvent?: (e: UploaderEvent) => void;
  /**
   * A punch of this boot taken before any answer waits for one (agent/time/punch-anchoring.ts); none: every punch goes.
   */
  anchoring?: PunchAnchoring;
  /** Read routes the service lacks (GET /times: in-doubt punches go to a person without a check). */
  routes?: RouteGate;
};
