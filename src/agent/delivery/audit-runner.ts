import { auditSummarySchema, type AuditState, type AuditSummary } from '../../contract.js';
import type { Logger } from '../../log.js';
import type { AuditMarks } from '../../store/journal/audit-marks.js';
import type { Db } from '../../store/database.js';
import { settingKey, type SettingKey } from '../../store/settings/setting-keys.js';
import { readSetting } from '../../store/settings/settings.js';
import {
  compareWithService,
  type AuditDeps,
  type AuditProgress,
  type AuditReport,
} from '../../sync/reads/audit-compare.js';

/** Settings key of the last comparison's summary (the admin screen's journal tab shows it). */
/** The last comparison's summary, in the contract's own schema (what the admin screen shows). */
export const AUDIT_LAST_KEY = settingKey<AuditSummary | null>(
  'audit_compare_last',
  auditSummarySchema.nullable(),
  null,
);
/** Missing NSRs the summary names. */
const FIRST_MISSING = 10;

export type AuditRange = { from: string; to: string };
export type AuditRunOptions = { signal?: AbortSignal; onProgress?: (p: AuditProgress) => void };

export type AuditRunnerDeps = AuditDeps & {
  db: Db;
  marks: AuditMarks;
  log: Logger;
  /** Aborted when the agent stops: a comparison under way ends there (its marks left unchecked). */
  stopSignal: AbortSignal;
  /** Bookkeeping that never throws (the agent's safeWrite). */
  write: <T>(key: SettingKey<T>, value: T) => void;
};

export function auditSummaryOf(r: AuditReport): AuditSummary {
  return {
    at: r.finishedAt,
    startedAt: r.startedAt,
    from: r.from,
    to: r.to,
    ...r.counts,
    firstMissing: r.marks
      .filter((m) => m.status === 'missing')
      .slice(0, FIRST_MISSING)
      .map((m) => m.nsr),
    stopped: r.stopped,
  };
}

/**
 * Runs one comparison at a time (sync/reads/audit-compare.ts): a second request while one runs joins it
 * (its report names its own range). The summary is kept in settings, read back validated.
 */
export class AuditRunner {
  private current: {
    range: AuditRange;
    startedAt: number;
    progress: AuditProgress | null;
    listeners: Set<(p: AuditProgress) => void>;
    promise: Promise<AuditReport>;
  } | null = null;

  constructor(private readonly d: AuditRunnerDeps) {}

  run(range: AuditRange, opts: AuditRunOptions = {}): Promise<AuditReport> {
    const cur = this.current;
    if (cur) {
      if (opts.onProgress) cur.listeners.add(opts.onProgress);
      return cur.promise;
    }
    const listeners = new Set<(p: AuditProgress) => void>(opts.onProgress ? [opts.onProgress] : []);
    const signal = opts.signal ? AbortSignal.any([opts.signal, this.d.stopSignal]) : this.d.stopSignal;
    const entry: NonNullable<AuditRunner['current']> = {
      range,
      startedAt: this.d.clock.now(),
      progress: null,
      listeners,
      promise: Promise.resolve(null as never),
    };
    const onProgress = (p: AuditProgress): void => {
      entry.progress = p;
      for (const fn of listeners) {
        try {
          fn(p);
        } catch (e) {
          this.d.log.warn('audit progress listener failed', { error: (e as Error).message });
        }
      }
    };
    entry.promise = (async () => {
      try {
        // Read before the first request: marks written meanwhile belong to the next comparison.
        const marks = [...this.d.marks.marks(range.from, range.to)];
        const report = await compareWithService(this.d, marks, { ...range, signal, onProgress });
        this.d.write(AUDIT_LAST_KEY, auditSummaryOf(report));
        this.d.log.info('journal compared with the service', {
          from: range.from,
          to: range.to,
          ...report.counts,
          stopped: report.stopped,
        });
        return report;
      } finally {
        if (this.current === entry) this.current = null;
      }
    })();
    this.current = entry;
    return entry.promise;
  }

  /** The comparison under way (with its progress) and the last one's summary. */
  state(): AuditState {
    const cur = this.current;
    const last = readSetting(this.d.db, AUDIT_LAST_KEY);
    return {
      running: cur
        ? {
            ...cur.range,
            startedAt: cur.startedAt,
            requestsDone: cur.progress?.requestsDone ?? 0,
            requestsTotal: cur.progress?.requestsTotal ?? null,
          }
        : null,
      last,
    };
  }
}
