import os from 'node:os';
import { ApiClient } from '../api/client.js';
import { terminalIdOf, type Config } from '../config.js';
import {
  ensureDataDir,
  openBookkeepingConnection,
  openDatabase,
  type BookkeepingDb,
  type DurableDb,
} from '../store/database.js';
import { lockDataDir } from '../store/upkeep/lock.js';
import { Outbox } from '../store/punches/outbox.js';
import { RateSlots } from '../store/settings/rate-slots.js';
import { Roster } from '../store/roster/roster.js';
import { AuditLog } from '../store/roster/audit-log.js';
import { Identities } from '../store/roster/identities.js';
import { settingKeys } from '../store/settings/setting-keys.js';
import { readSetting } from '../store/settings/settings.js';
import { UnresolvedPunches } from '../store/punches/unresolved.js';
import { Agent } from './facade/agent.js';
import { Capture } from './capture/capture.js';
import { EmployerCache } from '../store/roster/employers.js';
import { EmployerSync } from '../sync/roster/employer-sync.js';
import { employerChainOf } from './roster/employers.js';
import { bootMonotonic } from './time/time-source.js';
import { buildTimeParts } from './time/build-time.js';
import { RosterKeeper } from './roster/roster-keeper.js';
import { IdentityAdmin } from './identity/identity-admin.js';
import { SettingsAdmin } from './settings/settings.js';
import { startingToken, storedOverrides } from './settings/stored-settings.js';
import { FileTokenStore } from '../store/private-file.js';
import { sharedRateFor } from './delivery/shared-rate.js';
import { storageProblem } from '../store/upkeep/health-probe.js';
import { RequestCounts } from './status/request-counts.js';
import { liveReceiptSettings, Receipts } from './receipts/receipts.js';
import { journalReceiptSource } from './receipts/receipt-source.js';
import { ReceiptFiles } from './receipts/receipt-files.js';
import { AfdAdmin } from './exports/afd-admin.js';
import { AuditRunner } from './delivery/audit-runner.js';
import { AuditMarks } from '../store/journal/audit-marks.js';
import { buildWatches } from './background-watches.js';
import { buildReaders } from './capture/build-readers.js';
import { pinStore } from './identity/build-identity-admin.js';
import { openJournal } from './journal/open-journal.js';
import { type BuildOptions, type Runtime } from './host/runtime.js';
import { captureOptionsOf } from './capture/capture-options.js';
import { buildSelfService } from './receipts/build-self-service.js';
import { livenessJob } from './delivery/liveness-job.js';
import { apiNetworkOf } from './delivery/api-network.js';
import { fleetRecord, type FleetStatus } from './status/fleet-status.js';
import { routeGateFor } from './delivery/route-memory.js';
import { ServiceWatch } from './delivery/service-watch.js';
import { buildDelivery } from './delivery/build-delivery.js';
import { ScanInlet } from './capture/build-readers.js';
import { AgentEventHub } from './facade/status-events.js';
import { StatusRecorder } from './status/status-recorder.js';
import { PhotoDesk } from './photos/photo-desk.js';
import { checkpointInWorker } from '../store/upkeep/checkpoint-worker.js';
import { cameraKey } from '../store/settings/camera-record.js';
import { buildPresence } from './presence/build-presence.js';

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
  const lock = lockDataDir(ensureDataDir(config.dataDir));
  // Made in the data directory at the first start (config-terminal-id.ts), unless configured.
  const terminalId = terminalIdOf(config);
  const host = rt.host ?? os.hostname();
  let db: DurableDb;
  let bookkeeping: BookkeepingDb;
  try {
    db = openDatabase(config.dataDir);
    bookkeeping = openBookkeepingConnection(config.dataDir);
  } catch (e) {
    lock.release();
    throw e;
  }
  // Status first: the parts below report to these as they are built and run; the agent receives them.
  const events = new AgentEventHub(rt.log);
  const recorder = new StatusRecorder({ db, clock: rt.clock, log: rt.log, changed: () => events.statusSoon() });
  const journal = openJournal(db, config, rt, opts.fleetNsr ?? null);
  const outbox = new Outbox(db, bookkeeping, journal);
  // Retired rosters are freed with the log checkpointed off the loop (store/roster/roster.ts, reclaim).
  const roster = new Roster(db, { checkpoints: () => checkpointInWorker(config.dataDir) });
  // A roster stored by a version without summaries: computed once here, then at each swap.
  roster.ensureSummary();
  // Old rosters a stop or a crash left to free: freed in the background, a step per turn.
  void roster.reclaim();
  const rateSlots = new RateSlots(bookkeeping);
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
  const requests = new RequestCounts();
  const network = apiNetworkOf(config.api, rt);
  // Whether the service answers, from every request and the liveness check; its return ends delivery's back-off.
  const service = new ServiceWatch({
    clock: rt.clock,
    log: rt.log,
    changed: (r) => recorder.serviceState(r),
    answered: (at) => recorder.answered(at),
    // The uploader is built below, before any request goes.
    back: (o) => uploader.serviceBack(o),
  });
  // The read routes the service lacks: asked again after a pause, not after every punch.
  const routes = routeGateFor(db, config.api, rt);
  const api = new ApiClient({
    network,
    baseUrl: config.api.baseUrl,
    token: token.token,
    timeoutMs: config.api.timeoutMs,
    dialect: config.api.dialect,
    mono,
    onServerDate: (d, sent, received) => time.noteServerDate(d, sent, received),
    onNoServerDate: (header) => time.noteMissingDate(header),
    onRequest: (kind, status, error) => {
      requests.note(kind, status);
      service.request(kind, status, error);
    },
  });
  // The demo's API is its own: no fleet to share a window with.
  // Kept for `timeclock status` in another process; set once the parts below exist.
  let recordFleet = (): void => {};
  const shared = demo
    ? null
    : sharedRateFor(config, { terminalId, host, pid: process.pid }, token.token, rule, rt.clock, rt.sleep, rt.log, () =>
        recordFleet(),
      );
  const fleetNow = (): FleetStatus => ({
    host,
    instanceId: shared?.instanceId ?? null,
    conflict: shared?.conflict() ?? null,
    windowKey: shared?.keyOrigin() ?? null,
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
    },
    captureOptionsOf(config),
  );
  const stopCtl = new AbortController();
  const employerSync = new EmployerSync({
    api,
    db: bookkeeping,
    budget,
    clock: rt.clock,
    log: rt.log,
    punchesDue: () => outbox.hasDue(rt.clock.now()),
    windowMs: () => budget.windowMs,
  });
  // Built after capture, which asks it (through the closure above) whether the roster is complete.
  const keeper: RosterKeeper = new RosterKeeper({
    db,
    rosterSync,
    outbox,
    capture,
    clock: rt.clock,
    random: rt.random,
    log: rt.log,
    refreshMs: config.roster.refreshMs,
    retry: { baseMs: config.roster.retryBaseMs, maxMs: config.roster.retryMaxMs },
    shrinkRecheckMs: config.roster.shrinkRecheckMs,
    stopSignal: stopCtl.signal,
    write: (key, value) => recorder.safeWrite(key, value),
    noteError: (message) => recorder.noteError(message),
    changed: () => recorder.statusChanged(),
    released: () => uploader.wake(),
    employers: () =>
      employerSync
        .run(stopCtl.signal)
        .catch((e: unknown) => rt.log.warn('employer read failed', { error: (e as Error).message })),
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
  const watches = buildWatches({ config, rt, opts, db, bookkeeping, mono }, recorder);
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
      receipts: new Receipts({
        source: journalReceiptSource(db),
        settings: liveReceiptSettings(config, db),
        log: rt.log,
        files: new ReceiptFiles({
          dataDir: config.dataDir,
          keepHours: config.receipt.keepHours,
          afd: config.afd,
          now: () => rt.clock.now(),
          log: rt.log,
        }),
      }),
      afd,
      // Its reads wait while punches are due, like roster pages (sync/reads/audit-compare.ts).
      days: self.days,
      jobs: [...(self.prefetch ? [self.prefetch] : []), ...(liveness ? [liveness] : []), photos.job(), presence.keeper],
      auditor: new AuditRunner({
        db,
        marks: new AuditMarks(db),
        api,
        budget,
        clock: rt.clock,
        log: rt.log,
        stopSignal: stopCtl.signal,
        punchesDue: () => outbox.hasDue(rt.clock.now()),
        windowMs: () => budget.windowMs,
        authRetryMs: config.retry.authRetryMs,
        write: (key, value) => recorder.safeWrite(key, value),
      }),
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
        bookkeeping.close();
        // A clean stop: the sidecar learns the last NSR given (a copy taken during this run is then recognised).
        journal.close();
        await journal.closeOutside();
        // Its checkpoint workers gone first: one still starting would open the closed database again.
        await roster.close();
        db.close();
        lock.release();
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
