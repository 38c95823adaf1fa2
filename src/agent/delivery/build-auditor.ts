/**
 * The comparison with the service's records (delivery/audit-runner.ts) as build-agent.ts wires it: its reads
 * draw from the one budget and wait while punches are due, like roster pages (sync/reads/audit-compare.ts).
 * Apart from the composition root so that it stays a list of parts.
 */
import type { Config } from '../../config.js';
import type { DurableDb } from '../../store/database.js';
import { AuditMarks } from '../../store/journal/audit-marks.js';
import type { Outbox } from '../../store/punches/outbox.js';
import type { AuditDeps } from '../../sync/reads/audit-compare.js';
import type { RateBudget } from '../../sync/window/rate-budget.js';
import type { Runtime } from '../host/runtime.js';
import type { StatusRecorder } from '../status/status-recorder.js';
import { AuditRunner } from './audit-runner.js';

export function buildAuditor(d: {
  config: Config;
  rt: Runtime;
  db: DurableDb;
  api: AuditDeps['api'];
  budget: RateBudget;
  outbox: Outbox;
  recorder: StatusRecorder;
  stopSignal: AbortSignal;
}): AuditRunner {
  const { rt, budget, outbox, recorder } = d;
  return new AuditRunner({
    db: d.db,
    marks: new AuditMarks(d.db),
    api: d.api,
    budget,
    clock: rt.clock,
    log: rt.log,
    stopSignal: d.stopSignal,
    punchesDue: () => outbox.hasDue(rt.clock.now()),
    windowMs: () => budget.windowMs,
    authRetryMs: d.config.retry.authRetryMs,
    write: (key, value) => recorder.safeWrite(key, value),
  });
}
