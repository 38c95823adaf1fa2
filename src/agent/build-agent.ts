import { ApiClient } from '../api/client.js';
import { terminalIdOf, type Config } from '../config.js';
import type { Clock, Monotonic, Random, Sleep } from '../domain/clock.js';
import type { Logger } from '../log.js';
import { ensureDataDir, openBookkeepingConnection, openDatabase, type Db } from '../store/database.js';
import { lockDataDir } from '../store/lock.js';
import { Outbox } from '../store/outbox.js';
import { RateSlots } from '../store/rate-slots.js';
import { Roster } from '../store/roster.js';
import { RateBudget } from '../sync/rate-budget.js';
import { RosterChanges, type ChangesMemo } from '../sync/roster-changes.js';
import { RosterSync } from '../sync/roster-sync.js';
import { Uploader } from '../sync/uploader.js';
import type { HidBackend } from '../input/hid-backend.js';
import { HidReader } from '../input/hid-reader.js';
import { NodeHidBackend } from '../input/node-hid-backend.js';
import { decoderFor, transformFor } from '../input/reader-config.js';
import { AuditLog } from '../store/audit-log.js';
import { Identities } from '../store/identities.js';
import { Pins } from '../store/pins.js';
import { readSetting, writeSetting } from '../store/settings.js';
import { UnresolvedPunches } from '../store/unresolved.js';
import { Agent } from './agent.js';
import { Capture } from './capture.js';
import { bootMonotonic, currentBootId, TimeSource } from './time-source.js';
import { correctedTime } from '../domain/anchored-time.js';
import { localDateTime } from '../domain/local-time.js';
import { RosterKeeper } from './roster-keeper.js';
import { IdentityAdmin } from './identity-admin.js';
import { S, type RosterSyncRecord, type SiteRecord } from './status.js';
import { SettingsAdmin, startingToken, storedOverrides } from './settings.js';
import type { TokenStore } from './token-store.js';
import { FileTokenStore } from '../store/private-file.js';
import { sharedRateFor } from './shared-rate.js';
import { storageProblem } from '../store/health-probe.js';
import { RequestCounts } from './request-counts.js';
import { checkIntegrityInWorker, type IntegrityChecker } from '../store/integrity-check.js';
import { INTEGRITY_EVERY_MS, INTEGRITY_FIRST_AFTER_MS, IntegrityWatch } from './integrity-watch.js';
import { RETENTION_EVERY_MS, RETENTION_FIRST_AFTER_MS, RetentionWatch } from './retention-watch.js';
import { RetentionStore } from '../store/retention.js';
import { EvidenceJournal } from '../store/evidence-journal.js';
import { backfillJournal } from '../store/journal-backfill.js';
import { JOURNAL_FIRST_AFTER_MS, JournalWatch } from './journal-watch.js';
import { chooseTimeZone } from '../domain/local-time.js';
import { Receipts, receiptSettingsOf } from './receipts.js';
import { journalReceiptSource } from './receipt-source.js';
import { checkpointInWorker } from '../store/checkpoint-worker.js';
import { AfdAdmin } from './afd-admin.js';
import { AuditRunner } from './audit-runner.js';
import { AuditMarks } from '../store/audit-marks.js';
import type { DriveRoots } from './removable-drives.js';

/**
 * The outside world the agent runs in; `hid` defaults to node-hid (tests pass a fake). `tokens`:
 * where a token set on the admin screen is kept; default a 0600 file in the data directory (the
 * headless terminal's store; the Electron shell passes its safeStorage one).
 */
/** `mono`: monotonic ms (default performance.now); tests step it and `clock` independently. */
export type Runtime = { clock: Clock; mono?: Monotonic; bootId?: string; sleep: Sleep; random: Random; log: Logger; hid?: HidBackend; tokens?: TokenStore };

/**
 * `demo`: the embedded demo API; its token is fixed and nothing set on its admin screen reaches a real configuration.
 * `adaptiveRate` false: the limit never adapts to 429s (only the fleet tests' control turns it off).
 * `integrity`: when the background integrity check runs, and with what (tests).
 */
export type BuildOptions = {
  demo?: boolean;
  adaptiveRate?: boolean;
  integrity?: { firstAfterMs?: number; everyMs?: number; check?: IntegrityChecker };
  /** When retention passes run (tests). */
  retention?: { firstAfterMs?: number; everyMs?: number };
  /** When the evidence journal is first verified (tests; then config `journal.verifyEveryMs`). */
  journal?: { firstAfterMs?: number };
  /** Where the AFD export looks for removable drives (tests: a fake /proc/mounts and /sys). */
  afdDrives?: DriveRoots;
};

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, Math.min(ms, 2_147_483_647));
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export function realRuntime(log: Logger): Runtime {
  return { clock: { now: () => Date.now() }, sleep: realSleep, random: Math.random, log };
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Builds the agent in one explicit order: lock → database → stores → API client → budget →
 * uploader and roster sync → agent. Nothing connects on import; everything is passed in.
 */
export function buildAgent(config: Config & { api: NonNullable<Config['api']> }, rt: Runtime, opts: BuildOptions = {}): Agent {
  const demo = opts.demo ?? false;
  const lock = lockDataDir(ensureDataDir(config.dataDir));
  let db: Db;
  let bookkeeping: Db;
  try {
    db = openDatabase(config.dataDir);
    bookkeeping = openBookkeepingConnection(config.dataDir);
  } catch (e) {
    lock.release();
    throw e;
  }
  const journal = openJournal(db, config, rt);
  const outbox = new Outbox(db, bookkeeping, journal);
  const roster = new Roster(db);
  // A roster stored by a version without summaries: computed once here, then at each swap.
  roster.ensureSummary();
  // Old rosters a stop or a crash left to free: freed in the background, a step per turn.
  void roster.reclaim();
  const rateSlots = new RateSlots(bookkeeping);
  const mono = rt.mono ?? bootMonotonic;
  let agent: Agent | null = null;
  let uploaderRef: Uploader | null = null;
  const reanchor = () => {
    const a = time.current;
    if (!a) return 0;
    const n = outbox.reanchor(time.bootId, (m, wall) => correctedTime(a, m, wall), localDateTime, rt.clock.now());
    if (n > 0) rt.log.info('punches taken before the first answer of this boot now carry the service\'s time', { count: n });
    return n;
  };
  const time: TimeSource = new TimeSource(
    db,
    rt.clock,
    mono,
    rt.bootId ?? currentBootId(),
    () => {
      reanchor();
      uploaderRef?.wake();
    },
    () => agent?.noteClockError(time.skewMs(), config.clockSkewThresholdMs),
  );
  // What the admin screen saved wins over the configuration (settings.ts).
  const overrides = storedOverrides(db, demo);
  const rule = overrides.rate ? { limit: overrides.rate.limit, windowMs: overrides.rate.windowMs } : { limit: config.rateLimit.limit, windowMs: config.rateLimit.windowMs };
  const siteId = overrides.site?.siteId ?? config.siteId ?? null;
  const tokens = rt.tokens ?? new FileTokenStore(config.dataDir);
  const token = startingToken(tokens, config.api.token, demo, db, rt.log);
  const requests = new RequestCounts();
  const api = new ApiClient({
    baseUrl: config.api.baseUrl,
    token: token.token,
    timeoutMs: config.api.timeoutMs,
    dialect: config.api.dialect,
    mono,
    onServerDate: (d, sent, received) => time.noteServerDate(d, sent, received),
    onRequest: (kind, status) => requests.note(kind, status),
  });
  // The demo's API is its own: no fleet to share a window with.
  const shared = demo ? null : sharedRateFor(config, token.token, rule, rt.clock, rt.sleep, rt.log);
  const budget = new RateBudget(rateSlots, rt.clock, rt.sleep, rule, shared?.link ?? null, {
    adapt: opts.adaptiveRate ?? true,
    random: rt.random,
    onCut: (limit, was) => rt.log.info('429 from the service: this terminal\'s request limit cut', { limit, was, windowMs: budget.windowMs }),
  }, config.rateLimit.punchReserve);

  const uploader = new Uploader(
    outbox,
    api,
    budget,
    rt.clock,
    rt.sleep,
    rt.random,
    {
      backoff: { baseMs: config.retry.baseMs, maxMs: config.retry.maxMs },
      inDoubtGraceMs: config.retry.inDoubtGraceMs ?? 2 * config.api.timeoutMs,
      authRetryMs: config.retry.authRetryMs,
      windowMs: rule.windowMs,
      maxInFlight: config.upload.maxInFlight,
      heldRetryMs: config.retry.heldRetryMs,
      maxChecks: config.retry.maxChecks,
    },
    rt.log,
    (e) => agent?.onUploaderEvent(e),
    {
      // A punch of this boot taken before any answer waits for one (a probe fetches it) and is
      // recomputed on the service's clock before it goes; one of an earlier boot cannot be.
      needsAnchor: (p) => p.anchored === 0 && p.boot_id === time.bootId && time.current === null,
      reanchor: (p) => (p.anchored === 0 && p.boot_id === time.bootId && time.current !== null ? reanchor() > 0 : false),
    },
  );
  uploaderRef = uploader;
  const rosterSync = new RosterSync(
    api,
    roster,
    budget,
    rt.clock,
    () => outbox.hasDue(rt.clock.now()),
    {
      siteId,
      pageSize: config.roster.pageSize,
      windowMs: rule.windowMs,
      authRetryMs: config.retry.authRetryMs,
      shrinkRecheckMs: config.roster.shrinkRecheckMs,
      inUseSite: () => {
        const rec = readSetting<RosterSyncRecord>(db, S.rosterSync);
        return rec && 'siteId' in rec ? rec.siteId : undefined;
      },
      changes: new RosterChanges({
        api,
        roster,
        memo: { read: () => readSetting<ChangesMemo>(db, S.rosterChanges), write: (m) => writeSetting(db, S.rosterChanges, m) },
        pageSize: config.roster.pageSize,
        fullEveryMs: config.roster.fullEveryMs,
      }),
    },
    rt.log,
    (p) => agent?.noteRosterProgress(p),
  );
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
      syncRoster: () => void agent?.syncRoster(),
      changed: () => agent?.statusChanged(),
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
      siteTimeZone: readSetting<SiteRecord>(db, S.site)?.timezone ?? null,
      committed: () => uploader.wake(),
      rosterComplete: () => keeper.complete(),
      // Through the agent: recording must never fail a punch (a full disk fails this write too).
      recordError: (message) => agent?.noteError(message),
      online: () => agent?.isOnline() ?? false,
    },
    {
      rules: config.identity,
      unknown: config.identity.unknown,
      repeatWindowMs: config.identity.repeatWindowMs,
      pinRequiredFor: config.pin.requiredFor,
      onLockout: config.pin.onLockout,
      fallbackTimeZone: config.timezone ?? systemTimeZone(),
      clockSkewThresholdMs: config.clockSkewThresholdMs,
    },
  );
  const stopCtl = new AbortController();
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
    write: (key, value) => agent?.safeWrite(key, value),
    contact: (at, ok) => agent?.noteContact(at, ok),
    noteError: (message) => agent?.noteError(message),
    changed: () => agent?.statusChanged(),
    released: () => uploader.wake(),
  });
  const hid = rt.hid ?? new NodeHidBackend();
  const readers = config.readers.map(
    (c) =>
      new HidReader(
        { name: c.name, match: c.match, reconnectMs: c.reconnectMs },
        hid,
        decoderFor(c),
        transformFor(c),
        rt.clock,
        rt.sleep,
        rt.log,
        (code) => void agent?.scanned(code, `hid:${c.name}`),
        () => agent?.noteReaders(),
      ),
  );
  const integrity = new IntegrityWatch({
    dataDir: config.dataDir,
    clock: rt.clock,
    mono,
    log: rt.log,
    check: opts.integrity?.check ?? checkIntegrityInWorker,
    write: (record) => agent?.safeWrite(S.integrity, record),
    noteError: (message) => agent?.noteError(message),
    changed: () => agent?.statusChanged(),
    firstAfterMs: opts.integrity?.firstAfterMs ?? INTEGRITY_FIRST_AFTER_MS,
    everyMs: opts.integrity?.everyMs ?? INTEGRITY_EVERY_MS,
  });
  // On the bookkeeping connection: a deletion a power cut undoes is done again by the next pass.
  const retention = new RetentionWatch({
    store: new RetentionStore(bookkeeping),
    policy: config.retention,
    clock: rt.clock,
    mono,
    log: rt.log,
    checkpointer: () => checkpointInWorker(config.dataDir),
    write: (record) => agent?.safeWrite(S.retentionPass, record),
    changed: () => agent?.statusChanged(),
    firstAfterMs: opts.retention?.firstAfterMs ?? RETENTION_FIRST_AFTER_MS,
    everyMs: opts.retention?.everyMs ?? RETENTION_EVERY_MS,
  });
  const journalWatch = new JournalWatch({
    db,
    clock: rt.clock,
    log: rt.log,
    write: (record) => agent?.safeWrite(S.journalVerify, record),
    noteError: (message) => agent?.noteError(message),
    changed: () => agent?.statusChanged(),
    firstAfterMs: opts.journal?.firstAfterMs ?? JOURNAL_FIRST_AFTER_MS,
    everyMs: config.journal.verifyEveryMs,
  });
  agent = new Agent({
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
    admin: new IdentityAdmin(identities, pins, audit, rt.clock),
    readers,
    rosterRefreshMs: config.roster.refreshMs,
    terminalId: terminalIdOf(config),
    requests,
    storageProblem: () => storageProblem(bookkeeping, config.dataDir, rt.clock.now()),
    integrity,
    retention,
    journal: journalWatch,
    receipts: new Receipts(journalReceiptSource(db), receiptSettingsOf(config), rt.log),
    afd: new AfdAdmin({ db, config, clock: rt.clock, log: rt.log, audit, ...(opts.afdDrives ? { drives: opts.afdDrives } : {}) }),
    // Its reads wait while punches are due, like roster pages (sync/audit-compare.ts).
    auditor: new AuditRunner({
      db, marks: new AuditMarks(db), api, budget, clock: rt.clock, log: rt.log, stopSignal: stopCtl.signal,
      punchesDue: () => outbox.hasDue(rt.clock.now()), windowMs: () => budget.windowMs, authRetryMs: config.retry.authRetryMs,
      write: (key, value) => agent?.safeWrite(key, value),
    }),
    onClose: async () => {
      agent?.afd.close();
      settingsStop.abort();
      await shared?.close();
      await api.close();
      bookkeeping.close();
      // A clean stop: the sidecar learns the last NSR given (a copy taken during this run is then recognised).
      journal.close();
      db.close();
      lock.release();
    },
  }, stopCtl);
  return agent;
}

/**
 * The evidence journal at the agent's open: the NSR sidecar compared with the database (a restore
 * is recognised here and its gap recorded), a new block reserved, and punches from before the
 * journal journalled. A failure is logged, never fatal: punches are still taken (and journalled).
 */
function openJournal(db: Db, config: Config, rt: Runtime): EvidenceJournal {
  const journal = new EvidenceJournal(db, { warn: (message) => rt.log.warn(message), now: () => rt.clock.now() });
  try {
    const judged = journal.open();
    if (judged.kind === 'restored') rt.log.warn('evidence journal: the database is older than its NSR reservation', { gapFrom: judged.from, gapTo: judged.to });
    const zone = chooseTimeZone([readSetting<SiteRecord>(db, S.site)?.timezone, config.timezone, systemTimeZone()]);
    const b = backfillJournal(journal, { now: rt.clock.now(), unresolvedZone: zone });
    if (b.marks > 0) rt.log.info('punches from before the evidence journal journalled', { marks: b.marks, first: b.first, last: b.last, ms: b.ms });
  } catch (e) {
    rt.log.error('the evidence journal could not be opened; punches are still taken', { error: (e as Error).message });
  }
  return journal;
}

/**
 * Enrollment and PIN administration on the database alone, without the agent's lock or the
 * network, so `timeclock enroll` and `timeclock pin` work beside a running terminal.
 */
export function buildIdentityAdmin(config: Config, rt: Runtime): { admin: IdentityAdmin; close(): void } {
  const db = openDatabase(config.dataDir);
  const audit = new AuditLog(db);
  return { admin: new IdentityAdmin(new Identities(db), pinStore(db, config, rt, audit), audit, rt.clock), close: () => db.close() };
}

function pinStore(db: Db, config: Config, rt: Runtime, audit: AuditLog): Pins {
  return new Pins(db, rt.clock, { maxFailures: config.pin.maxFailures, lockoutMs: config.pin.lockoutMs }, audit);
}
