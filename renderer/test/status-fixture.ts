/** A whole, contract-shaped status for the renderer's tests: a terminal with a complete roster and nothing wrong. */
import type { StatusView } from '../../src/contract.js';

type Roster = StatusView['roster'];

export function rosterStatus(over: Partial<Roster> = {}): Roster {
  return {
    size: 0,
    lastSync: null,
    progress: null,
    health: { missingWorkSchedule: 0, missingEmployer: 0, badTimeZone: 0, employees: [] },
    enrolledBadges: 0,
    complete: true,
    skipped: null,
    heldShrink: null,
    siteFilter: null,
    notAllowed: { count: 0, employees: [] },
    nextSyncAt: null,
    refreshBy: null,
    ...over,
  };
}

export function status(over: Partial<StatusView> = {}): StatusView {
  return {
    now: 0,
    online: true,
    lastContactAt: 0,
    queue: { pending: 0, sending: 0, in_doubt: 0, sent: 0, rejected: 0, held: 0 },
    unsent: 0,
    oldestUnsentAgeMs: null,
    lastError: null,
    sendingPaused: null,
    authRefused: null,
    setupProblem: null,
    warnings: [],
    version: '0.1.0',
    terminalId: 'terminal-1',
    collisions: { count: 0, punches: [] },
    rateWindow: { used: 0, limit: 60, windowMs: 60_000 },
    roster: rosterStatus(),
    unresolved: { count: 0, oldestAt: null, lastCheckedAt: null },
    site: null,
    readers: [],
    clockSkewMs: null,
    agentRunning: true,
    settings: {
      siteId: null,
      rateLimit: { limit: 60, windowMs: 60_000 },
      token: { source: 'config', setAt: null, warning: null },
    },
    ...over,
  };
}
