/**
 * Lower number goes first. Punches (and their reconciliation) before roster pages; the audit's
 * reads (sync/reads/audit-compare.ts), then the lowest band, on what the others leave: the reads of
 * who is on site (sync/reads/presence-times.ts) before the self-service reads an employee sees on
 * their result (sync/reads/self-service-fetch.ts), whose prefetch of a whole roster would otherwise
 * hold a warden's board behind it. Anything but a punch keeps the punch reserve free; the lowest
 * band goes only while the window is nearly empty. Both rules are
 * `fillLimit`, applied to this terminal's window (rate-budget.ts) and to the fleet's in Redis
 * (redis-window.ts), so a fleet's reads together cannot fill the account's window before a shift
 * change any more than one terminal's can.
 */
export const Priority = { punch: 0, roster: 1, audit: 2, presence: 3, selfService: 4 } as const;
export type Priority = (typeof Priority)[keyof typeof Priority];

/** selfService.maxShare's default: reads go while the window is below this share of the limit. */
export const DEFAULT_SELF_SERVICE_SHARE = 0.1;

/**
 * How many slots of a window of `limit` may be in use for a request of `priority` to take one:
 * punches may fill it; roster pages and the audit leave the punch reserve (`reserve` slots, see
 * punchReserve in domain/rate/sliding-window.ts); presence and self-service reads only go below
 * `selfServiceShare` of it (at least one slot).
 */
export function fillLimit(priority: Priority, limit: number, reserve: number, selfServiceShare: number): number {
  if (priority === Priority.punch) return limit;
  if (priority >= Priority.presence)
    return Math.min(limit - reserve, Math.max(1, Math.floor(limit * selfServiceShare)));
  return limit - reserve;
}
