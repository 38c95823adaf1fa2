/**
 * Who is on site now, at every terminal of the site (issue 30). Each punch this terminal takes is
 * labelled entry or exit from the person's last known punch at the site, kept in the presence
 * table and queued for the site's stream in Redis after its commit (the answer is already on its
 * way); a loop publishes the queue, reads the other terminals' entries, and, while the stream is
 * not live, asks the service's records of the day for the people seen, at the budget's lowest
 * priority. The roll call rides the same stream (presence-rollcall.ts).
 */
import type { EmployeeRef } from '../../api/shapes.js';
import type { PresenceBoardView, RollCallView } from '../../contract.js';
import type { Clock, Sleep } from '../../domain/clock.js';
import { wallMinutes } from '../../domain/day-sheet.js';
import { localDateTime } from '../../domain/local-time.js';
import { boardView, cachedNames, type BoardSources } from './presence-view.js';
import {
  applyEvent,
  buildBoard,
  dayBefore,
  fromServiceDay,
  nextDirection,
  type NameOf,
  type PersonPresence,
  type PresenceEvent,
  type PresenceSource,
} from '../../domain/presence.js';
import type { WallZone } from '../../domain/record-time.js';
import type { Logger } from '../../log.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';
import type { PresenceStream, StreamEntry } from '../../sync/presence-stream.js';
import type { DayTimes } from '../../sync/presence-times.js';
import type { PunchAnswer } from '../receipts/receipts.js';
import {
  applyRollCallEntry,
  endRollCall,
  markSafe,
  rollCallView,
  startRollCall,
  type MarkCode,
} from './presence-rollcall.js';
import { writeRollCallFiles } from './presence-rollcall-files.js';

export type PresenceOptions = {
  /** A punch this long after an entry is an entry again (a forgotten exit): selfService.maxShiftHours. */
  maxShiftMs: number;
  /** How often the stream is read and the queue published. */
  pollMs: number;
  /** While the stream is not live: how often the service's records of the people seen are read. */
  fallbackEveryMs: number;
  /** At most this many people per such round (those seen last first). */
  fallbackPeople: number;
};

export type PresenceKeeperDeps = {
  tables: PresenceTables;
  /** The committed punch's row (outbox). */
  punchRow: (id: number) =>
    | {
        employee_key: string;
        employee_external_id: string | null;
        captured_at: number;
        local_date: string;
        local_time: string;
      }
    | undefined;
  /** Null: no Redis configured. */
  stream: PresenceStream | null;
  /** The stream's key (it follows the account: a new token is another window key); null without a site. */
  streamKey: () => string | null;
  terminal: string;
  gate: string;
  siteTimeZone: () => string;
  siteName: () => string;
  dataDir: string;
  /** The service's records of one person's day; null: not asked (no API). */
  readDay: ((ref: EmployeeRef, date: string, zone: WallZone, signal: AbortSignal) => Promise<DayTimes>) | null;
  clock: Clock;
  sleep: Sleep;
  log: Logger;
  /** The board changed: the live event stream tells the screens (a coalesced status event). */
  changed: () => void;
  opts: PresenceOptions;
};

const READ_BATCH = 1_000;
const PUBLISH_BATCH = 200;
const SOURCES_EVERY_MS = 5_000;
const NAMES_TTL_MS = 30_000;

export class PresenceKeeper {
  private readonly people = new Map<string, PersonPresence>();
  private readonly stopCtl = new AbortController();
  private loop: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  private streamState: { live: boolean; since: number | null; readAt: number | null } = {
    live: false,
    since: null,
    readAt: null,
  };
  private service: { at: number | null; people: number } = { at: null, people: 0 };
  private nextFallbackAt = 0;
  private position: { key: string | null; id: string | null };
  private warned = false;
  private sourcesAt = 0;

  constructor(private readonly d: PresenceKeeperDeps) {
    for (const p of d.tables.people()) this.people.set(p.employeeKey, p);
    this.position = d.tables.streamPosition();
    this.streamState.since = d.clock.now();
    this.nameOf = cachedNames(d.tables, () => d.clock.now(), NAMES_TTL_MS);
    d.stream?.onChange(() => this.kick());
  }

  start(): void {
    this.loop ??= (async () => {
      while (!this.stopCtl.signal.aborted) {
        await this.tick();
        await this.d.sleep(this.d.opts.pollMs, this.stopCtl.signal);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopCtl.abort();
    await this.loop;
    await this.ticking;
  }

  /**
   * A punch's answer (the agent's `punch` event, after the commit): presence and a roll call's badge mark, a moment
   * later.
   */
  punched(a: PunchAnswer): void {
    if (!a.ok || a.punchId === null) return;
    const punchId = a.punchId;
    const repeat = a.repeat;
    setImmediate(() => {
      try {
        this.takeOwn(punchId, repeat);
      } catch (e) {
        this.d.log.warn('presence: a punch could not be added to the board; the punch is registered', {
          error: (e as Error).message,
        });
      }
    });
  }

  private takeOwn(punchId: number, repeat: boolean): void {
    const row = this.d.punchRow(punchId);
    if (!row) return;
    const now = this.d.clock.now();
    // A badge during a roll call marks safe, and the punch is recorded as usual.
    const marked = markSafe(this.d.tables, row.employee_key, 'badge', this.d.terminal, now) === 'marked';
    if (!repeat) {
      const e: PresenceEvent = {
        id: `${this.d.terminal}:${punchId}`,
        employeeKey: row.employee_key,
        employeeExternalId: row.employee_external_id,
        at: row.captured_at,
        localDate: row.local_date,
        localTime: row.local_time.slice(0, 5),
        direction: nextDirection(this.people.get(row.employee_key), row.captured_at, this.d.opts.maxShiftMs),
        terminal: this.d.terminal,
        gate: this.d.gate,
      };
      this.apply([e], 'own');
      // Without Redis there is nowhere to publish to: nothing is queued.
      if (this.d.stream !== null) this.d.tables.enqueue(JSON.stringify({ t: 'punch', e } satisfies StreamEntry), now);
    }
    if (!repeat || marked) {
      this.d.changed();
      this.kick();
    }
  }

  private apply(events: readonly PresenceEvent[], source: PresenceSource): number {
    const changed: PersonPresence[] = [];
    for (const e of events) {
      const next = applyEvent(this.people.get(e.employeeKey), e, source);
      if (next === null) continue;
      this.people.set(e.employeeKey, next);
      changed.push(next);
    }
    if (changed.length > 0) this.d.tables.saveAll(changed);
    return changed.length;
  }

  /** Publishes and reads now (after a punch, a reconnection), unless a round is under way. */
  kick(): void {
    void this.tick();
  }

  /**
   * One round: publish the queue, read the stream, the service's records when due, roll call files. Settles when done.
   */
  tick(): Promise<void> {
    if (this.stopCtl.signal.aborted) return Promise.resolve();
    this.ticking ??= this.round()
      .catch((e: unknown) => this.d.log.warn('presence: a round failed', { error: (e as Error).message }))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async round(): Promise<void> {
    const key = this.d.streamKey();
    const stream = this.d.stream;
    if (stream && key) {
      try {
        await this.publish(stream, key);
        await this.read(stream, key);
        this.setLive(true);
      } catch (e) {
        this.setLive(false, e);
      }
    } else {
      // No Redis: what a roll call queued (here or from the command line) has no stream to go to.
      const last = this.d.tables.pending(PUBLISH_BATCH * 50).at(-1);
      if (last) this.d.tables.published(last.id);
    }
    if (!this.streamState.live) await this.fallback();
    this.keepFiles();
    this.prune();
    this.recordSources(false);
  }

  private async publish(stream: PresenceStream, key: string): Promise<void> {
    for (;;) {
      const batch = this.d.tables.pending(PUBLISH_BATCH);
      if (batch.length === 0) return;
      await stream.publish(
        key,
        batch.map((b) => b.event),
      );
      this.d.tables.published((batch.at(-1) as { id: number }).id);
    }
  }

  private async read(stream: PresenceStream, key: string): Promise<void> {
    if (this.position.key !== key) this.position = { key, id: null };
    for (;;) {
      const r = await stream.read(key, this.position.id, READ_BATCH);
      if (r.last === null) break;
      const punches = r.entries.flatMap(({ entry }) =>
        entry.t === 'punch' && entry.e.terminal !== this.d.terminal ? [entry.e] : [],
      );
      let changes = this.apply(punches, 'stream');
      for (const { entry } of r.entries) if (entry.t !== 'punch' && applyRollCallEntry(this.d.tables, entry)) changes++;
      this.position = { key, id: r.last };
      this.d.tables.setStreamPosition(key, r.last);
      if (r.skipped > 0)
        this.d.log.warn('presence: stream entries of an unknown shape were skipped', { skipped: r.skipped });
      if (changes > 0) this.d.changed();
      if (r.entries.length + r.skipped < READ_BATCH) break;
    }
    this.streamState.readAt = this.d.clock.now();
  }

  private setLive(live: boolean, e?: unknown): void {
    if (live === this.streamState.live) return;
    this.streamState = { ...this.streamState, live, since: this.d.clock.now() };
    if (live) this.d.log.info("presence: reading the site's stream in Redis");
    else
      this.d.log.warn(
        "presence: the site's stream in Redis is out of reach; this terminal's punches and the service's records meanwhile",
        { error: e instanceof Error ? e.message : String(e) },
      );
    this.recordSources(true);
    this.d.changed();
  }

  /** While the stream is not live: the service's records of today for the people seen, at the lowest priority. */
  private async fallback(): Promise<void> {
    const readDay = this.d.readDay;
    const now = this.d.clock.now();
    if (!readDay || now < this.nextFallbackAt) return;
    this.nextFallbackAt = now + this.d.opts.fallbackEveryMs;
    const zone = this.d.siteTimeZone();
    const local = localDateTime(now, zone);
    const seen = [...this.people.values()]
      .filter((p) => p.localDate === local.date)
      .sort((a, b) => b.at - a.at)
      .slice(0, this.d.opts.fallbackPeople);
    let read = 0;
    for (const p of seen) {
      if (this.stopCtl.signal.aborted) return;
      const ref: EmployeeRef =
        p.employeeExternalId !== null
          ? { kind: 'external_id', value: p.employeeExternalId }
          : { kind: 'employee_id', value: p.employeeKey };
      const r = await readDay(ref, local.date, { zone }, this.stopCtl.signal);
      if (!r.ok) {
        if (r.stop) return;
        if (!this.warned)
          this.d.log.warn("presence: the service's records of the day could not be read", { reason: r.reason });
        this.warned = true;
        continue;
      }
      read++;
      const known = this.people.get(p.employeeKey);
      const last = fromServiceDay(known, local.date, r.times);
      if (last === null) continue;
      // The record's instant from its wall minute, against the site's wall minute now (a relabel of the known punch
      // keeps its instant).
      const wallAt =
        now -
        (wallMinutes({ date: local.date, time: local.time }) - wallMinutes({ date: local.date, time: last.time })) *
          60_000;
      const at =
        known && known.localDate === local.date && known.localTime.slice(0, 5) === last.time
          ? Math.max(wallAt, known.at)
          : wallAt;
      const e: PresenceEvent = {
        id: `service:${p.employeeKey}:${local.date}T${last.time}`,
        employeeKey: p.employeeKey,
        employeeExternalId: p.employeeExternalId,
        at,
        localDate: local.date,
        localTime: last.time,
        direction: last.direction,
        terminal: 'service',
        gate: '?',
      };
      if (this.apply([e], 'service') > 0) this.d.changed();
    }
    this.service = { at: this.d.clock.now(), people: read };
  }

  private keepFiles(): void {
    const last = this.d.tables.currentRollCallId();
    if (!last || last.active || this.d.tables.rollCall(last.id)?.files != null) return;
    const view = this.rollCall();
    if (!view) return;
    const files = writeRollCallFiles(this.d.dataDir, view, this.d.siteTimeZone(), this.d.siteName());
    this.d.tables.setFiles(last.id, JSON.stringify(files));
    this.d.log.info("roll call ended: its list is kept with the day's evidence", {
      csv: files.csv,
      pdf: files.pdf,
      listed: view.counts.listed,
      safe: view.counts.safe,
    });
    this.d.changed();
  }

  private lastPrune = '';
  private prune(): void {
    const today = localDateTime(this.d.clock.now(), this.d.siteTimeZone()).date;
    if (today === this.lastPrune) return;
    this.lastPrune = today;
    const before = dayBefore(today);
    this.d.tables.prune(before);
    for (const [k, p] of this.people) if (p.localDate < before) this.people.delete(k);
  }

  /** The roster's names, read whole at most every NAMES_TTL_MS (a board of 5,000 must not ask 5,000 times). */
  private readonly nameOf: NameOf;

  board(): PresenceBoardView {
    return boardView(
      this.people.values(),
      this.d.tables,
      { now: this.d.clock.now(), zone: this.d.siteTimeZone() },
      { terminal: this.d.terminal, gate: this.d.gate },
      this.sources(),
      this.nameOf,
    );
  }

  private sources(): Omit<BoardSources, 'unpublished'> {
    const state =
      this.d.stream === null || this.d.streamKey() === null ? 'off' : this.streamState.live ? 'live' : 'cut_off';
    return {
      stream: {
        state,
        reason: state === 'cut_off' ? (this.d.stream?.fault ?? 'error') : null,
        since: state === 'off' ? null : this.streamState.since,
        readAt: this.streamState.readAt,
      },
      service: this.service,
    };
  }

  /** For `timeclock presence` beside the running terminal: at most every few seconds, and at each change of state. */
  private recordSources(force: boolean): void {
    const now = this.d.clock.now();
    if (!force && now - this.sourcesAt < SOURCES_EVERY_MS) return;
    this.sourcesAt = now;
    this.d.tables.setSources(JSON.stringify(this.sources()));
  }

  private get cutOff(): boolean {
    return !this.streamState.live;
  }

  rollCall(): RollCallView | null {
    return rollCallView(this.d.tables, this.nameOf, this.cutOff);
  }

  startRollCall(): RollCallView {
    const now = this.d.clock.now();
    const today = localDateTime(now, this.d.siteTimeZone()).date;
    startRollCall(
      this.d.tables,
      buildBoard(this.people.values(), today, now, this.nameOf, dayBefore(today)),
      this.d.terminal,
      now,
    );
    this.d.changed();
    this.kick();
    return this.rollCall() as RollCallView;
  }

  markSafe(who: string): MarkCode {
    const code = markSafe(this.d.tables, who, 'touch', this.d.terminal, this.d.clock.now());
    if (code === 'marked') {
      this.d.changed();
      this.kick();
    }
    return code;
  }

  async endRollCall(): Promise<RollCallView | null> {
    if (endRollCall(this.d.tables, this.d.terminal, this.d.clock.now()) === null) return this.rollCall();
    // Its files at once; the end reaches the other terminals with the next round.
    this.keepFiles();
    this.d.changed();
    await this.tick();
    return this.rollCall();
  }
}
