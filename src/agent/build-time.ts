/**
 * The terminal's time as build-agent.ts wires it: the NTP state, the time source (the service's
 * clock when plausible), what it reports (skew, the service's clock) and the uploader's questions
 * about a punch's time. The agent and the uploader are reached through getters: built later.
 */
import { correctedTime } from '../domain/anchored-time.js';
import { localDateTime } from '../domain/local-time.js';
import type { Config } from '../config.js';
import type { DurableDb } from '../store/database.js';
import type { Outbox } from '../store/outbox.js';
import { settingKeys } from '../store/setting-keys.js';
import type { Uploader } from '../sync/uploader.js';
import { BUILD_TIME } from '../version.js';
import type { Agent } from './agent.js';
import { NtpState, systemNtpProbe } from './ntp-sync.js';
import { AnchoringPolicy } from './punch-anchoring.js';
import type { Runtime } from './runtime.js';
import { ServiceClockReport } from './service-clock.js';
import { currentBootId, TimeSource } from './time-source.js';
import type { Monotonic } from '../domain/clock.js';

export type TimeParts = { time: TimeSource; anchoring: AnchoringPolicy; ntp: NtpState };

export function buildTimeParts(
  config: Pick<Config, 'clock' | 'clockSkewThresholdMs'>,
  rt: Runtime,
  d: { db: DurableDb; outbox: Outbox; mono: Monotonic; agent: () => Agent | null; uploader: () => Uploader | null },
): TimeParts {
  const { db, outbox, mono, agent } = d;
  const ntp = new NtpState(rt.ntp ?? systemNtpProbe, mono, undefined, config.clock.ntpSynchronized);
  // Asked now, in the background: the first answers of the service come after it, as a rule.
  ntp.refresh();
  const report = new ServiceClockReport({
    log: rt.log,
    write: (r) => agent()?.safeWrite(settingKeys.serviceClock, r),
    noteError: (m) => agent()?.noteError(m),
    changed: () => agent()?.statusChanged(),
  });
  const reanchor = () => {
    const a = time.current;
    if (!a) return 0;
    // The clock as it was and as it is now: the AFD's type 4 record, when sealed marks were timed wrong.
    const r = time.now();
    const n = outbox.reanchor(time.bootId, (m, wall) => correctedTime(a, m, wall), localDateTime, rt.clock.now(), { before: r.wall, after: r.at });
    if (n > 0) rt.log.info('punches taken before the first answer of this boot now carry the service\'s time', { count: n });
    return n;
  };
  const time: TimeSource = new TimeSource({
    db,
    clock: rt.clock,
    mono,
    bootId: rt.bootId ?? currentBootId(),
    ntp: () => ntp.current(),
    boundMs: config.clock.serviceSkewBoundMs,
    onFirstAnchor: () => {
      reanchor();
      d.uploader()?.wake();
    },
    onSkew: (skew) => agent()?.noteClockError(skew, config.clockSkewThresholdMs, ntp.current()),
    onServiceClock: (now, before) => report.note(now, before),
  });
  const anchoring = new AnchoringPolicy({ time, outbox, mono, buildTime: BUILD_TIME, toleranceMs: config.clock.serviceSkewBoundMs, reanchor });
  return { time, anchoring, ntp };
}
