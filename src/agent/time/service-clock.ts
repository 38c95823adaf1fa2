/**
 * What the terminal makes of the service's clock, said once per change (agent/time/time-source.ts
 * tells it on a change only): kept for status (and so for the admin screen, `timeclock status`
 * and the metrics), one log line, and the last error when something is wrong.
 */
import { englishWords, serviceClockSentence as sentenceIn } from '../status/status-sentences.js';
import type { Logger } from '../../log.js';
import type { ServiceClockRecord } from '../../store/settings/setting-keys.js';

/** The sentence status and the log use, in English (`timeclock status` says it in its language). */
export function serviceClockSentence(r: ServiceClockRecord): string {
  return sentenceIn(englishWords, r);
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
