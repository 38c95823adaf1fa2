/**
 * The uploader's questions about a punch's time (sync/delivery/uploader-types.ts PunchAnchoring), answered
 * from the time source: a punch taken before its boot's first anchor waits for one (a probe fetches
 * it); while the service sends no usable `Date`, it goes at this terminal's clock, marked
 * unanchored, and the probe asks only every few minutes; a wall-clock time that cannot be true
 * (a dead RTC: earlier than an anchored punch taken before it or than this build, or later than
 * now) is held for a person.
 */
import type { Monotonic } from '../../domain/time/clock.js';
import { localDateTime } from '../../domain/time/local-time.js';
import { unanchoredDoubt, type KnownTime, type UnanchoredDoubt } from '../../domain/time/unanchored-doubt.js';
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { PunchAnchoring } from '../../sync/delivery/uploader-types.js';
import type { TimeSource } from './time-source.js';

/** While no usable `Date` comes: the first probe a minute after, then twice as long each time, at most this. */
export const NO_DATE_FIRST_PROBE_MS = 60_000;
export const NO_DATE_MAX_PROBE_MS = 16 * 60_000;

export type PunchAnchoringParts = {
  time: Pick<TimeSource, 'bootId' | 'current' | 'dateMissing' | 'now'>;
  outbox: Pick<Outbox, 'newestAnchoredBefore'>;
  mono: Monotonic;
  /** This build's time (src/version.ts BUILD_TIME): no punch can be older. */
  buildTime: number;
  /** How far a wall-clock time may be on the wrong side of a known time (`clock.serviceSkewBoundMs`). */
  toleranceMs: number;
  /** Recomputes the punches of this boot on its anchor (build-agent.ts); the count changed. */
  reanchor: () => number;
};

export class AnchoringPolicy implements PunchAnchoring {
  private nextProbeAt = Number.NEGATIVE_INFINITY;
  private probeEveryMs = NO_DATE_FIRST_PROBE_MS;

  constructor(private readonly p: PunchAnchoringParts) {}

  /** Of this boot, on the wall clock, and no anchor yet: the service's time is wanted. */
  private waiting(p: PunchRow): boolean {
    return p.anchored === 0 && p.boot_id === this.p.time.bootId && this.p.time.current === null;
  }

  needsAnchor(p: PunchRow): boolean {
    if (!this.waiting(p)) return false;
    if (!this.p.time.dateMissing) {
      this.probeEveryMs = NO_DATE_FIRST_PROBE_MS;
      this.nextProbeAt = Number.NEGATIVE_INFINITY;
      return true;
    }
    // No usable Date: the answers of the punches themselves would bring one back; a probe now and then.
    if (this.p.mono() < this.nextProbeAt) return false;
    this.scheduleProbe();
    return true;
  }

  mayGo(p: PunchRow): boolean {
    if (!this.waiting(p)) return true;
    if (!this.p.time.dateMissing) return false;
    // It just became so: the next probe is a minute away, not now.
    if (this.nextProbeAt === Number.NEGATIVE_INFINITY) this.scheduleProbe();
    return true;
  }

  /** The next probe one interval from now; the interval doubles up to NO_DATE_MAX_PROBE_MS. */
  private scheduleProbe(): void {
    this.nextProbeAt = this.p.mono() + this.probeEveryMs;
    this.probeEveryMs = Math.min(this.probeEveryMs * 2, NO_DATE_MAX_PROBE_MS);
  }

  reanchor(p: PunchRow): boolean {
    return p.anchored === 0 && p.boot_id === this.p.time.bootId && this.p.time.current !== null
      ? this.p.reanchor() > 0
      : false;
  }

  doubt(p: PunchRow): string | null {
    const known: KnownTime[] = [{ at: this.p.buildTime, what: 'build' }];
    // Taken before it (capture order), so its time is a floor for this one's.
    const punch = this.p.outbox.newestAnchoredBefore(p.id);
    if (punch !== null) known.push({ at: punch, what: 'anchored_punch' });
    const now = this.p.time.now();
    const d = unanchoredDoubt(p.captured_at, known, { at: now.at, anchored: now.anchored }, this.p.toleranceMs);
    return d === null ? null : doubtSentence(p, d);
  }
}

const KNOWN_WORDS: Record<KnownTime['what'], string> = {
  anchored_punch: 'a punch taken before it and timed by the service',
  build: 'the date this software was built',
};

/** What the manager reads on the held list: the captured time, and why it cannot be right. */
export function doubtSentence(
  p: Pick<PunchRow, 'local_date' | 'local_time' | 'time_zone'>,
  d: UnanchoredDoubt,
): string {
  const when = (at: number) => {
    const l = localDateTime(at, p.time_zone);
    return `${l.date} ${l.time}`;
  };
  const captured = `captured at ${p.local_date} ${p.local_time} by this terminal's clock, which the service never confirmed`;
  const why =
    d.kind === 'before_known'
      ? `earlier than ${when(d.known.at)} (${KNOWN_WORDS[d.known.what]}): the clock was wrong (a dead clock battery?)`
      : `later than now (${when(d.presentAt)}${d.presentAnchored ? ", the service's time" : ''}): the clock was wrong`;
  return `${captured}; ${why}. Check the real time, then send it or enter it by hand`;
}
