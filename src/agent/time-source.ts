import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { anchorOf, betterAnchor, readTime, type Anchor, type TimeReading } from '../domain/anchored-time.js';
import type { Clock, Monotonic } from '../domain/clock.js';
import type { WritableDb } from '../store/database.js';
import { settingKeys } from '../store/setting-keys.js';
import { readSetting, writeSetting } from '../store/settings.js';

/** The kernel's id of this boot (Linux); elsewhere one per process, so anchors never cross a restart wrongly. */
export function currentBootId(): string {
  try {
    const id = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch {
    /* not Linux */
  }
  return `process-${randomUUID()}`;
}

/** Monotonic ms since boot (libuv's CLOCK_MONOTONIC): the same origin in every process of a boot. */
export const bootMonotonic: Monotonic = () => Number(process.hrtime.bigint() / 1_000_000n);

/**
 * The terminal's time: the service's clock carried forward by the monotonic one. Kept in the
 * database so a restart within the same boot is anchored at once. `onFirstAnchor` runs when this
 * boot gets its first anchor: punches taken before it are recomputed then, before they are sent.
 */
export class TimeSource {
  private anchor: Anchor | null;

  constructor(
    private readonly db: WritableDb,
    private readonly clock: Clock,
    private readonly mono: Monotonic,
    readonly bootId: string,
    private readonly onFirstAnchor: (a: Anchor) => void = () => {},
    private readonly onAnchor: () => void = () => {},
  ) {
    const stored = readSetting(db, settingKeys.timeAnchor);
    this.anchor = stored && stored.bootId === bootId ? stored : null;
  }

  now(): TimeReading {
    return readTime(this.anchor, this.bootId, this.clock.now(), this.mono());
  }

  /** The monotonic reading, for timing a request around it. */
  monoNow(): number {
    return this.mono();
  }

  get current(): Anchor | null {
    return this.anchor;
  }

  /** How far the wall clock is from the service's (anchored minus wall), or null before any anchor. */
  skewMs(): number | null {
    const r = this.now();
    return r.anchored ? r.at - r.wall : null;
  }

  /** An answer with a `Date` header arrived; `sentMono`/`receivedMono` bracket the exchange. */
  noteServerDate(serverDate: number, sentMono: number, receivedMono: number): void {
    const first = this.anchor === null;
    const next = betterAnchor(this.anchor, anchorOf(this.bootId, serverDate, sentMono, receivedMono));
    if (next === this.anchor) return;
    this.anchor = next;
    try {
      writeSetting(this.db, settingKeys.timeAnchor, next);
    } catch {
      /* kept in memory; a restart re-anchors at its first answer */
    }
    this.onAnchor();
    if (first) this.onFirstAnchor(next);
  }
}
