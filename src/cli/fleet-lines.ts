/** `timeclock status`: where the terminal's request slots come from, and another live terminal under its id. */
import { oneLine } from '../agent/status/fleet-words.js';
import type { AgentStatus } from '../agent/status/status.js';
import type { Say } from './status-say.js';

export function fleetLines(s: AgentStatus, say: Say): string[] {
  const lines: string[] = [];
  // Read from the database with no agent running, nothing is known of a window: said only when one is configured.
  if (s.rate || s.agentRunning) lines.push(say.label('status.label.sharedWindow') + rateModeValue(say, s));
  const wk = s.fleet?.windowKey;
  if (wk)
    lines.push(say.label('status.label.windowKey') + say.text('status.windowKey', { key: wk.key, from: wk.from }));
  const conflict = conflictValue(say, s);
  if (conflict) lines.push(say.label('status.label.idConflict') + conflict);
  return lines;
}

function rateModeValue(say: Say, s: AgentStatus): string {
  const rate = s.rate;
  const at = rate?.since != null && rate.shared !== 'local' ? rate.since : null;
  const since = at === null ? '' : say.text('status.since', { ago: say.since(at) });
  return rateMode(say, rate) + since;
}

/** Where the request slots come from (`rate` is absent when read from the database with no agent running). */
function rateMode(say: Say, rate: AgentStatus['rate']): string {
  if (!rate) return say.text('status.rate.unknown');
  if (rate.shared === 'local') return say.text('status.rate.local');
  if (rate.shared === 'redis') return say.text('status.rate.redis');
  if (rate.shared === 'joining') return say.text('status.rate.joining');
  const fault = rate.reason ?? 'error';
  const fix = say.text(`status.redisFix.${fault}`, { setting: 'rateLimit.redisUrl' });
  const words = { why: say.text(`status.redisWhy.${fault}`), fix, setting: 'rateLimit.limit' };
  if (!rate.redisError) return say.text('status.rate.fallback', words);
  return say.text('status.rate.fallbackSaid', { ...words, said: oneLine(rate.redisError.message) });
}

/** Other live terminals under this id, or null when there are none. */
function conflictValue(say: Say, s: AgentStatus): string | null {
  const fleet = s.fleet;
  const c = fleet?.conflict;
  if (!fleet || !c || c.others.length === 0) return null;
  const others = c.others.map((o) =>
    say.text('status.conflictOther', {
      host: o.host,
      instance: o.instance,
      pid: String(o.pid),
      started: new Date(o.startedAt).toISOString(),
    }),
  );
  const instance = fleet.instanceId ?? '?';
  return say.text('status.conflict', { id: s.terminalId, others: others.join(', '), host: fleet.host, instance });
}
