import os from 'node:os';
import type { Config } from '../config.js';
import { AuditLog } from '../store/roster/audit-log.js';
import { Identities } from '../store/roster/identities.js';
import { settingKeys } from '../store/settings/setting-keys.js';
import { readSetting } from '../store/settings/settings.js';
import { UnresolvedPunches } from '../store/punches/unresolved.js';
import { Agent } from './facade/agent.js';
import { Capture } from './capture/capture.js';
import { EmployerCache } from '../store/roster/employers.js';
import { employerChainOf } from './roster/employers.js';
import { bootMonotonic } from './time/time-source.js';
import { buildTimeParts } from './time/build-time.js';
import type { RosterKeeper } from './roster/roster-keeper.js';
import { buildRosterKeeper } from './roster/build-roster-keeper.js';
import { IdentityAdmin } from './identity/identity-admin.js';
import { SettingsAdmin } from './settings/settings.js';
import { startingToken, storedOverrides } from './settings/stored-settings.js';
import { FileTokenStore } from '../store/private-file.js';
import { storageProblem } from '../store/upkeep/health-probe.js';
import { buildReceipts } from './receipts/build-receipts.js';
import { FreshMarks } from './receipts/fresh-marks.js';
import { AfdAdmin } from './exports/afd-admin.js';
import { buildAuditor } from './delivery/build-auditor.js';
import { buildWatches } from './background-watches.js';
import { buildReaders } from './capture/build-readers.js';
import { pinStore } from './identity/build-identity-admin.js';
import { type BuildOptions, type Runtime } from './host/runtime.js';
import { captureOptionsOf } from './capture/capture-options.js';
import { buildSelfService } from './receipts/build-self-service.js';
import { livenessJob } from './delivery/liveness-job.js';
import { fleetRecord } from './status/fleet-status.js';
import { buildDelivery } from './delivery/build-delivery.js';
import { buildServiceLink } from './delivery/build-service-link.js';
import { ScanInlet } from './capture/build-readers.js';
import { PhotoDesk } from './photos/photo-desk.js';
import { cameraKey } from '../store/settings/camera-record.js';
import { buildPresence } from './presence/build-presence.js';
import { openStores } from './open-stores.js';

export { realRuntime, realSleep, systemTimeZone, type BuildOptions, type Runtime } from './host/runtime.js';
export { buildIdentityAdmin } from './identity/build-identity-admin.js';

/**
 * Builds the agent in one explicit order: lock → database → status recorder and event hub → stores →
 * API client → budget → uploader and roster sync → agent. Nothing connects on import; everything is
 * passed in, and every part that reports is handed the status recorder (nothing calls up into the agent).
 */
export function buildAgent(
  config: Config & { api: NonNullable<Config['api']> },
  rt: Runtime,
  opts: BuildOptions = {},
): Agent {
  const demo = opts.demo ?? false;
  // The lock, the connections, the status recorder and the stores on them (open-stores.ts).
  const stores = openStores(config, rt, opts);
  const { terminalId, db, bookkeeping, events, recorder, journal, outbox, roster, rateSlots } = stores;
  const host = rt.host ?? os.hostname();
  const mono = rt.mono ?? bootMonotonic;
  // The service's clock when plausible, the NTP state, and what the uploader asks of a punch's time.
  // The first answer of this boot wakes delivery (the uploader is built below, before any request goes).
  const { time, anchoring, ntp } = buildTimeParts(config, rt, {
    db,
    outbox,
    mono,
    recorder,
    wake: () => uploader.wake(),
  });
  // What the admin screen saved wins over the configuration (settings.ts).
  const overrides = storedOverrides(db, demo);
  const rule = overrides.rate
    ? { limit: overrides.rate.limit, windowMs: overrides.rate.windowMs }
    : { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs };
  const siteId = overrides.site?.siteId ?? config.siteId ?? null;
  const tokens = rt.tokens ?? new FileTokenStore(config.dataDir);
  const token = startingToken(tokens, config.api.token, demo, db, rt.log);
  // Kept for `timeclock status` in another process; set once the parts below exist.
  let recordFleet = (): void => {};
  // The API client and its watches, and the fleet's shared window (delivery/build-service-link.ts).
  const { requests, network, service, routes, api, shared, fleetNow } = buildServiceLink({
    config,
    rt,
    db,
    demo,
    terminalId,
    host,
    token: token.token,
    rule,
    recorder,
    time,
    mono,
    // The uploader is built below, before any request goes.
    serviceBack: (o) => uploader.serviceBack(o),
    recordFleet: () => recordFleet(),
  });

  // The one request budget (shared with the fleet's window when there is one), delivery and the roster sync.
  const { budget, uploader, rosterSync } = buildDelivery({
    config,
    rt,
    opts,
    db,
    outbox,
    roster,
    rateSlots,
    link: shared?.link ?? null,
    api,
    rule,
    siteId,
    anchoring,
    routes,
    recorder,
  });
  const identities = new Identities(db);
  const unresolved = new UnresolvedPunches(db, journal);
  const audit = new AuditLog(db);
  const pins = pinStore(db, config, rt, audit);
  const settingsStop = new AbortController();
  const settings = new SettingsAdmin(
    {
      db,
      audit,
      api: shared ? shared.followToken(api) : api,
      budget,
      tokens,
      clock: rt.clock,
      log: rt.log,
      demo,
      stopSignal: settingsStop.signal,
      applyRule: (r) => {
        budget.setRule(r);
        uploader.setWindowMs(r.windowMs);
        rosterSync.setWindowMs(r.windowMs);
      },
      applySite: (id) => rosterSync.setSiteId(id),
      tokenChanged: () => uploader.tokenChanged(),
      // The keeper is built below; a settings change comes later than that.
      syncRoster: () => void keeper.sync().then(() => recorder.noteRosterProgress(null)),
      changed: () => recorder.statusChanged(),
    },
    { siteId, rule, token: token.view },
  );
  const fresh = new FreshMarks();
  const capture = new Capture(
    {
      db,
      outbox,
      identities,
      unresolved,
      pins,
      clock: rt.clock,
      time,
      log: rt.log,
      siteTimeZone: readSetting(db, settingKeys.site)?.timezone ?? null,
      committed: () => uploader.wake(),
      rosterComplete: () => keeper.complete(),
      // Through the recorder: recording must never fail a punch (a full disk fails this write too).
      recordError: (message) => recorder.noteError(message),
      employerChain: employerChainOf(new EmployerCache(db), config.employer),
      sealed: fresh.remember,
    },
    captureOptionsOf(config),
  );
  const stopCtl = new AbortController();
  // Built after capture, which asks it (through the closure above) whether the roster is complete.
  const keeper: RosterKeeper = buildRosterKeeper({
    config,
    rt,
    db,
    bookkeeping,
    api,
    budget,
    rosterSync,
    outbox,
    capture,
    recorder,
    stopSignal: stopCtl.signal,
    released: () => uploader.wake(),
  });
  const scans = new ScanInlet();
  const readers = buildReaders(config, rt, scans, recorder);
  const self = buildSelfService({ config, rt, db, api, budget, outbox, routes });
  // The service's host gone or back, told without a request (through the proxy when one applies);
  // looked at every second while nothing answers.
  const liveness = livenessJob(
    config,
    network,
    rt,
    (r) => {
      service.host(r);
      if (!r.reachable && r.reason) recorder.noteError(`the service cannot be reached: ${r.reason}`);
    },
    () => service.current?.state === 'offline',
  );
  // Who is on site (issue 30): after each punch's answer, from the stream in Redis or the service's records.
  const presence = buildPresence({
    config,
    rt,
    db: bookkeeping,
    outbox,
    api,
    budget,
    terminalId,
    siteId: () => siteId,
    windowKey: shared ? () => shared.keyOrigin().key : null,
    changed: () => events.statusSoon(),
  });
  events.on('punch', (a) => presence.keeper.punched(a));
  const watches = buildWatches({ config, rt, opts, db, bookkeeping, mono, checkpoints: stores.checkpoints }, recorder);
  const photos = new PhotoDesk({
    db,
    dataDir: config.dataDir,
    photo: config.photo,
    clock: rt.clock,
    log: rt.log,
    record: (r) => recorder.safeWrite(cameraKey, r),
    changed: () => recorder.statusChanged(),
  });
  const afd = new AfdAdmin({
    db,
    config,
    clock: rt.clock,
    log: rt.log,
    audit,
    ...(opts.afdDrives ? { drives: opts.afdDrives } : {}),
  });
  const agent = new Agent(
    {
      db,
      outbox,
      roster,
      rateSlots,
      budget,
      uploader,
      rosterSync,
      keeper,
      clock: rt.clock,
      mono,
      maxRetryAheadMs: Math.max(config.retry.maxMs, config.retry.heldRetryMs, config.retry.inDoubtGraceMs ?? 0),
      sleep: rt.sleep,
      log: rt.log,
      settings,
      capture,
      identities,
      unresolved,
      audit,
      admin: new IdentityAdmin({ identities, pins, audit, clock: rt.clock }),
      readers,
      rosterRefreshMs: config.roster.refreshMs,
      terminalId,
      fleet: fleetNow,
      requests,
      storageProblem: () => storageProblem(bookkeeping, config.dataDir, rt.clock.now()),
      integrity: watches.integrity,
      retention: watches.retention,
      journal: watches.journal,
      receipts: buildReceipts(config, rt, db, fresh),
      afd,
      // Its reads wait while punches are due, like roster pages (sync/reads/audit-compare.ts).
      days: self.days,
      jobs: [...(self.prefetch ? [self.prefetch] : []), ...(liveness ? [liveness] : []), photos.job(), presence.keeper],
      auditor: buildAuditor({ config, rt, db, api, budget, outbox, recorder, stopSignal: stopCtl.signal }),
      // A step of the wall clock: the skew is measured again and NTP's state asked again.
      timeStepped: () => {
        ntp.invalidate();
        time.remeasure();
      },
      ...(opts.clockCheckEveryMs !== undefined ? { clockCheckEveryMs: opts.clockCheckEveryMs } : {}),
      recorder,
      events,
      scans,
      photos,
      signingKeySet: Boolean(config.afd.signingKey),
      presence: presence.keeper,
      onClose: async () => {
        await self.selfService.stop();
        await presence.close();
        afd.close();
        settingsStop.abort();
        await shared?.close();
        await api.close();
        await stores.close();
      },
    },
    stopCtl,
  );
  recordFleet = () => {
    recorder.safeWrite(fleetRecord, { at: rt.clock.now(), rate: budget.sharing(), fleet: fleetNow() });
    recorder.statusChanged();
  };
  recordFleet();
  return agent;
}
