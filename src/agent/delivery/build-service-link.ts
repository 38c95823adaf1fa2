/**
 * The way to the service as build-agent.ts wires it, before delivery is built on it: the network (proxy, CAs),
 * the API client whose every request the counts and the service watch see, the read routes the service lacks,
 * and the fleet's shared window with the fleet's line for status. Apart from the composition root so that it
 * stays a list of parts; the uploader and the fleet's record are reached through functions (built later).
 */
import { ApiClient } from '../../api/client.js';
import type { Config } from '../../config.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { Monotonic } from '../../domain/time/clock.js';
import type { DurableDb } from '../../store/database.js';
import type { Runtime } from '../host/runtime.js';
import type { FleetStatus } from '../status/fleet-status.js';
import { RequestCounts } from '../status/request-counts.js';
import type { StatusRecorder } from '../status/status-recorder.js';
import type { TimeSource } from '../time/time-source.js';
import { apiNetworkOf } from './api-network.js';
import { routeGateFor } from './route-memory.js';
import { ServiceWatch, type ServiceWatchDeps } from './service-watch.js';
import { sharedRateFor } from './shared-rate.js';

export function buildServiceLink(d: {
  config: Config & { api: NonNullable<Config['api']> };
  rt: Runtime;
  db: DurableDb;
  demo: boolean;
  terminalId: string;
  host: string;
  /** The token the agent starts with. */
  token: string;
  rule: WindowRule;
  recorder: StatusRecorder;
  time: TimeSource;
  mono: Monotonic;
  /** The uploader's (built after this): the service is back. */
  serviceBack: ServiceWatchDeps['back'];
  /** The fleet's record for `timeclock status` in another process (set once every part exists). */
  recordFleet: () => void;
}) {
  const { config, rt, db, demo, terminalId, host, rule, recorder, time } = d;
  const requests = new RequestCounts();
  const network = apiNetworkOf(config.api, rt);
  // Whether the service answers, from every request and the liveness check; its return ends delivery's back-off.
  const service = new ServiceWatch({
    clock: rt.clock,
    log: rt.log,
    changed: (r) => recorder.serviceState(r),
    answered: (at) => recorder.answered(at),
    // The uploader is built after this, before any request goes.
    back: (o) => d.serviceBack(o),
  });
  // The read routes the service lacks: asked again after a pause, not after every punch.
  const routes = routeGateFor(db, config.api, rt, () => recorder.statusChanged());
  const api = new ApiClient({
    network,
    baseUrl: config.api.baseUrl,
    token: d.token,
    timeoutMs: config.api.timeoutMs,
    dialect: config.api.dialect,
    mono: d.mono,
    onServerDate: (date, sent, received) => time.noteServerDate(date, sent, received),
    onNoServerDate: (header) => time.noteMissingDate(header),
    onRequest: (kind, status, error) => {
      requests.note(kind, status);
      service.request(kind, status, error);
    },
  });
  // The demo's API is its own: no fleet to share a window with.
  const shared = demo
    ? null
    : sharedRateFor(config, { terminalId, host, pid: process.pid }, d.token, rule, rt.clock, rt.sleep, rt.log, () =>
        d.recordFleet(),
      );
  const fleetNow = (): FleetStatus => ({
    host,
    instanceId: shared?.instanceId ?? null,
    conflict: shared?.conflict() ?? null,
    windowKey: shared?.keyOrigin() ?? null,
  });
  return { requests, network, service, routes, api, shared, fleetNow };
}
