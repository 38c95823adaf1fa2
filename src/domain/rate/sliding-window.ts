/**
 * Sliding-window budget maths. A slot is taken when a request is sent and counts until one full
 * window after its response arrived (`releasedAt`): the server counts arrival times, which lie
 * somewhere between the two, so holding the slot that long can never put more than `limit`
 * arrivals in any window the server looks at. An in-flight slot (`releasedAt` null) always counts.
 */
export type Slot = { takenAt: number; releasedAt: number | null };
export type WindowRule = { limit: number; windowMs: number };

export function slotCounts(slot: Slot, now: number, windowMs: number): boolean {
  return slot.releasedAt === null || slot.releasedAt + windowMs > now;
}

export function slotsInUse(slots: readonly Slot[], now: number, windowMs: number): number {
  let n = 0;
  for (const s of slots) if (slotCounts(s, now, windowMs)) n++;
  return n;
}

/**
 * Milliseconds until a new slot may be taken: 0 when one is free now, `null` when every slot is
 * held by a request still in flight (only its response can free one).
 */
export function msUntilFreeSlot(slots: readonly Slot[], now: number, rule: WindowRule): number | null {
  const live = slots.filter((s) => slotCounts(s, now, rule.windowMs));
  if (live.length < rule.limit) return 0;
  // The (live - limit + 1)-th slot to expire is the one whose expiry makes room.
  const expiries = live
    .filter((s): s is Slot & { releasedAt: number } => s.releasedAt !== null)
    .map((s) => s.releasedAt + rule.windowMs)
    .sort((a, b) => a - b);
  const needed = live.length - rule.limit + 1;
  if (expiries.length < needed) return null;
  return Math.max(0, (expiries[needed - 1] as number) - now);
}

/**
 * Arrival-counting check as the server does it: true when `arrivals` (sorted or not) ever holds
 * more than `limit` timestamps inside one window of `windowMs`. Used by the mock and by tests.
 */
export function maxInAnyWindow(arrivals: readonly number[], windowMs: number): number {
  const t = [...arrivals].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while ((t[hi] as number) - (t[lo] as number) >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/**
 * Slots of a window that traffic other than punches (roster pages) leaves free, so a punch taken
 * during a long sync finds one at once instead of waiting for the sync's burst to age out of the
 * window (up to a whole window). `share` of the limit, at least one, never the whole window: a
 * limit of one cannot keep a reserve and still sync.
 */
export function punchReserve(limit: number, share: number): number {
  // An unbounded local window (the shared one in Redis rules, and keeps its own reserve): none.
  if (share <= 0 || limit <= 1 || !Number.isFinite(limit)) return 0;
  return Math.min(limit - 1, Math.max(1, Math.round(limit * share)));
}
