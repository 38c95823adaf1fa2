/**
 * The presence keeper as build-agent.ts wires it (issue 30): the stream in the fleet's Redis when
 * `rateLimit.redisUrl` is set (same URL, same account key as the shared window), the service's
 * records of the day through the one request budget, and the presence tables on the bookkeeping
 * connection (none of it is evidence; a punch never waits for it).
 */
import type { ApiClient } from '../../api/client.js';
import type { Config } from '../../config.js';
import { chooseTimeZone } from '../../domain/time/local-time.js';
import type { BookkeepingDb } from '../../store/database.js';
import type { Outbox } from '../../store/punches/outbox.js';
import { PresenceTables } from '../../store/punches/presence-tables.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import { presenceStreamKey, RedisPresenceStream } from '../../sync/fleet/presence-stream.js';
import { readDayTimes } from '../../sync/reads/presence-times.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import { PresenceKeeper } from './presence-keeper.js';
import { systemTimeZone, type Runtime } from '../host/runtime.js';

export type PresenceParts = {
  config: Config & { api: NonNullable<Config['api']> };
  rt: Runtime;
  db: BookkeepingDb;
  outbox: Outbox;
  api: ApiClient;
  budget: RateBudget;
  terminalId: string;
  /** The site in force (the admin screen may change it). */
  siteId: () => string | null;
  /** The shared window's key (null: no Redis, or the demo). */
  windowKey: (() => string) | null;
  changed: () => void;
};

export function buildPresence(p: PresenceParts): { keeper: PresenceKeeper; close: () => Promise<void> } {
  const { config, rt, db } = p;
  const redisUrl = config.rateLimit.redisUrl;
  const stream =
    redisUrl && p.windowKey
      ? new RedisPresenceStream({
          url: redisUrl,
          terminalId: p.terminalId,
          maxLen: config.presence.streamMaxLen,
          reconnectMaxMs: Math.min(5_000, Math.max(100, config.presence.pollMs * 4)),
        })
      : null;
  const windowKey = p.windowKey;
  const site = () => readSetting(db, settingKeys.site);
  const keeper = new PresenceKeeper({
    tables: new PresenceTables(db),
    punchRow: (id) => p.outbox.get(id) ?? undefined,
    stream,
    streamKey: () => {
      // A terminal without a site filter serves the account's whole roster: one stream for all of it.
      return windowKey ? presenceStreamKey(windowKey(), site()?.id ?? p.siteId() ?? 'all') : null;
    },
    terminal: p.terminalId,
    gate: config.presence.gate ?? p.terminalId,
    siteTimeZone: () => chooseTimeZone([site()?.timezone, config.timezone, systemTimeZone()]),
    siteName: () => site()?.name ?? p.siteId() ?? '',
    dataDir: config.dataDir,
    readDay: (ref, date, zone, signal) =>
      readDayTimes(
        {
          getTimes: (r, from, to) => p.api.getTimes(r, from, to),
          budget: p.budget,
          punchesDue: () => p.outbox.hasDue(rt.clock.now()),
        },
        ref,
        date,
        zone,
        signal,
      ),
    clock: rt.clock,
    sleep: rt.sleep,
    log: rt.log,
    changed: p.changed,
    opts: {
      maxShiftMs: config.selfService.maxShiftHours * 3_600_000,
      pollMs: config.presence.pollMs,
      fallbackEveryMs: config.presence.fallbackEveryMs,
      fallbackPeople: config.presence.fallbackPeople,
      readAtPunch: config.presence.readAtPunch,
    },
  });
  return { keeper, close: async () => (stream ? stream.close() : undefined) };
}
