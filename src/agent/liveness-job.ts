/**
 * Runs the liveness check (sync/liveness.ts) on a schedule and tells the agent when the service's
 * host goes away or comes back, so the idle screen turns offline with nobody punching and back
 * within seconds of its return (when punches wait, sending is tried at once).
 */
import type { Config } from '../config.js';
import { LivenessWatch, routeProbe, type Reachability } from '../sync/liveness.js';
import type { ApiNetwork } from './api-network.js';
import type { Runtime } from './runtime.js';
import { Schedule } from './schedule.js';

/** Failed probes in a row before the service counts as gone: one may be a busy router. */
const FAILURES_TO_OFFLINE = 2;

export type BackgroundJob = { start(): void; stop(): Promise<void> | void };

export function livenessJob(config: Config & { api: NonNullable<Config['api']> }, network: ApiNetwork, rt: Runtime, changed: (r: Reachability) => void): BackgroundJob | null {
  const everyMs = config.api.livenessEveryMs;
  if (everyMs <= 0) return null;
  // A probe gives up before the next is due, and never waits longer than a request would.
  const timeoutMs = Math.min(everyMs, config.api.timeoutMs, 3_000);
  // Through the proxy when one applies: a direct connect would say nothing of the way requests go.
  const probe = routeProbe(config.api.baseUrl, network, timeoutMs);
  const watch = new LivenessWatch({
    probe,
    now: () => rt.clock.now(),
    failuresToOffline: FAILURES_TO_OFFLINE,
    onChange: (r) => {
      if (!r.reachable) rt.log.warn('the service cannot be reached', { reason: r.reason });
      changed(r);
    },
  });
  const schedule = new Schedule({ firstAfterMs: everyMs, everyMs, run: () => watch.check() });
  return {
    start: () => schedule.start(),
    stop: async () => {
      schedule.stop();
      await schedule.current;
    },
  };
}
