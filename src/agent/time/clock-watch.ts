/**
 * Watches the wall clock against the monotonic one. A step (NTP correcting a wrong clock, a person
 * setting it) moves every stored deadline with it (retries, rate slots, pauses), so a step back
 * does not stop sending for its length nor a step forward burst. Deadlines written in the moment
 * between a step forward and its notice are on the new clock already: they are not moved again.
 */
import { clockStep, type Clock, type Monotonic } from '../../domain/time/clock.js';
import type { Logger } from '../../log.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { Uploader } from '../../sync/delivery/uploader.js';

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
  /** After a step's deadlines moved: the skew is measured again, NTP's state asked again. */
  timeStepped?: (stepMs: number) => void;
  /** How often it looks (default every second; 0: only when `check()` is called, for tests on injected time). */
  clockCheckEveryMs?: number;
};

/**
 * The latest wall reading the clock before a step can have given, when the step is told apart from
 * readings since (those are at least `prev.wall + step`): only a step forward larger than the time
 * between the two looks can be. Null: move everything (a step back moves a deadline written in
 * that instant early, never late).
 */
export function oldClockLatest(
  prev: { wall: number; mono: number },
  cur: { wall: number; mono: number },
  step: number,
): number | null {
  const elapsed = cur.mono - prev.mono;
  if (step <= elapsed) return null;
  // Halfway between the old clock's reading now and the new clock's earliest.
  return prev.wall + elapsed + (step - elapsed) / 2;
}

export class ClockWatch {
  private seen: { wall: number; mono: number } | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly p: ClockWatchParts) {}

  start(): void {
    this.seen = { wall: this.p.clock.now(), mono: this.p.mono() };
    const every = this.p.clockCheckEveryMs ?? CLOCK_CHECK_MS;
    if (every <= 0) return;
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Compares the clocks since the last look; a step is logged once and wakes the uploader. Returns the step in ms, or
   * null.
   */
  check(): number | null {
    const cur = { wall: this.p.clock.now(), mono: this.p.mono() };
    const prev = this.seen;
    this.seen = cur;
    if (!prev) return null;
    const step = clockStep(prev, cur);
    if (step === null) return null;
    const before = oldClockLatest(prev, cur, step) ?? undefined;
    this.p.log.warn('the wall clock stepped; retries and the rate window move with it', { stepMs: Math.round(step) });
    this.p.noteError(`the system clock stepped by ${Math.round(step / 1000)} s; deadlines adjusted`);
    try {
      this.p.outbox.shiftDeadlines(step, before);
    } catch (e) {
      this.p.noteError(`could not move retry times after a clock step: ${(e as Error).message}`);
    }
    this.p.budget.clockStepped(step, before);
    this.p.uploader.clockStepped(step, before);
    this.p.timeStepped?.(step);
    this.p.changed();
    return step;
  }
}
