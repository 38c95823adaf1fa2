/**
 * The roster keeper as build-agent.ts wires it, with the employer reads it starts after each roster applied
 * (sync/roster/employer-sync.ts): what the configuration and the runtime give it, in one place apart from
 * the composition root. Capture is built before it and asks it, through a function, whether the roster is complete.
 */
import type { Config } from '../../config.js';
import type { BookkeepingDb, DurableDb } from '../../store/database.js';
import type { Outbox } from '../../store/punches/outbox.js';
import { EmployerSync, type EmployerApi } from '../../sync/roster/employer-sync.js';
import type { RosterSync } from '../../sync/roster/roster-sync.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { Capture } from '../capture/capture.js';
import type { Runtime } from '../host/runtime.js';
import type { StatusRecorder } from '../status/status-recorder.js';
import { RosterKeeper } from './roster-keeper.js';

export function buildRosterKeeper(d: {
  config: Config;
  rt: Runtime;
  db: DurableDb;
  bookkeeping: BookkeepingDb;
  api: EmployerApi;
  budget: RateBudget;
  rosterSync: RosterSync;
  outbox: Outbox;
  capture: Capture;
  recorder: StatusRecorder;
  stopSignal: AbortSignal;
  /** Held punches were released: wake the uploader. */
  released: () => void;
}): RosterKeeper {
  const { config, rt, outbox, budget, recorder } = d;
  const employerSync = new EmployerSync({
    api: d.api,
    db: d.bookkeeping,
    budget,
    clock: rt.clock,
    log: rt.log,
    punchesDue: () => outbox.hasDue(rt.clock.now()),
    windowMs: () => budget.windowMs,
  });
  return new RosterKeeper({
    db: d.db,
    rosterSync: d.rosterSync,
    outbox,
    capture: d.capture,
    clock: rt.clock,
    random: rt.random,
    log: rt.log,
    refreshMs: config.roster.refreshMs,
    retry: { baseMs: config.roster.retryBaseMs, maxMs: config.roster.retryMaxMs },
    shrinkRecheckMs: config.roster.shrinkRecheckMs,
    stopSignal: d.stopSignal,
    write: (key, value) => recorder.safeWrite(key, value),
    noteError: (message) => recorder.noteError(message),
    changed: () => recorder.statusChanged(),
    released: () => d.released(),
    employers: () =>
      employerSync
        .run(d.stopSignal)
        .catch((e: unknown) => rt.log.warn('employer read failed', { error: (e as Error).message })),
  });
}
