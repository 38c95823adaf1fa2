/**
 * The employee's day on their result screen: entry or exit, the day's punches, the hours bank and
 * a leave note. `dayOf` answers at once from this terminal's database and what earlier fetches
 * left in the cache (never a request on the punch path: what is not cached is simply not shown).
 * The cache is filled in the background at the budget's lowest priority (sync/reads/self-service-fetch.ts):
 * after someone punches (for their next punch), and by a prefetch of those who punched in and have
 * not punched out yet, the people most likely to punch next.
 */
import type { EmployeeRef } from '../../api/shapes.js';
import { DAY_PUNCHES_MAX } from '../../contract.js';
import type { Clock } from '../../domain/time/clock.js';
import { daySheet, DEFAULT_MAX_SHIFT_MINUTES, type PunchDirection } from '../../domain/time/day-sheet.js';
import type { LeaveToday } from '../../domain/time/leave-today.js';
import { localDateTime } from '../../domain/time/local-time.js';
import type { Logger } from '../../log.js';
import type { DayPunches } from '../../store/punches/day-punches.js';
import type { FetchOutcome, ServiceDay } from '../../sync/reads/self-service-fetch.js';

export type SelfServiceOptions = {
  /** How long a fetched day stays fresh before it is fetched again (the hours bank moves slowly). */
  refreshMs: number;
  /** Leaves change rarely: asked again only after this long. */
  leavesRefreshMs: number;
  maxShiftMinutes: number;
  /** Employees remembered (least recently used forgotten first). */
  maxEntries: number;
};

export const DEFAULT_SELF_SERVICE: SelfServiceOptions = {
  refreshMs: 15 * 60_000,
  leavesRefreshMs: 6 * 3_600_000,
  maxShiftMinutes: DEFAULT_MAX_SHIFT_MINUTES,
  maxEntries: 5_000,
};

/** What the result screen shows of the employee's day (contract `punchDaySchema`). */
export type PunchDay = {
  direction: PunchDirection;
  punches: { time: string; direction: PunchDirection; fromService: boolean; isNew: boolean }[];
  /**
   * When the service's records of the day were fetched; null: not (yet) known, only this terminal's punches are listed.
   */
  serviceAt: number | null;
  hoursBank: { minutes: number; at: number } | null;
  leave: LeaveToday | null;
};

export type Employee = { key: string; externalId: string | null };

type Cached = { day: ServiceDay; at: number; leavesAt: number | null };
type Wanted = { employee: Employee; date: string };

const TWO_DAYS_MS = 2 * 86_400_000;
const QUEUE_MAX = 500;

/**
 * At most `max` of a day's punches: the new one and those just before it (those after it when it is
 * early in the list). A service may list any number for a day; the screen's contract takes DAY_PUNCHES_MAX.
 */
export function aroundNew<T extends { isNew: boolean }>(punches: readonly T[], max: number): T[] {
  if (punches.length <= max) return [...punches];
  const i = Math.max(
    0,
    punches.findIndex((p) => p.isNew),
  );
  const start = Math.min(Math.max(0, i - max + 1), punches.length - max);
  return punches.slice(start, start + max);
}

export function employeeRef(e: Employee): EmployeeRef {
  return e.externalId !== null ? { kind: 'external_id', value: e.externalId } : { kind: 'employee_id', value: e.key };
}

export class SelfService {
  private readonly cache = new Map<string, Cached>();
  private readonly queue = new Map<string, Wanted>();
  private draining: Promise<void> | null = null;
  private readonly abort = new AbortController();
  /** Requests made, for the bench and status. */
  requests = 0;
  private lastFailure: string | null = null;

  constructor(
    private readonly d: {
      fetch: (
        ref: EmployeeRef,
        date: string,
        opts: { withLeaves: boolean; signal: AbortSignal },
      ) => Promise<FetchOutcome>;
      punches: DayPunches;
      clock: Clock;
      log: Logger;
      opts: SelfServiceOptions;
    },
  ) {}

  /** The sheet of a punch just taken (`local` is its wall time in the employee's zone). Synchronous. */
  dayOf(employee: Employee, local: { date: string; time: string }, capturedAt: number): PunchDay {
    const own = this.d.punches.recent(employee.key, capturedAt - TWO_DAYS_MS);
    const cached = this.cache.get(employee.key);
    const service = cached && cached.day.date === local.date ? cached : null;
    if (cached) this.touch(employee.key, cached);
    const fromService = (service?.day.punches ?? []).map((time) => ({ date: local.date, time }));
    const sheet = daySheet(local, own, fromService, this.d.opts.maxShiftMinutes);
    return {
      direction: sheet.direction,
      punches: aroundNew(sheet.punches, DAY_PUNCHES_MAX).map((p) => ({ ...p })),
      serviceAt: service && service.day.punches !== null ? service.at : null,
      // The balance is the service's, whatever day it was read on: shown with its time.
      hoursBank:
        cached && cached.day.hoursBankMinutes !== null ? { minutes: cached.day.hoursBankMinutes, at: cached.at } : null,
      leave: service?.day.leave ?? null,
    };
  }

  /** Fetch this employee's day in the background, unless a fresh copy is cached. */
  want(employee: Employee, date: string): void {
    if (this.abort.signal.aborted || this.isFresh(employee.key, date)) return;
    if (!this.queue.has(employee.key) && this.queue.size >= QUEUE_MAX) return;
    this.queue.set(employee.key, { employee, date });
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  }

  /** Those who punched in within a shift and have not punched out: fetched before their next punch. */
  prefetch(limit = 50): number {
    const now = this.d.clock.now();
    const open = this.d.punches.openShifts(now - this.d.opts.maxShiftMinutes * 60_000, limit);
    for (const o of open)
      this.want({ key: o.employeeKey, externalId: o.externalId }, localDateTime(now, o.timeZone).date);
    return open.length;
  }

  /** The background fetches under way end; nothing more is asked. */
  async stop(): Promise<void> {
    this.abort.abort();
    this.queue.clear();
    await this.draining;
  }

  /** Waits until the queue is empty (tests and the bench). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private isFresh(key: string, date: string): boolean {
    const c = this.cache.get(key);
    return c !== undefined && c.day.date === date && this.d.clock.now() - c.at < this.d.opts.refreshMs;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const next = this.queue.values().next();
      if (next.done) return;
      const w = next.value;
      this.queue.delete(w.employee.key);
      if (this.isFresh(w.employee.key, w.date)) continue;
      const before = this.cache.get(w.employee.key);
      const now = this.d.clock.now();
      const withLeaves =
        before?.leavesAt == null || before.day.date !== w.date || now - before.leavesAt >= this.d.opts.leavesRefreshMs;
      const r = await this.d.fetch(employeeRef(w.employee), w.date, { withLeaves, signal: this.abort.signal });
      this.requests += r.requests;
      if (!r.ok) {
        if (r.stop) return void this.queue.clear();
        // Said once per new reason (a dialect the service refuses would otherwise say it for every employee).
        if (r.reason !== this.lastFailure)
          this.d.log.warn("the employee's day could not be read from the service; punches are not affected", {
            reason: r.reason,
          });
        this.lastFailure = r.reason;
        continue;
      }
      const at = this.d.clock.now();
      // Leaves not asked this time: the earlier answer for the same day stands.
      const day =
        !r.day.leaveRead && before && before.day.date === w.date
          ? { ...r.day, leaveRead: before.day.leaveRead, leave: before.day.leave }
          : r.day;
      this.touch(w.employee.key, { day, at, leavesAt: r.day.leaveRead ? at : (before?.leavesAt ?? null) });
    }
  }

  private touch(key: string, c: Cached): void {
    this.cache.delete(key);
    this.cache.set(key, c);
    if (this.cache.size > this.d.opts.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
  }
}
