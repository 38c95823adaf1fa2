/**
 * The employee's-day pieces of the agent, built together: the cache and its background fetches
 * (self-service.ts, sync/reads/self-service-fetch.ts), their prefetch schedule, and what attaches a day
 * to a punch's answer. Off (`selfService.enabled: false`): answers carry entry or exit and this
 * terminal's punches of the day, and nothing is ever asked of the service for them.
 */
import type { ApiClient } from '../../api/client.js';
import type { Config } from '../../config.js';
import type { DurableDb } from '../../store/database.js';
import { DayPunches } from '../../store/punches/day-punches.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { RouteGate } from '../../sync/delivery/route-gate.js';
import { fetchServiceDay, type FetchOutcome } from '../../sync/reads/self-service-fetch.js';
import { PunchDays } from './punch-days.js';
import type { Runtime } from '../host/runtime.js';
import { Schedule } from '../host/schedule.js';
import { SelfService } from './self-service.js';

export type SelfServiceParts = { selfService: SelfService; days: PunchDays; prefetch: Schedule<number> | null };

const NEVER_FETCH = async (): Promise<FetchOutcome> => ({
  ok: false,
  reason: 'self-service reads are off',
  requests: 0,
  stop: true,
});

export function buildSelfService(c: {
  config: Config;
  rt: Runtime;
  db: DurableDb;
  api: ApiClient;
  budget: RateBudget;
  outbox: Outbox;
  routes?: RouteGate;
}): SelfServiceParts {
  const { config, rt, db, api, budget, outbox, routes } = c;
  const o = config.selfService;
  const selfService = new SelfService({
    fetch: o.enabled
      ? (ref, date, opts) =>
          fetchServiceDay(
            {
              api,
              budget,
              clock: rt.clock,
              punchesDue: () => outbox.hasDue(rt.clock.now()),
              windowMs: () => budget.windowMs,
              authRetryMs: config.retry.authRetryMs,
              ...(routes ? { routes } : {}),
            },
            ref,
            date,
            opts,
          )
      : NEVER_FETCH,
    punches: new DayPunches(db),
    clock: rt.clock,
    log: rt.log,
    opts: {
      refreshMs: o.refreshMs,
      leavesRefreshMs: o.leavesRefreshMs,
      maxShiftMinutes: o.maxShiftHours * 60,
      maxEntries: 5_000,
    },
  });
  const prefetch =
    o.enabled && o.prefetchEveryMs > 0
      ? new Schedule({
          firstAfterMs: o.prefetchEveryMs,
          everyMs: o.prefetchEveryMs,
          run: async () => selfService.prefetch(),
        })
      : null;
  return { selfService, days: new PunchDays({ outbox, selfService, log: rt.log }), prefetch };
}
