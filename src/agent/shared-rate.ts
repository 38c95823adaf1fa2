import { terminalIdOf, type Config } from '../config.js';
import type { Clock, Sleep } from '../domain/clock.js';
import { punchReserve, type WindowRule } from '../domain/sliding-window.js';
import type { Logger } from '../log.js';
import { defaultRateKey, RedisSharedWindow } from '../sync/redis-window.js';
import { SharedWindowLink } from '../sync/shared-window-link.js';
import type { SettingsApi } from './settings.js';

/** The account's request window in Redis, as the agent holds it. */
export type SharedRate = {
  /** For the RateBudget. */
  link: SharedWindowLink;
  /** The settings' API calls, with a new token also moving this terminal to that account's window. */
  followToken(api: SettingsApi): SettingsApi;
  close(): Promise<void>;
};

/**
 * With `rateLimit.redisUrl`: one window for every terminal of the account, at `accountLimit` per
 * window, in Redis; null without it. The client connects in the background: until it does, and
 * whenever Redis is out of reach, the budget goes on at this terminal's own `limit`.
 */
export function sharedRateFor(
  config: Pick<Config, 'rateLimit' | 'terminalId' | 'selfService'> & { api: NonNullable<Config['api']> },
  token: string,
  rule: WindowRule,
  clock: Clock,
  sleep: Sleep,
  log: Logger,
): SharedRate | null {
  const { redisUrl, redisKey, accountLimit, punchReserve: reserveShare } = config.rateLimit;
  if (!redisUrl) return null;
  const keyFor = (t: string) => redisKey ?? defaultRateKey(config.api.baseUrl, t);
  const terminalId = terminalIdOf(config);
  const window = new RedisSharedWindow({
    url: redisUrl,
    key: keyFor(token),
    terminalId,
    limit: accountLimit,
    punchReserve: punchReserve(accountLimit, reserveShare),
    selfServiceShare: config.selfService.maxShare,
    inFlightMs: config.api.timeoutMs,
    // Reconnect at least twice a window, so the one window of caution after a rejoin (see
    // SharedWindowLink) covers the other terminals' reconnections too.
    reconnectMaxMs: Math.min(5_000, Math.max(100, rule.windowMs / 2)),
  });
  const link = new SharedWindowLink(window, clock, sleep, log, { inFlightMs: config.api.timeoutMs });
  // The URL may carry a password: not logged.
  log.info('rate window: shared with the account\'s terminals in Redis', { key: window.currentKey, terminalId, accountLimit });
  return {
    link,
    followToken: (api) => ({
      setToken: (t) => {
        api.setToken(t);
        const key = keyFor(t);
        if (key === window.currentKey) return;
        window.setKey(key);
        link.rejoinSoon();
      },
      checkToken: (t, siteId) => api.checkToken(t, siteId),
      getSite: (siteId) => api.getSite(siteId),
    }),
    close: () => {
      link.stop();
      return window.close();
    },
  };
}
