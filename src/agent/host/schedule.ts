/**
 * The schedule of a background job (the integrity check, retention, the journal's verification):
 * once `firstAfterMs` after `start()`, then `everyMs` after the end of each run. `now()` runs it at
 * once, or joins the run under way; the schedule goes on from its end. Timers never keep the
 * process alive.
 */
export class Schedule<T> {
  private timer: NodeJS.Timeout | null = null;
  private stoppedFlag = false;
  private running: Promise<T> | null = null;

  constructor(private readonly o: { firstAfterMs: number; everyMs: number; run: () => Promise<T> }) {}

  get stopped(): boolean {
    return this.stoppedFlag;
  }

  /** The run under way, if any. */
  get current(): Promise<T> | null {
    return this.running;
  }

  start(): void {
    this.plan(this.o.firstAfterMs);
  }

  /** No further runs; one under way goes on (the job checks `stopped` to end early). */
  stop(): void {
    this.stoppedFlag = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  now(): Promise<T> {
    this.running ??= this.o.run().finally(() => {
      this.running = null;
      this.plan(this.o.everyMs);
    });
    return this.running;
  }

  private plan(ms: number): void {
    if (this.stoppedFlag) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.now();
    }, ms);
    this.timer.unref();
  }
}
