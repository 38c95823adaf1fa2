import { requestDeadlineMs } from '../../api/deadline.js';
import type { Config } from '../../config.js';
import type { Clock, Sleep } from '../../domain/time/clock.js';
import { punchReserve, type WindowRule } from '../../domain/rate/sliding-window.js';
import type { Logger } from '../../log.js';
import { rateKeyOrigin, type RateKeyOrigin } from '../../sync/window/rate-key.js';
import { RedisSharedWindow } from '../../sync/window/redis-window.js';
import { SharedWindowLink } from '../../sync/window/shared-window-link.js';
import { TerminalRegistry, type IdConflict } from '../../sync/fleet/terminal-registry.js';
import type { SettingsApi } from '../settings/settings.js';

/** The account's request window in Redis, as the agent holds it. */
export type SharedRate = {
  /** For the RateBudget. */
  link: SharedWindowLink;
  /** This process's name in the shared window and the registry (random, made at start). */
  instanceId: string;
  /** Other live terminals under this terminal's id, or null. */
  conflict(): IdConflict | null;
  /** The settings' API calls, with a new token also moving this terminal to that account's window. */
  followToken(api: SettingsApi): SettingsApi;
  /** The window's key and what it was made from (the normalised service address, or rateLimit.redisKey). */
  keyOrigin(): RateKeyOrigin;
  close(): Promise<void>;
};

/** Who this terminal is, as the fleet's registry shows it. */
export type FleetSelf = { terminalId: string; host: string; pid: number };

/**
 * With `rateLimit.redisUrl`: one window for every terminal of the account, at `accountLimit` per
 * window, in Redis; null without it. The client connects in the background: nothing is sent until
 * it joins the window, or until the own share (`limit`) is chosen because Redis is out of reach.
 * `changed`: the conflict found by the registry changed.
 */
export function sharedRateFor(
  config: Pick<Config, 'rateLimit' | 'selfService'> & { api: NonNullable<Config['api']> },
  self: FleetSelf,
  token: string,
  rule: WindowRule,
  clock: Clock,
  sleep: Sleep,
  log: Logger,
  changed: () => void = () => {},
): SharedRate | null {
  const { redisUrl, redisKey, accountLimit, punchReserve: reserveShare } = config.rateLimit;
  const announceEveryMs = config.rateLimit.announceEveryMs ?? 10_000;
  if (!redisUrl) return null;
  const originFor = (t: string) => rateKeyOrigin(redisKey, config.api.baseUrl, t);
  const keyFor = (t: string) => originFor(t).key;
  let origin = originFor(token);
  const { terminalId } = self;
  const connectTimeoutMs = 2_000;
  const window = new RedisSharedWindow({
    url: redisUrl,
    key: keyFor(token),
    terminalId,
    limit: accountLimit,
    punchReserve: punchReserve(accountLimit, reserveShare),
    selfServiceShare: config.selfService.maxShare,
    // A request lasts at most its whole deadline (connect, headers, body), not one phase's timeout.
    inFlightMs: requestDeadlineMs(config.api.timeoutMs),
    // Reconnect at least twice a window, so the one window of caution after a rejoin (see
    // SharedWindowLink) covers the other terminals' reconnections too.
    reconnectMaxMs: Math.min(5_000, Math.max(100, rule.windowMs / 2)),
    connectTimeoutMs,
  });
  // At start: a connection attempt and the first script's answer before the own share is chosen.
  const link = new SharedWindowLink({
    window,
    clock,
    sleep,
    log,
    opts: { inFlightMs: requestDeadlineMs(config.api.timeoutMs), joinWaitMs: connectTimeoutMs + 500, changed },
  });
  const registry = new TerminalRegistry({
    store: window,
    self: { id: terminalId, instance: window.instanceId, host: self.host, pid: self.pid, startedAt: clock.now() },
    clock,
    sleep,
    log,
    opts: { everyMs: announceEveryMs, ttlMs: 3 * announceEveryMs, changed },
  });
  // Announced as soon as Redis answers (a conflict shows within a renewal), then on schedule.
  window.onChange((reachable) => {
    if (reachable) void registry.announceNow();
  });
  registry.start();
  // The URL may carry a password: not logged.
  log.info("rate window: shared with the account's terminals in Redis", {
    key: window.currentKey,
    keyFrom: origin.from,
    terminalId,
    instance: window.instanceId,
    host: self.host,
    accountLimit,
  });
  return {
    link,
    instanceId: window.instanceId,
    conflict: () => registry.conflict(),
    followToken: (api) => ({
      setToken: (t) => {
        api.setToken(t);
        const key = keyFor(t);
        if (key === window.currentKey) return;
        origin = originFor(t);
        window.setKey(key);
        link.rejoinSoon();
        // Announced under the new account now; the entry under the old one expires by itself.
        void registry.announceNow();
      },
      checkToken: (t, siteId) => api.checkToken(t, siteId),
      getSite: (siteId) => api.getSite(siteId),
    }),
    keyOrigin: () => origin,
    close: async () => {
      link.stop();
      await registry.stop();
      await window.close();
    },
  };
}
