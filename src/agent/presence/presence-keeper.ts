/**
 * Who is on site now, at every terminal of the site (issue 30). Each punch this terminal takes is
 * labelled entry or exit from the person's last known punch at the site, kept in the presence
 * table and queued for the site's stream in Redis after its commit (the answer is already on its
 * way); a loop publishes the queue and reads the other terminals' entries (presence-stream-link.ts),
 * and the service's records of the day fill in while the stream is not live or lost entries
 * (presence-service-day.ts). The roll call rides the same stream (presence-rollcall.ts).
 */
import type { PresenceBoardView, RollCallView } from '../../contract.js';
import type { PunchDirection } from '../../domain/time/day-sheet.js';
import { localDateTime } from '../../domain/time/local-time.js';
import { dayBefore, nextDirection, type PresenceEvent } from '../../domain/punch/presence.js';
import type { StreamEntry } from '../../sync/fleet/presence-stream.js';
import type { PunchAnswer } from '../receipts/receipts.js';
import { applyRollCallEntry, markSafe, type MarkCode } from './presence-rollcall.js';
import { RollCallDesk } from './presence-rollcall-desk.js';
import { isOwnPunch, ServiceDayReader } from './presence-service-day.js';
import { PresenceStreamLink, type StreamBatch } from './presence-stream-link.js';
import { boardView, RosterNames, type BoardSources } from './presence-view.js';
import type { PresenceKeeperDeps } from './presence-keeper-deps.js';
import { PeopleOnSite } from './presence-people.js';

export type { PresenceKeeperDeps, PresenceOptions } from './presence-keeper-deps.js';

const SOURCES_EVERY_MS = 5_000;
const NAMES_EVERY_MS = 30_000;
const GAP_NOTE = "stream gap: re-read the service's day";

export class PresenceKeeper {
  /** Each person's last known punch at the site (presence-people.ts). */
  private readonly people: PeopleOnSite;
  private readonly stopCtl = new AbortController();
  private loop: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  private readonly link: PresenceStreamLink;
  private readonly serviceDay: ServiceDayReader;
  /** The roster's names, refreshed by the round (a board of 5,000 built while a manager waits never reads them). */
  private readonly names: RosterNames;
  private readonly desk: RollCallDesk;
  private gap: { at: number; people: number; note: string } | null = null;
  private sourcesAt = 0;

  constructor(private readonly d: PresenceKeeperDeps) {
    this.people = new PeopleOnSite(d.tables);
    this.link = new PresenceStreamLink({ ...d, stream: d.stream });
    this.names = new RosterNames(d.tables, () => d.clock.now(), NAMES_EVERY_MS);
    this.serviceDay = new ServiceDayReader(
      {
        readDay: d.readDay,
        clock: d.clock,
        sleep: d.sleep,
        log: d.log,
        siteTimeZone: d.siteTimeZone,
        person: (k) => this.people.get(k),
        ownPunch: (punchId) => {
          const row = d.punchRow(punchId);
          return row
            ? {
                id: `${d.terminal}:${punchId}`,
                employeeKey: row.employee_key,
                at: row.captured_at,
                localDate: row.local_date,
                localTime: row.local_time.slice(0, 5),
              }
            : undefined;
        },
        seenToday: (date) => this.people.seenOn(date),
        learn: (e) => {
          if (this.people.apply([e], 'service') > 0) this.d.changed();
        },
        relabel: (k, id, direction) => this.relabel(k, id, direction),
        fallbackEveryMs: d.opts.fallbackEveryMs,
        fallbackPeople: d.opts.fallbackPeople,
        // A fleet's Redis out of reach: the other gates are there, unheard. Without Redis: only where asked for.
        readAtPunch: d.stream !== null || d.opts.readAtPunch === true,
      },
      this.stopCtl.signal,
    );
    this.desk = new RollCallDesk({
      ...d,
      nameOf: this.names.nameOf,
      cutOff: () => !this.link.state.live,
      changed: (publish) => {
        this.d.changed();
        if (publish) this.kick();
      },
    });
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
    await this.serviceDay.idle();
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
        // The best knowledge now: own punches, the stream, the service's last answer (folded into `people`).
        direction: nextDirection(this.people.get(row.employee_key), row.captured_at, this.d.opts.maxShiftMs),
        terminal: this.d.terminal,
        gate: this.d.gate,
      };
      this.people.apply([e], 'own');
      this.publish(e, now);
      // Without the stream, a person whose day the service has not told yet is asked at once (lowest priority).
      this.serviceDay.tookOwn(punchId, e, this.link.mode === 'live');
    }
    if (!repeat || marked) {
      this.d.changed();
      this.kick();
    }
  }

  private publish(e: PresenceEvent, now: number): void {
    // Without Redis there is nowhere to publish to: nothing is queued.
    if (this.d.stream !== null) this.d.tables.enqueue(JSON.stringify({ t: 'punch', e } satisfies StreamEntry), now);
  }

  /** The service's day says this terminal's last punch of the person carries the other label. */
  private relabel(employeeKey: string, id: string, direction: PunchDirection): void {
    const fixed = this.people.relabel(employeeKey, direction, (p) => isOwnPunch(p.id, id));
    if (!fixed) return;
    // The other terminals take the corrected label as a new event of the same instant.
    this.publish(fixed, this.d.clock.now());
    this.d.log.info("presence: a punch's label corrected from the service's records of the day", {
      employeeKey,
      direction,
    });
    this.d.changed();
    this.kick();
  }

  /** Publishes and reads now (after a punch, a reconnection), unless a round is under way. */
  kick(): void {
    void this.tick();
  }

  /**
   * One round: publish the queue, read the stream, the service's records when due, the roster's names when due, roll
   * call files. Settles when done (the service's records are read in the background).
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
    try {
      await this.link.round((b) => this.take(b));
      if (this.link.mode !== 'off' && this.link.setLive(true)) this.liveChanged();
    } catch (e) {
      if (this.link.setLive(false, e)) this.liveChanged();
    }
    if (this.link.mode !== 'live') this.serviceDay.periodic();
    await this.names.refresh();
    this.desk.keepFiles();
    this.prune();
    this.recordSources(false);
  }

  /** A batch read from the stream: other gates' punches, roll call entries, and a gap's re-read. */
  private take(b: StreamBatch): void {
    // Those known before the lost entries are the people concerned.
    if (b.gap) {
      const people = this.serviceDay.gap();
      this.gap = { at: this.d.clock.now(), people, note: GAP_NOTE };
      this.recordSources(true);
    }
    let changes = this.people.apply(b.punches, 'stream');
    for (const entry of b.rollCall) {
      if (!applyRollCallEntry(this.d.tables, entry)) continue;
      changes++;
      if (entry.t === 'rollcall') this.desk.markLateBadges(this.serviceDay.ownSince(entry.at));
    }
    if (changes > 0 || b.gap) this.d.changed();
  }

  private liveChanged(): void {
    this.recordSources(true);
    this.d.changed();
  }

  private lastPrune = '';
  private prune(): void {
    const today = localDateTime(this.d.clock.now(), this.d.siteTimeZone()).date;
    if (today === this.lastPrune) return;
    this.lastPrune = today;
    const before = dayBefore(today);
    this.d.tables.prune(before);
    this.serviceDay.prune(today);
    if (this.gap && localDateTime(this.gap.at, this.d.siteTimeZone()).date !== today) this.gap = null;
  }

  /** When the roster's names the board uses were read (the round refreshes them every 30 s). */
  get namesReadAt(): number {
    return this.names.readAt;
  }

  board(): PresenceBoardView {
    return boardView(
      this.people.values(),
      this.d.tables,
      { now: this.d.clock.now(), zone: this.d.siteTimeZone() },
      { terminal: this.d.terminal, gate: this.d.gate },
      this.sources(),
      this.names.nameOf,
    );
  }

  private sources(): Omit<BoardSources, 'unpublished'> {
    const state = this.link.mode;
    return {
      stream: {
        state,
        reason: state === 'cut_off' ? (this.link.fault ?? 'error') : null,
        since: state === 'off' ? null : this.link.state.since,
        readAt: this.link.state.readAt,
        gap: this.gap,
      },
      service: this.serviceDay.stats,
    };
  }

  /** For `timeclock presence` beside the running terminal: at most every few seconds, and at each change of state. */
  private recordSources(force: boolean): void {
    const now = this.d.clock.now();
    if (!force && now - this.sourcesAt < SOURCES_EVERY_MS) return;
    this.sourcesAt = now;
    this.d.tables.setSources(JSON.stringify(this.sources()));
  }

  rollCall(): RollCallView | null {
    return this.desk.view();
  }

  startRollCall(): RollCallView {
    return this.desk.start(this.people.values());
  }

  markSafe(who: string): MarkCode {
    return this.desk.markSafe(who);
  }

  async endRollCall(): Promise<RollCallView | null> {
    if (this.desk.end()) await this.tick();
    return this.rollCall();
  }
}
