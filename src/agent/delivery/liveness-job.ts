/**
 * Runs the liveness check (sync/delivery/liveness.ts) and tells the agent when the service's host goes away
 * or comes back, so the idle screen turns offline with nobody punching and back within seconds of
 * its return (delivery's back-off ends at once then: agent/delivery/service-watch.ts). While the service is
 * offline it looks every second, so its return is seen within a second; otherwise every
 * `api.livenessEveryMs`. It waits on the runtime's sleep (tests move that time).
 */
import type { Config } from '../../config.js';
import { LivenessWatch, routeProbe, type Reachability } from '../../sync/delivery/liveness.js';
import type { ApiNetwork } from './api-network.js';
import type { Runtime } from '../host/runtime.js';

/** Failed probes in a row before the service counts as gone: one may be a busy router. */
const FAILURES_TO_OFFLINE = 2;
/** How often it looks while the service does not answer. */
const FAST_EVERY_MS = 1_000;

export type BackgroundJob = { start(): void; stop(): Promise<void> | void };

/** `fast`: while true (nothing answers: the service is offline), checks come every second. */
export function livenessJob(
  config: Config & { api: NonNullable<Config['api']> },
  network: ApiNetwork,
  rt: Runtime,
  changed: (r: Reachability) => void,
  fast: () => boolean = () => false,
): BackgroundJob | null {
  const everyMs = config.api.livenessEveryMs;
  if (everyMs <= 0) return null;
  // A probe never waits longer than a request would (checks run one after the other).
  const timeoutMs = Math.min(everyMs, config.api.timeoutMs, 3_000);
  // Through the proxy when one applies: a direct connect would say nothing of the way requests go.
  const watch = new LivenessWatch({
    probe: routeProbe(config.api.baseUrl, network, timeoutMs),
    now: () => rt.clock.now(),
    failuresToOffline: FAILURES_TO_OFFLINE,
    onChange: changed,
  });
  const stopCtl = new AbortController();
  let loop: Promise<void> | null = null;
  const run = async (): Promise<void> => {
    while (!stopCtl.signal.aborted) {
      await rt.sleep(fast() ? Math.min(everyMs, FAST_EVERY_MS) : everyMs, stopCtl.signal);
      if (stopCtl.signal.aborted) return;
      try {
        await watch.check();
      } catch (e) {
        rt.log.warn('liveness check failed', { error: (e as Error).message });
      }
    }
  };
  return {
    start: () => {
      loop ??= run();
    },
    stop: async () => {
      stopCtl.abort();
      await loop;
    },
  };
}
