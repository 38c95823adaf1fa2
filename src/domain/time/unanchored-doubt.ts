/**
 * A punch time the service never confirmed (the wall clock of a boot that got no usable `Date`)
 * that cannot be true. A board without a battery boots at 2000-01-01 (or at its build date): its
 * punches must not reach payroll dated then. Such a time is earlier than a time known to be right
 * and earlier (an anchored punch taken before it, this software's build), or later than the
 * present as best known (the anchored time now, else the wall clock now). Pure: readings are passed in.
 */

/** A time known to be right and earlier than the punch, and where it comes from. */
export type KnownTime = { at: number; what: 'anchored_punch' | 'build' };

export type UnanchoredDoubt =
  { kind: 'before_known'; known: KnownTime } | { kind: 'after_present'; presentAt: number; presentAnchored: boolean };

/**
 * Why `capturedAt` cannot be the punch's true time, or null when it may be. `toleranceMs` allows
 * for a wall clock a little slow or fast against times the service confirmed.
 */
export function unanchoredDoubt(
  capturedAt: number,
  known: readonly KnownTime[],
  present: { at: number; anchored: boolean },
  toleranceMs: number,
): UnanchoredDoubt | null {
  let latest: KnownTime | null = null;
  for (const k of known) if (Number.isFinite(k.at) && (latest === null || k.at > latest.at)) latest = k;
  if (latest && capturedAt < latest.at - toleranceMs) return { kind: 'before_known', known: latest };
  if (capturedAt > present.at + toleranceMs)
    return { kind: 'after_present', presentAt: present.at, presentAnchored: present.anchored };
  return null;
}
