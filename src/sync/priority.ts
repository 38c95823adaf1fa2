/**
 * Lower number goes first. Punches (and their reconciliation) before roster pages; the audit's
 * reads (sync/audit-compare.ts), then the self-service reads an employee sees on their result
 * (sync/self-service-fetch.ts) last, on what the others leave. Anything but a punch keeps the
 * punch reserve free (here and in the fleet's window: redis-window-scripts.ts).
 */
export const Priority = { punch: 0, roster: 1, audit: 2, selfService: 3 } as const;
export type Priority = (typeof Priority)[keyof typeof Priority];
