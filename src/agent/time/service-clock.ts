/**
 * What the terminal makes of the service's clock, said once per change (agent/time/time-source.ts
 * tells it on a change only): kept for status (and so for the admin screen, `timeclock status`
 * and the metrics), one log line, and the last error when something is wrong.
 */
import { describeOffset } from '../../domain/date-plausibility.js';
import type { Logger } from '../../log.js';
import type { ServiceClockRecord } from '../../store/settings/setting-keys.js';

/** The sentence status, the log and `timeclock status` use. */
export function serviceClockSentence(r: ServiceClockRecord): string {
  const off = r.offsetMs ?? 0;
  const way = (ms: number) => (ms > 0 ? 'ahead' : 'behind');
  switch (r.state) {
    case 'off':
      return (
        `the service's clock is off by ${describeOffset(off)} (${way(off)}, more than clock.serviceSkewBoundMs ${describeOffset(r.boundMs)}); ` +
        "this terminal's clock is NTP-synchronised and is kept: punches carry this terminal's time, marked service_clock_off"
      );
    case 'no_date':
      return `the service sends no usable Date header${r.header ? ` (Date: "${r.header}")` : ''}; punches sent at this terminal's clock, marked unanchored`;
    case 'unconfirmed': {
      const jump = r.jumpMs ?? off;
      return `the service's Date is ${describeOffset(jump)} ${way(jump)} of the time in force; waiting for a second answer to agree before it is used`;
    }
    case 'ok':
      return Math.abs(off) < 1_000
        ? "the service's clock agrees with this terminal's"
        : `the service's clock is in use: ${describeOffset(off)} ${way(off)} of this terminal's (within clock.serviceSkewBoundMs${r.ntp === 'yes' ? '' : ', or confirmed by a second answer'})`;
  }
}

export type ServiceClockReportParts = {
  log: Logger;
  write: (r: ServiceClockRecord) => void;
  noteError: (message: string) => void;
  changed: () => void;
};

/**
 * A state said once is not said again within this (a load balancer whose servers disagree flips it on every answer).
 */
const SAY_AGAIN_AFTER_MS = 3_600_000;

/**
 * Records every change for status; logs a change of state (or of the offset by more than the
 * bound while off) once: not the same state again within an hour, and not the return to ok from
 * a jump that was never followed.
 */
export class ServiceClockReport {
  /** When each state was last said, and with what offset. */
  private readonly said = new Map<ServiceClockRecord['state'], { at: number; offsetMs: number | null }>();

  constructor(private readonly p: ServiceClockReportParts) {}

  note(now: ServiceClockRecord, before: ServiceClockRecord | null): void {
    this.p.write(now);
    this.p.changed();
    if (!this.worthSaying(now, before)) return;
    this.said.set(now.state, { at: now.at, offsetMs: now.offsetMs });
    const sentence = serviceClockSentence(now);
    const fields = { state: now.state, offsetMs: now.offsetMs, ntp: now.ntp };
    if (now.state === 'ok') {
      this.p.log.info(sentence, fields);
      return;
    }
    this.p.log.warn(sentence, fields);
    this.p.noteError(sentence);
  }

  private worthSaying(now: ServiceClockRecord, before: ServiceClockRecord | null): boolean {
    const moved =
      before?.state === 'off' &&
      now.state === 'off' &&
      Math.abs((now.offsetMs ?? 0) - (before.offsetMs ?? 0)) > now.boundMs;
    if (before?.state === now.state && !moved) return false;
    // A first answer that agrees, or one after a jump that was not followed, says nothing new.
    if (now.state === 'ok' && (before === null || before.state === 'ok' || before.state === 'unconfirmed'))
      return false;
    const last = this.said.get(now.state);
    if (last && Math.abs(now.at - last.at) < SAY_AGAIN_AFTER_MS) {
      return now.state === 'off' && Math.abs((now.offsetMs ?? 0) - (last.offsetMs ?? 0)) > now.boundMs;
    }
    return true;
  }
}
