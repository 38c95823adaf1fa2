/**
 * Doctor checks of the fleet (issue 24), only with `rateLimit.redisUrl`: the Redis the terminals of
 * the account share their request window in (reached, password accepted, the window's script
 * answering right), and this terminal's id (another live terminal under it: a cloned data
 * directory or a copied config). A Redis that does not work leaves each terminal on its own share.
 */
import os from 'node:os';
import {
  rateKeyOrigin,
  redactedRedisUrl,
  type RedisFault,
  type RedisProbe,
  type RedisProber,
} from '../../agent/diagnostics/redis-probe.js';
import { runningTerminal } from '../../agent/host/terminal-data.js';
import { storedTerminalIdOf, type Config } from '../../config.js';
import { fail, ok, warn, type CheckResult } from './result.js';

const problem: Record<RedisFault, string> = {
  connecting: 'no answer',
  unreachable: 'unreachable',
  auth: 'refused the password',
  timeout: 'did not answer in time',
  bad_answer: "answers what the shared window's scripts never return (not a Redis, or a proxy in between?)",
  error: 'answered with an error',
};

const fix: Record<RedisFault, string> = {
  connecting: 'check the host, the port and the firewall',
  unreachable: 'check the host and port in rateLimit.redisUrl, the network and that Redis runs',
  auth: 'set the right password in rateLimit.redisUrl (redis://:PASSWORD@host:6379, or redis://USER:PASSWORD@… with ACLs)',
  timeout: 'check the load on Redis and the network',
  bad_answer: 'point rateLimit.redisUrl at the Redis itself',
  error: 'check the Redis log',
};

/**
 * The two lines (redis, terminal id); without Redis one line when configured at a share of the account, else none; none
 * in the demo.
 */
export async function fleetChecks(
  config: Config,
  token: string | null,
  demo: boolean,
  probe: RedisProber,
): Promise<CheckResult[]> {
  const url = config.rateLimit.redisUrl;
  if (!url && !demo && config.api) return withoutRedis(config);
  if (!url || demo || !config.api || token === null) return [];
  const terminalId = storedTerminalIdOf(config);
  const origin = rateKeyOrigin(config.rateLimit.redisKey, config.api.baseUrl, token);
  const found = await probe(url, { key: origin.key, terminalId, timeoutMs: 2_000 });
  const check = redisCheck(url, found);
  // Which window: terminals whose keys differ do not share one (a service address spelled apart is normalised first).
  return [
    { ...check, detail: `${check.detail}; window key ${origin.key} (from ${origin.from})` },
    terminalIdCheck(terminalId, config.dataDir, found),
  ];
}

/**
 * A terminal configured at a share of the account's limit has others beside it: without a shared
 * window a share another terminal leaves idle is lost, and adapting from 429s cannot find it without
 * refusals (the fleet bench: half a shift change's punches at one of 10 terminals, 0.37 of what a
 * perfect limiter gets on split shares, 0.36 adapting, 0.99 with Redis). Redis is the set-up to use.
 */
function withoutRedis(config: Config): CheckResult[] {
  const { limit, accountLimit } = config.rateLimit;
  if (limit >= accountLimit) return [];
  return [
    warn(
      'redis',
      `none: this terminal sends at its own share, ${limit} of the account's ${accountLimit} a window, so what the others leave unused is lost to it; set rateLimit.redisUrl so the account's terminals share one window`,
    ),
  ];
}

function redisCheck(url: string, p: RedisProbe): CheckResult {
  const name = 'redis';
  const where = redactedRedisUrl(url);
  if (p.outcome === 'ok')
    return ok(
      name,
      `${where}: connected, PING ${p.pingMs} ms, the shared window's script answers right: the terminals share the account's window`,
    );
  const said = p.detail ? ` (${p.detail.replace(/\s+/g, ' ').slice(0, 160)})` : '';
  return fail(
    name,
    `${where} ${problem[p.outcome]}${said}: each terminal goes on at its own share (rateLimit.limit); ${fix[p.outcome]}`,
  );
}

function terminalIdCheck(terminalId: string, dataDir: string, p: RedisProbe): CheckResult {
  const name = 'terminal id';
  const host = os.hostname();
  const self = `${terminalId} on host ${host}`;
  if (p.sameId === null)
    return warn(name, `${self}: whether another live terminal uses it is not known (Redis not read)`);
  // This box's own agent, running on this data directory, is no conflict.
  const pid = runningTerminal(dataDir);
  const others = p.sameId.filter((e) => !(e.host === host && e.pid === pid));
  if (others.length === 0) return ok(name, `${self}: no other live terminal uses it`);
  const list = others
    .map((e) => `host ${e.host} (instance ${e.instance}, pid ${e.pid}, started ${new Date(e.startedAt).toISOString()})`)
    .join(', ');
  return fail(
    name,
    `${self} is also used by ${list}: give each terminal its own id (delete the file terminal-id in the copied data directory and restart it, or set a distinct terminalId)`,
  );
}
