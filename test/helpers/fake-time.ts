import type { Clock, Sleep } from '../../src/domain/time/clock.js';

type Sleeper = { at: number; resolve: () => void };

/**
 * One injected time for the agent, its uploader and the mock: a wall reading and a monotonic one
 * that tests move — together (time passes) or the wall alone (a step of the system clock). The
 * agent's waits (`sleep`) end when the test moves time past them, not after real time, so tests
 * step time instead of sleeping on it. Real I/O (loopback HTTP, SQLite) still runs for real: each
 * step of `advance` lets it settle before the next.
 */
export class FakeTime {
  private monoMs = 1_000_000;
  private sleepers: Sleeper[] = [];

  constructor(private wallMs: number) {}

  /**
   * When set, each step of `advance` also waits, in real time, until this holds (say: no request
   * under way). Requests then take no injected time, so how fast real I/O ran on a loaded machine
   * does not show in what the test measures per window of injected time.
   */
  quietWhen: (() => boolean) | null = null;

  readonly clock: Clock = { now: () => this.wallMs };
  readonly mono = (): number => this.monoMs;

  readonly sleep: Sleep = (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const s: Sleeper = { at: this.monoMs + Math.max(0, ms), resolve: () => {} };
      const done = () => {
        signal?.removeEventListener('abort', done);
        this.sleepers = this.sleepers.filter((x) => x !== s);
        resolve();
      };
      s.resolve = done;
      this.sleepers.push(s);
      signal?.addEventListener('abort', done, { once: true });
    });

  /** Time passes by `ms` (both clocks), in steps of `stepMs`, letting real I/O settle after each. */
  async advance(ms: number, stepMs = 25): Promise<void> {
    for (let left = ms; left > 0; left -= stepMs) {
      const d = Math.min(stepMs, left);
      this.wallMs += d;
      this.monoMs += d;
      for (const s of this.sleepers.filter((x) => x.at <= this.monoMs)) s.resolve();
      await settle();
      await this.untilQuiet();
    }
  }

  private async untilQuiet(): Promise<void> {
    const since = performance.now();
    while (this.quietWhen && !this.quietWhen()) {
      // A request that takes this long is stuck, not slow: say so rather than hang the test.
      if (performance.now() - since > QUIET_WAIT_MS)
        throw new Error(`not quiet within ${QUIET_WAIT_MS} ms of real time (quietWhen)`);
      await settle();
    }
  }

  /** Time passes until `pred` holds (checked after each step), at most `limitMs` of it. */
  async advanceUntil(pred: () => boolean, what: string, limitMs = 60_000, stepMs = 25): Promise<void> {
    for (let spent = 0; !pred(); spent += stepMs) {
      if (spent > limitMs) throw new Error(`not within ${limitMs} ms of injected time: ${what}`);
      await this.advance(stepMs, stepMs);
    }
  }

  /** The system clock is set (NTP, a person): the wall reading jumps, the monotonic one does not. */
  stepWall(ms: number): void {
    this.wallMs += ms;
  }
}

/** Real time one step may wait for quiet (requests time out after a second of real time in the test agents). */
const QUIET_WAIT_MS = 30_000;

/** A few real milliseconds for loopback requests and their callbacks to run. */
function settle(): Promise<void> {
  return new Promise((r) => setTimeout(r, 4));
}
