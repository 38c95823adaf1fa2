/**
 * Service-anchored time. Every answer of the service carries a `Date` header; with the monotonic
 * reading at that moment it is an anchor. A punch's time is the anchor's time plus the monotonic
 * time elapsed since it, when an anchor of the same boot exists (the monotonic clock restarts at
 * each boot); the terminal's wall clock is used only before the first anchor of a boot, and such a
 * reading is marked unanchored (to be recomputed before it is sent). Pure: readings are passed in.
 */
export type Anchor = { bootId: string; serverMs: number; mono: number };

export type TimeReading = {
  /** The instant to record and send: anchored when possible, else the wall clock. */
  at: number;
  wall: number;
  mono: number;
  bootId: string;
  anchored: boolean;
  /**
   * The service's clock disagrees with this machine's synchronised one, which was kept (date-plausibility.ts): mark the
   * punch.
   */
  serviceClockOff?: boolean;
};

export function readTime(anchor: Anchor | null, bootId: string, wall: number, mono: number): TimeReading {
  if (anchor && anchor.bootId === bootId)
    return { at: correctedTime(anchor, mono, wall), wall, mono, bootId, anchored: true };
  return { at: wall, wall, mono, bootId, anchored: false };
}

/**
 * The instant for a reading taken at `mono` whose wall clock said `wall`: the anchor's time, unless
 * the wall clock agrees with it within what a `Date` header can tell (±ANCHOR_TOLERANCE_MS). A
 * correction smaller than the anchor's own error is none: it would only move punches across
 * minute boundaries at random when the terminal's clock is right.
 */
export function correctedTime(anchor: Anchor, mono: number, wall: number): number {
  const at = Math.round(anchor.serverMs + (mono - anchor.mono));
  return Math.abs(at - wall) <= ANCHOR_TOLERANCE_MS ? wall : at;
}

/**
 * The anchor one answer gives. The `Date` header truncates to the second: its middle (+500 ms)
 * against the middle of the exchange is an unbiased estimate, good to about ±0.5 s.
 */
export function anchorOf(bootId: string, serverDate: number, sentMono: number, receivedMono: number): Anchor {
  return { bootId, serverMs: serverDate + 500, mono: (sentMono + receivedMono) / 2 };
}

/** Keep the anchor in force unless the new one disagrees by more than the header's resolution allows. */
export const ANCHOR_TOLERANCE_MS = 1_500;

export function betterAnchor(current: Anchor | null, candidate: Anchor): Anchor {
  if (!current || current.bootId !== candidate.bootId) return candidate;
  const predicted = current.serverMs + (candidate.mono - current.mono);
  return Math.abs(predicted - candidate.serverMs) > ANCHOR_TOLERANCE_MS ? candidate : current;
}
