/**
 * The fleet's state in words, for `timeclock status`, /healthz and the log (the screen has its own
 * in three languages): which window the terminal's requests come from and, when it is on its own
 * share, why and what to check; another live terminal under its id.
 */
import type { RedisFault } from '../../sync/redis-fault.js';
import type { RateSharing } from '../../sync/shared-window-link.js';
import type { FleetStatus } from './fleet-status.js';
import type { AgentStatus } from './status.js';

const faultWords: Record<RedisFault, string> = {
  connecting: 'Redis has not answered since the start',
  unreachable: 'Redis is unreachable',
  auth: 'Redis refused the password',
  timeout: 'Redis stopped answering in time',
  bad_answer: 'Redis answers what the scripts never return',
  error: 'Redis answered with an error',
};

const faultFix: Record<RedisFault, string> = {
  connecting: 'check rateLimit.redisUrl and the network',
  unreachable: 'check rateLimit.redisUrl (host and port), the network and that Redis runs',
  auth: 'check the password in rateLimit.redisUrl (redis://:PASSWORD@host:6379)',
  timeout: 'check the load on Redis and the network',
  bad_answer: 'check that rateLimit.redisUrl points at a Redis (not a proxy or another service)',
  error: 'check the Redis log',
};

/** One line: where the request slots come from (`rate` is absent when read from the database with no agent running). */
export function rateModeLine(rate: RateSharing | undefined): string {
  if (!rate) return 'not known (the running agent did not record it)';
  switch (rate.shared) {
    case 'local':
      return "this terminal alone (no Redis configured): it adapts to the account's limit on 429s";
    case 'redis':
      return "shared with the account's terminals in Redis";
    case 'joining':
      return "joining the account's window in Redis (nothing is sent until it answers, or for at most a few seconds)";
    case 'fallback-local': {
      const fault = rate.reason ?? 'error';
      const said = rate.redisError ? ` (${oneLine(rate.redisError.message)})` : '';
      return `LOCAL FALLBACK: ${faultWords[fault]}${said}; this terminal sends at its own share (rateLimit.limit) — ${faultFix[fault]}`;
    }
  }
}

/** One line naming the other live terminals under this id, or null when there are none. */
export function conflictLine(terminalId: string, fleet: FleetStatus | undefined): string | null {
  const c = fleet?.conflict;
  if (!c || c.others.length === 0) return null;
  const others = c.others
    .map((o) => `host ${o.host} (instance ${o.instance}, pid ${o.pid}, started ${new Date(o.startedAt).toISOString()})`)
    .join(', ');
  return (
    `terminal id ${terminalId} is also used by ${others}; this one runs on host ${fleet.host} (instance ${fleet.instanceId ?? '?'}). ` +
    'Give each terminal its own id: delete the file terminal-id in the copied data directory and restart it, or set a distinct terminalId'
  );
}

/**
 * /healthz's lines after `ok` (issue 24): the shared window's mode and an id conflict, when there is a
 * fleet to speak of (Redis configured); nothing for a terminal alone, whose answer stays `ok`.
 */
export function fleetHealthLines(s: Pick<AgentStatus, 'terminalId' | 'rate' | 'fleet'>): string[] {
  if (!s.rate || s.rate.shared === 'local') return [];
  const lines = [`shared window: ${rateModeLine(s.rate)}`];
  const conflict = conflictLine(s.terminalId, s.fleet);
  if (conflict) lines.push(`terminal id conflict: ${conflict}`);
  return lines;
}

export function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 159)}…` : t;
}
