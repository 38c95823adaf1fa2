/**
 * The agent emits a `punch` event for every punch result, also for the ones answering this page's
 * own punch/badgeScan calls. The page shows its own call's answer; an event is shown only when no
 * call of the page is in flight and it is not the result just handled (same punchId when it has
 * one, else the same JSON within `windowMs`). Pure: the caller passes the time.
 */
import type { PunchResultView } from '../../src/contract.js';

export class PunchDedupe {
  #inFlight = 0;
  #last: { json: string; punchId: number | null; at: number } | null = null;

  constructor(private readonly windowMs = 2_000) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** An own punch/badgeScan call starts. */
  begin(): void {
    this.#inFlight += 1;
  }

  /** An own call ended; `result` is what it answered (null: nothing to show, or it failed). */
  end(result: PunchResultView | null, now: number): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (result) this.#remember(result, now);
  }

  /** Whether a `punch` event should be shown; an event that is shown is remembered too. */
  acceptEvent(result: PunchResultView, now: number): boolean {
    if (this.#inFlight > 0) return false;
    const last = this.#last;
    if (last) {
      const id = result.ok ? result.punchId : null;
      if (id !== null && id === last.punchId) return false;
      if (id === null && last.json === stableJson(result) && now - last.at <= this.windowMs) return false;
    }
    this.#remember(result, now);
    return true;
  }

  #remember(result: PunchResultView, now: number): void {
    this.#last = { json: stableJson(result), punchId: result.ok ? result.punchId : null, at: now };
  }
}

/** JSON with sorted keys, so the same result parsed twice compares equal. */
function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}
