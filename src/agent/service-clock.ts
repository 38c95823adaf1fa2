/**
 * What the terminal makes of the service's clock, said once per change (agent/time-source.ts
 * tells it on a change only): kept for status (and so for the admin screen, `timeclock status`
 * and the metrics), one log line, and the last error when something is wrong.
 */
import { describeOffset } from '../domain/date-plausibility.js';
import type { Logger } from '../log.js';
import type { ServiceClockRecord } from '../store/setting-keys.js';

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

/** Records every change; logs when the state changes, or the offset by more than the bound while off. */
export function reportServiceClock(p: ServiceClockReportParts, now: ServiceClockRecord, before: ServiceClockRecord | null): void {
  p.write(now);
  p.changed();
  const moved = before?.state === 'off' && now.state === 'off' && Math.abs((now.offsetMs ?? 0) - (before.offsetMs ?? 0)) > now.boundMs;
  if (before?.state === now.state && !moved) return;
  // A first answer that agrees says nothing worth a line.
  if (now.state === 'ok' && (before === null || before.state === 'ok')) return;
  const sentence = serviceClockSentence(now);
  const fields = { state: now.state, offsetMs: now.offsetMs, ntp: now.ntp };
  if (now.state === 'ok') {
    p.log.info(sentence, fields);
    return;
  }
  p.log.warn(sentence, fields);
  p.noteError(sentence);
}
