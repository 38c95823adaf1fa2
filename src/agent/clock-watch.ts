/**
 * Watches the wall clock against the monotonic one. A step (NTP correcting a wrong clock, a person
 * setting it) moves every stored deadline with it (retries, rate slots, pauses), so a step back
 * does not stop sending for its length nor a step forward burst.
 */
import { clockStep, type Clock, type Monotonic } from '../domain/clock.js';
import type { Logger } from '../log.js';
import type { Outbox } from '../store/outbox.js';
import type { RateBudget } from '../sync/rate-budget.js';
import type { Uploader } from '../sync/uploader.js';

/** How often the wall clock is compared with the monotonic one. */
const CLOCK_CHECK_MS = 1_000;

export type ClockWatchParts = {
  clock: Clock;
  mono: Monotonic;
  log: Logger;
  outbox: Pick<Outbox, 'shiftDeadlines'>;
  budget: Pick<RateBudget, 'clockStepped'>;
  uploader: Pick<Uploader, 'clockStepped'>;
  noteError: (message: string) => void;
  changed: () => void;
};

export class ClockWatch {
  private seen: { wall: number; mono: number } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly p: ClockWatchParts) {}

  start(): void {
    this.seen = { wall: this.p.clock.now(), mono: this.p.mono() };
    this.timer = setInterval(() => this.check(), CLOCK_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Compares the clocks since the last look; a step is logged once and wakes the uploader. Returns the step in ms, or null. */
  check(): number | null {
    const cur = { wall: this.p.clock.now(), mono: this.p.mono() };
    const prev = this.seen;
    this.seen = cur;
    if (!prev) return null;
    const step = clockStep(prev, cur);
    if (step === null) return null;
    this.p.log.warn('the wall clock stepped; retries and the rate window move with it', { stepMs: Math.round(step) });
    this.p.noteError(`the system clock stepped by ${Math.round(step / 1000)} s; deadlines adjusted`);
    try {
      this.p.outbox.shiftDeadlines(step);
    } catch (e) {
      this.p.noteError(`could not move retry times after a clock step: ${(e as Error).message}`);
    }
    this.p.budget.clockStepped(step);
    this.p.uploader.clockStepped(step);
    this.p.changed();
    return step;
  }
}
