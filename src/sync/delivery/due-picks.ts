/**
 * Which due punch the uploader sends next, and what it tells the fleet's shared window of the
 * punches it has waiting. Apart from the uploader's loop (uploader.ts): both are reads of the
 * outbox's due punches past those already in flight.
 */
import type { Outbox, PunchRow } from '../../store/punches/outbox.js';
import type { PunchWaiting } from '../window/shared-window.js';

/** The most due punches a terminal tells the fleet's window it has (the slots kept for it at most). */
const BACKLOG_TOLD = 16;

/** The oldest due punch that is not already in flight. */
export function pickDue(outbox: Outbox, inFlight: ReadonlySet<number>, now: number): PunchRow | null {
  return outbox.dueBatch(now, inFlight.size + 1).find((p) => !inFlight.has(p.id)) ?? null;
}

/**
 * How long the two oldest due punches not in flight have waited, since they became due (capture,
 * or the end of a retry's back-off): the fleet's shared window serves its oldest punches first.
 * `maxInFlight`: the requests the uploader may have out at once now.
 */
export function punchWaiting(
  outbox: Outbox,
  inFlight: ReadonlySet<number>,
  now: number,
  maxInFlight: number,
): PunchWaiting | null {
  // Its backlog (up to a bound): slots freed together are kept for it while its punches are the oldest.
  const due = outbox.dueBatch(now, inFlight.size + BACKLOG_TOLD).filter((p) => !inFlight.has(p.id));
  const [oldest, next] = due;
  if (!oldest) return null;
  const ageOf = (p: PunchRow) => Math.max(0, now - p.next_attempt_at);
  // But only as many as it can take at once: past its places in flight a kept slot idles until an
  // answer comes back (told its whole backlog, the fleet drained at 0.83-0.92 of the limit).
  const places = Math.max(0, maxInFlight - inFlight.size - 1);
  return { oldestMs: ageOf(oldest), nextMs: next ? ageOf(next) : null, more: Math.min(due.length - 1, places) };
}
