/**
 * The terminal's time as build-agent.ts wires it: the NTP state, the time source (the service's
 * clock when plausible), what it reports (skew, the service's clock) and the uploader's questions
 * about a punch's time. It reports to the status recorder; `wake` wakes delivery (the uploader, built later).
 */
import { correctedTime } from '../../domain/time/anchored-time.js';
import { localDateTime } from '../../domain/time/local-time.js';
import type { Config } from '../../config.js';
import type { DurableDb } from '../../store/database.js';
import type { Outbox } from '../../store/punches/outbox.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { BUILD_TIME } from '../../version.js';
import type { StatusRecorder } from '../status/status-recorder.js';
import { NtpState, systemNtpProbe } from '../host/ntp-sync.js';
import { AnchoringPolicy } from './punch-anchoring.js';
import type { Runtime } from '../host/runtime.js';
import { ServiceClockReport } from './service-clock.js';
import { currentBootId, TimeSource } from './time-source.js';
import type { Monotonic } from '../../domain/time/clock.js';

export type TimeParts = { time: TimeSource; anchoring: AnchoringPolicy; ntp: NtpState };

export function buildTimeParts(
  config: Pick<Config, 'clock' | 'clockSkewThresholdMs'>,
  rt: Runtime,
  d: { db: DurableDb; outbox: Outbox; mono: Monotonic; recorder: StatusRecorder; wake: () => void },
): TimeParts {
  const { db, outbox, mono, recorder } = d;
  const ntp = new NtpState({ probe: rt.ntp ?? systemNtpProbe, mono, configured: config.clock.ntpSynchronized });
  // Asked now, in the background: the first answers of the service come after it, as a rule.
  ntp.refresh();
  const report = new ServiceClockReport({
    log: rt.log,
    write: (r) => recorder.safeWrite(settingKeys.serviceClock, r),
    noteError: (m) => recorder.noteError(m),
    changed: () => recorder.statusChanged(),
  });
  const reanchor = () => {
    const a = time.current;
    if (!a) return 0;
    // The clock as it was and as it is now: the AFD's type 4 record, when sealed marks were timed wrong.
    const r = time.now();
    const n = outbox.reanchor(time.bootId, (m, wall) => correctedTime(a, m, wall), localDateTime, rt.clock.now(), {
      before: r.wall,
      after: r.at,
    });
    if (n > 0)
      rt.log.info("punches taken before the first answer of this boot now carry the service's time", { count: n });
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
      d.wake();
    },
    onSkew: (skew) => recorder.noteClockError(skew, config.clockSkewThresholdMs, ntp.current()),
    onServiceClock: (now, before) => report.note(now, before),
  });
  const anchoring = new AnchoringPolicy({
    time,
    outbox,
    mono,
    buildTime: BUILD_TIME,
    toleranceMs: config.clock.serviceSkewBoundMs,
    reanchor,
  });
  return { time, anchoring, ntp };
}
