/**
 * The read routes the service lacks (sync/delivery/route-gate.ts), kept where `timeclock status` and doctor
 * read them. The pauses themselves live in memory: a restart asks again at once (and one 404 then
 * pauses a route that was absent before); another base URL or dialect starts from nothing.
 */
import type { Config } from '../../config.js';
import type { WritableDb } from '../../store/database.js';
import { serviceKeys } from '../../store/settings/service-records.js';
import { readSetting, writeSetting } from '../../store/settings/settings.js';
import { RouteGate } from '../../sync/delivery/route-gate.js';
import type { Runtime } from '../host/runtime.js';

/** Which service (and dialect) the routes were learnt on. */
export function serviceFingerprint(api: Pick<NonNullable<Config['api']>, 'baseUrl' | 'dialect'>): string {
  return `${api.baseUrl} ${JSON.stringify(api.dialect)}`;
}

export function routeGateFor(
  db: WritableDb,
  api: Pick<NonNullable<Config['api']>, 'baseUrl' | 'dialect'>,
  rt: Pick<Runtime, 'clock' | 'log'>,
  /** Status shows the list (the admin screen's connection tab): told at each change, not at the next other event. */
  changed: () => void,
): RouteGate {
  const service = serviceFingerprint(api);
  // Bookkeeping never takes the terminal down: a full disk only loses what status shows.
  const write = (routes: ReturnType<RouteGate['list']> | null): void => {
    try {
      writeSetting(db, serviceKeys.absentRoutes, routes === null ? null : { service, routes });
    } catch (e) {
      rt.log.warn('could not record the routes the service lacks', { error: (e as Error).message });
    }
  };
  const stored = readSetting(db, serviceKeys.absentRoutes);
  const same = stored !== null && stored.service === service;
  if (stored !== null && !same) write(null);
  const gate = new RouteGate({
    clock: rt.clock,
    log: rt.log,
    remembered: same ? stored.routes : [],
    changed: (routes) => {
      write(routes.length === 0 ? null : routes);
      changed();
    },
  });
  // Status says they are asked again now, not when the last run would have.
  if (same && stored.routes.length > 0) write(gate.list());
  return gate;
}
