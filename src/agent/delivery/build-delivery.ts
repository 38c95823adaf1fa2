/**
 * Delivery as build-agent.ts wires it: the request budget every call draws from, the uploader
 * (punches to `POST /times`) and the roster sync (the service's employees to the lookup), the last
 * two reporting to the status recorder built before them.
 */
import type { ApiClient } from '../../api/client.js';
import type { Config } from '../../config.js';
import type { WindowRule } from '../../domain/rate/sliding-window.js';
import type { DurableDb } from '../../store/database.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { Roster } from '../../store/roster/roster.js';
import { settingKeys } from '../../store/settings/setting-keys.js';
import { readSetting, writeSetting } from '../../store/settings/settings.js';
import { RateBudget } from '../../sync/window/rate-budget.js';
import type { RateSlots } from '../../store/settings/rate-slots.js';
import type { SharedWindowLink } from '../../sync/window/shared-window-link.js';
import type { RouteGate } from '../../sync/delivery/route-gate.js';
import { RosterChanges } from '../../sync/roster/roster-changes.js';
import { RosterSync } from '../../sync/roster/roster-sync.js';
import { Uploader } from '../../sync/delivery/uploader.js';
import type { PunchAnchoring } from '../../sync/delivery/uploader-types.js';
import type { BuildOptions, Runtime } from '../host/runtime.js';
import type { StatusRecorder } from '../status/status-recorder.js';

export type DeliveryParts = { budget: RateBudget; uploader: Uploader; rosterSync: RosterSync };

export function buildDelivery(d: {
  config: Config & { api: NonNullable<Config['api']> };
  rt: Runtime;
  opts: BuildOptions;
  db: DurableDb;
  outbox: Outbox;
  roster: Roster;
  rateSlots: RateSlots;
  /** The fleet's shared window (Redis), or null: this terminal's own. */
  link: SharedWindowLink | null;
  api: ApiClient;
  rule: WindowRule;
  siteId: string | null;
  anchoring: PunchAnchoring;
  routes: RouteGate;
  recorder: StatusRecorder;
}): DeliveryParts {
  const { config, rt, db, outbox, roster, api, rule, routes, recorder } = d;
  const budget: RateBudget = new RateBudget({
    store: d.rateSlots,
    clock: rt.clock,
    sleep: rt.sleep,
    rule,
    link: d.link,
    adaptive: {
      adapt: d.opts.adaptiveRate ?? true,
      random: rt.random,
      onCut: (limit, was) =>
        rt.log.info("429 from the service: this terminal's request limit cut", {
          limit,
          was,
          windowMs: budget.windowMs,
        }),
    },
    reserveShare: config.rateLimit.punchReserve,
    selfServiceShare: config.selfService.maxShare,
  });
  const uploader = new Uploader({
    outbox,
    api,
    budget,
    clock: rt.clock,
    sleep: rt.sleep,
    random: rt.random,
    opts: {
      backoff: { baseMs: config.retry.baseMs, maxMs: config.retry.maxMs },
      inDoubtGraceMs: config.retry.inDoubtGraceMs ?? 2 * config.api.timeoutMs,
      authRetryMs: config.retry.authRetryMs,
      windowMs: rule.windowMs,
      maxInFlight: config.upload.maxInFlight,
      heldRetryMs: config.retry.heldRetryMs,
      maxChecks: config.retry.maxChecks,
    },
    log: rt.log,
    onEvent: (e) => recorder.onUploaderEvent(e),
    // A punch of this boot taken before any answer waits for one and is recomputed on the service's
    // clock before it goes; one of an earlier boot (or without a usable Date) goes at its wall time, if it can be true.
    anchoring: d.anchoring,
    routes,
  });
  const rosterSync = new RosterSync({
    api,
    roster,
    budget,
    clock: rt.clock,
    // Roster pages wait while punches are due, not while the punches wait out a back-off: then a
    // good answer of a roster page is what ends it (agent/delivery/service-watch.ts).
    punchesDue: () => outbox.hasDue(rt.clock.now()) && !uploader.backingOff(),
    opts: {
      siteId: d.siteId,
      pageSize: config.roster.pageSize,
      windowMs: rule.windowMs,
      authRetryMs: config.retry.authRetryMs,
      shrinkRecheckMs: config.roster.shrinkRecheckMs,
      inUseSite: () => {
        const rec = readSetting(db, settingKeys.rosterSync);
        return rec && 'siteId' in rec ? rec.siteId : undefined;
      },
      changes: new RosterChanges({
        api,
        roster,
        memo: {
          read: () => readSetting(db, settingKeys.rosterChanges),
          write: (m) => writeSetting(db, settingKeys.rosterChanges, m),
        },
        pageSize: config.roster.pageSize,
        fullEveryMs: config.roster.fullEveryMs,
      }),
      routes,
    },
    log: rt.log,
    onProgress: (p) => recorder.noteRosterProgress(p),
  });
  return { budget, uploader, rosterSync };
}
