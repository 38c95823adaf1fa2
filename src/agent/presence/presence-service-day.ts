/**
 * The service's records of the day as a source of presence (issue 30): `GET /times` for one person
 * and day, at the budget's lowest priority (readDayTimes stands aside while punches are due), in a
 * background queue that never holds up the stream's rounds or a punch. People are queued:
 *  - at once, when this terminal takes a punch of someone whose day it has not read yet while the
 *    stream is not live (the punch was labelled from what the terminal knew; the answer corrects it),
 *    where Redis is configured (out of reach) or `presence.readAtPunch` asks for it;
 *  - when the stream lost entries (a gap): the people this terminal knows of today, longest unheard of first;
 *  - every `fallbackEveryMs` while the stream is not live: the people seen today, the latest first.
 * An answer is merged with this terminal's own punches of the day (those not delivered yet are not
 * among the records): the last punch's label is the alternation over the merged day.
 */
import type { EmployeeRef } from '../../api/shapes.js';
import type { Clock, Sleep } from '../../domain/time/clock.js';
import type { PunchDirection } from '../../domain/time/day-sheet.js';
import { wallMinutes } from '../../domain/time/day-sheet.js';
import { localDateTime } from '../../domain/time/local-time.js';
import type { PersonPresence, PresenceEvent } from '../../domain/punch/presence.js';
import type { WallZone } from '../../domain/time/record-time.js';
import type { Logger } from '../../log.js';
import type { DayTimes } from '../../sync/reads/presence-times.js';

export type ReadDay = (ref: EmployeeRef, date: string, zone: WallZone, signal: AbortSignal) => Promise<DayTimes>;

/** One punch this terminal took today (for the labels' corrections and a late roll call's marks). */
export type OwnPunch = { id: string; employeeKey: string; at: number; localDate: string; localTime: string };

/**
 * An own punch as one number, its id and its local day (days since 1970): a site's 10,000 punches a day kept as
 * objects with their strings cost about 3 MiB of heap; the rest is read back from the row when needed.
 */
const DAYS = 100_000;
const dayOf = (date: string): number => Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
const packOwn = (punchId: number, date: string): number => punchId * DAYS + dayOf(date);
const ownIdOf = (packed: number): number => Math.floor(packed / DAYS);
const ownDayOf = (packed: number): number => packed % DAYS;
/** A person's own punches: one number for the usual one a day, a list for more. */
type OwnOfPerson = number | number[];
const listOf = (o: OwnOfPerson | undefined): number[] => (o === undefined ? [] : typeof o === 'number' ? [o] : o);

export type ServiceDayDeps = {
  readDay: ReadDay | null;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  siteTimeZone: () => string;
  person: (employeeKey: string) => PersonPresence | undefined;
  /** An own punch read back from its row (punches are kept by id only: issue 28 item 10). */
  ownPunch: (punchId: number) => OwnPunch | undefined;
  /** The people known today, the latest punch first. */
  seenToday: (date: string) => PersonPresence[];
  /** The service's last record of a person, later than what was known (source 'service'). */
  learn: (e: PresenceEvent) => void;
  /** This terminal's own punch `id` carries the other label (its day read from the service). */
  relabel: (employeeKey: string, id: string, direction: PunchDirection) => void;
  fallbackEveryMs: number;
  fallbackPeople: number;
  /** Read a person's day at their first own punch of the day while the stream is not live. */
  readAtPunch: boolean;
};

/** The label of each of the day's punches: records and own punches not among them, by alternation. */
export function mergedDay(
  records: readonly string[],
  own: readonly OwnPunch[],
): { time: string; ownId: string | null; direction: PunchDirection }[] {
  const left = new Map<string, number>();
  for (const t of records) left.set(t.slice(0, 5), (left.get(t.slice(0, 5)) ?? 0) + 1);
  const day: { time: string; ownId: string | null }[] = [];
  for (const o of own) {
    const t = o.localTime.slice(0, 5);
    const n = left.get(t) ?? 0;
    // Delivered already: the record is this punch.
    if (n > 0) left.set(t, n - 1);
    day.push({ time: t, ownId: o.id });
  }
  for (const [t, n] of left) for (let i = 0; i < n; i++) day.push({ time: t, ownId: null });
  // Of the same minute, this terminal's punch last: it is the newest thing known.
  day.sort((a, b) => a.time.localeCompare(b.time) || Number(a.ownId !== null) - Number(b.ownId !== null));
  return day.map((p, i) => ({ ...p, direction: i % 2 === 0 ? 'entry' : 'exit' }));
}

/** `id` is the own punch `ownId`, or that punch relabelled (presence-keeper.ts `relabel`). */
export function isOwnPunch(id: string, ownId: string): boolean {
  return id === ownId || id.startsWith(`${ownId}:relabel`);
}

const RETRY_MS = 2_000;
const RETRIES = 5;

export class ServiceDayReader {
  /** Whose day was read, for which date, and what it said. */
  private readonly days = new Map<string, { date: string; times: string[] }>();
  /** Each person's own punches of the day (packOwn). */
  private readonly own = new Map<string, OwnOfPerson>();
  private readonly urgent = new Set<string>();
  private readonly later = new Set<string>();
  private draining: Promise<void> | null = null;
  private nextRoundAt = 0;
  private warned = false;
  /** Reads that failed (the service busy or out of reach): asked again after RETRY_MS, at most RETRIES times. */
  private readonly failed = new Map<string, number>();
  /** When an answer last came, and how many people's day is known today. */
  stats: { at: number | null; people: number } = { at: null, people: 0 };

  constructor(
    private readonly d: ServiceDayDeps,
    private readonly signal: AbortSignal,
  ) {}

  private today(): string {
    return localDateTime(this.d.clock.now(), this.d.siteTimeZone()).date;
  }

  /** Own punch `punchId` taken (`p` is it); `streamLive`: the stream tells of the other gates, no read needed. */
  tookOwn(punchId: number, p: OwnPunch, streamLive: boolean): void {
    const day = dayOf(p.localDate);
    const sameDay = listOf(this.own.get(p.employeeKey)).filter((o) => ownDayOf(o) === day);
    const packed = packOwn(punchId, p.localDate);
    this.own.set(p.employeeKey, sameDay.length === 0 ? packed : [...sameDay, packed]);
    if (!streamLive && this.d.readAtPunch && this.days.get(p.employeeKey)?.date !== p.localDate)
      this.want([p.employeeKey], true);
  }

  /** The person's own punches of `date`, read back from their rows. */
  private ownOf(employeeKey: string, date: string): OwnPunch[] {
    const day = dayOf(date);
    return this.readOwn(listOf(this.own.get(employeeKey)).filter((o) => ownDayOf(o) === day));
  }

  /** Own punches taken at or after `since` (a roll call learnt late). */
  ownSince(since: number): OwnPunch[] {
    return this.readOwn([...this.own.values()].flatMap(listOf)).filter((o) => o.at >= since);
  }

  private readOwn(packed: readonly number[]): OwnPunch[] {
    return packed.map((o) => this.d.ownPunch(ownIdOf(o))).filter((o): o is OwnPunch => o !== undefined);
  }

  /**
   * The stream lost entries: the people known today are read again, at most `fallbackPeople`, the longest unheard of
   * first. A trim takes the oldest entries, so what was lost is what came after an old last word; someone heard of in
   * the entries that are left is up to date (and may already be among those known when the gap is seen).
   */
  gap(): number {
    const people = [...this.d.seenToday(this.today())]
      .reverse()
      .slice(0, this.d.fallbackPeople)
      .map((p) => p.employeeKey);
    for (const k of people) this.days.delete(k);
    this.want(people, false);
    return people.length;
  }

  /** Each round while the stream is not live: the people seen today, every `fallbackEveryMs`. */
  periodic(): void {
    const now = this.d.clock.now();
    if (!this.d.readDay || now < this.nextRoundAt) return;
    this.nextRoundAt = now + this.d.fallbackEveryMs;
    const seen = this.d.seenToday(this.today()).slice(0, this.d.fallbackPeople);
    this.want(
      seen.map((p) => p.employeeKey),
      false,
    );
  }

  /** A new day: yesterday's reads and own punches go. */
  prune(today: string): void {
    for (const [k, v] of this.days) if (v.date !== today) this.days.delete(k);
    const day = dayOf(today);
    for (const [k, o] of this.own) {
      const kept = listOf(o).filter((x) => ownDayOf(x) >= day);
      if (kept.length === 0) this.own.delete(k);
      else this.own.set(k, kept.length === 1 ? kept[0]! : kept);
    }
  }

  /** Settles when the queue is empty (or the reader stopped). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private want(keys: readonly string[], urgent: boolean): void {
    if (!this.d.readDay || keys.length === 0) return;
    for (const k of keys) if (!this.urgent.has(k)) (urgent ? this.urgent : this.later).add(k);
    this.startDrain();
  }

  private startDrain(): void {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
      // Queued while the last read was finishing: not left waiting for the next want.
      if (!this.signal.aborted && this.urgent.size + this.later.size > 0) this.startDrain();
    });
  }

  private next(): string | undefined {
    for (const q of [this.urgent, this.later]) {
      const k = q.values().next();
      if (!k.done) {
        q.delete(k.value);
        this.later.delete(k.value);
        return k.value;
      }
    }
    return undefined;
  }

  private async drain(): Promise<void> {
    const readDay = this.d.readDay;
    if (!readDay) return;
    for (let key = this.next(); key !== undefined && !this.signal.aborted; key = this.next()) {
      const zone = this.d.siteTimeZone();
      const date = this.today();
      const p = this.d.person(key);
      const ref: EmployeeRef =
        p?.employeeExternalId != null
          ? { kind: 'external_id', value: p.employeeExternalId }
          : { kind: 'employee_id', value: key };
      const r = await readDay(ref, date, { zone }, this.signal);
      if (!r.ok) {
        if (r.stop) {
          this.urgent.clear();
          this.later.clear();
          return;
        }
        if (!this.warned)
          this.d.log.warn("presence: the service's records of the day could not be read", { reason: r.reason });
        this.warned = true;
        const tries = (this.failed.get(key) ?? 0) + 1;
        this.failed.set(key, tries);
        if (tries < RETRIES) {
          await this.d.sleep(RETRY_MS, this.signal);
          this.later.add(key);
        } else this.failed.delete(key);
        continue;
      }
      this.failed.delete(key);
      this.days.set(key, { date, times: r.times });
      this.answer(key, date, r.times);
      this.stats = {
        at: this.d.clock.now(),
        people: [...this.days.values()].filter((v) => v.date === date).length,
      };
    }
  }

  /** The merged day's last punch against what is known of the person. */
  private answer(key: string, date: string, times: readonly string[]): void {
    const own = this.ownOf(key, date);
    const known = this.d.person(key);
    // A restart forgot the own punches in memory: the known one, if this terminal took it, still counts.
    if (own.length === 0 && known?.source === 'own' && known.localDate === date)
      own.push({ ...known, localTime: known.localTime.slice(0, 5) });
    const last = mergedDay(times, own).at(-1);
    if (!last) return;
    if (last.ownId !== null) {
      if (known && isOwnPunch(known.id, last.ownId) && known.direction !== last.direction)
        this.d.relabel(key, last.ownId, last.direction);
      return;
    }
    if (known && (known.localDate > date || (known.localDate === date && known.localTime.slice(0, 5) > last.time)))
      return;
    if (known && known.localDate === date && known.localTime.slice(0, 5) === last.time) {
      if (known.direction === last.direction) return;
    }
    const now = this.d.clock.now();
    const local = localDateTime(now, this.d.siteTimeZone());
    // The record's instant from its wall minute, against the site's wall minute now (a relabel of the known punch
    // keeps its instant).
    const wallAt =
      now - (wallMinutes({ date: local.date, time: local.time }) - wallMinutes({ date, time: last.time })) * 60_000;
    const at =
      known && known.localDate === date && known.localTime.slice(0, 5) === last.time
        ? Math.max(wallAt, known.at)
        : wallAt;
    this.d.learn({
      id: `service:${key}:${date}T${last.time}`,
      employeeKey: key,
      employeeExternalId: known?.employeeExternalId ?? null,
      at,
      localDate: date,
      localTime: last.time,
      direction: last.direction,
      terminal: 'service',
      gate: '?',
    });
  }
}
