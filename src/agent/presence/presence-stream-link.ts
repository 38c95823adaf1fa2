/**
 * This terminal's link to the site's stream in Redis (issue 30): publishes what the presence outbox
 * holds, reads the other terminals' entries from where it left off (the position survives a
 * restart), and says when entries it never read were trimmed away (a gap: the stream keeps about
 * `presence.streamMaxLen` entries, and a terminal further behind than that loses the rest).
 */
import type { Clock } from '../../domain/time/clock.js';
import type { PresenceEvent } from '../../domain/punch/presence.js';
import type { Logger } from '../../log.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';
import type { PresenceStream, StreamEntry } from '../../sync/fleet/presence-stream.js';

const READ_BATCH = 1_000;
const PUBLISH_BATCH = 200;

export type StreamState = { live: boolean; since: number | null; readAt: number | null };

/** What a read brought: other terminals' punches, roll call entries, and whether entries were lost before it. */
export type StreamBatch = { punches: PresenceEvent[]; rollCall: StreamEntry[]; gap: boolean };

export class PresenceStreamLink {
  state: StreamState;
  private position: { key: string | null; id: string | null };

  constructor(
    private readonly d: {
      stream: PresenceStream | null;
      streamKey: () => string | null;
      tables: PresenceTables;
      terminal: string;
      clock: Clock;
      log: Logger;
    },
  ) {
    this.position = d.tables.streamPosition();
    this.state = { live: false, since: d.clock.now(), readAt: null };
  }

  /** 'off': no Redis configured or no site; 'live' or 'cut_off' after the last round. */
  get mode(): 'off' | 'live' | 'cut_off' {
    return this.d.stream === null || this.d.streamKey() === null ? 'off' : this.state.live ? 'live' : 'cut_off';
  }

  /**
   * One round: publish the queue, then read, handing each batch to `take` (which returns how many things changed).
   * Throws while Redis is out of reach.
   */
  async round(take: (b: StreamBatch) => void): Promise<void> {
    const key = this.d.streamKey();
    const stream = this.d.stream;
    if (!stream || !key) {
      // No Redis: what a roll call queued (here or from the command line) has no stream to go to.
      const last = this.d.tables.pending(PUBLISH_BATCH * 50).at(-1);
      if (last) this.d.tables.published(last.id);
      return;
    }
    await this.publish(stream, key);
    await this.read(stream, key, take);
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

  private async read(stream: PresenceStream, key: string, take: (b: StreamBatch) => void): Promise<void> {
    if (this.position.key !== key) this.position = { key, id: null };
    for (;;) {
      const r = await stream.read(key, this.position.id, READ_BATCH);
      if (r.gap)
        this.d.log.warn("presence: the site's stream was trimmed past this terminal's position; entries were lost", {
          after: this.position.id,
        });
      if (r.last === null) {
        if (r.gap) take({ punches: [], rollCall: [], gap: true });
        break;
      }
      take({
        punches: r.entries.flatMap(({ entry }) =>
          entry.t === 'punch' && entry.e.terminal !== this.d.terminal ? [entry.e] : [],
        ),
        rollCall: r.entries.flatMap(({ entry }) => (entry.t === 'punch' ? [] : [entry])),
        gap: r.gap,
      });
      this.position = { key, id: r.last };
      this.d.tables.setStreamPosition(key, r.last);
      if (r.skipped > 0)
        this.d.log.warn('presence: stream entries of an unknown shape were skipped', { skipped: r.skipped });
      if (r.entries.length + r.skipped < READ_BATCH) break;
    }
    this.state.readAt = this.d.clock.now();
  }

  /** True when the state changed. */
  setLive(live: boolean, e?: unknown): boolean {
    if (live === this.state.live) return false;
    this.state = { ...this.state, live, since: this.d.clock.now() };
    if (live) this.d.log.info("presence: reading the site's stream in Redis");
    else
      this.d.log.warn(
        "presence: the site's stream in Redis is out of reach; this terminal's punches and the service's records meanwhile",
        { error: e instanceof Error ? e.message : String(e) },
      );
    return true;
  }

  get fault(): string | null {
    return this.d.stream?.fault ?? null;
  }
}
