import { z } from 'zod';
import type { Slot } from '../../domain/rate/sliding-window.js';
import type { WritableDb } from '../database.js';
import { settingKey } from './setting-keys.js';
import { readSetting, writeSetting } from './settings.js';

export type StoredSlot = Slot & { id: number };

/** The process (its name in the fleet's shared window) that took the slots above `after`, up to the next owner's. */
export type SlotOwner = { member: string; after: number };

const slotOwners = settingKey<SlotOwner[]>(
  'rate_slot_owners',
  z.array(z.looseObject({ member: z.string(), after: z.number() })),
  [],
);

/**
 * The name in the shared window of the process that took slot `id`, or null when not recorded (an earlier version's
 * slot).
 */
export function ownerOf(owners: readonly SlotOwner[], id: number): string | null {
  let found: string | null = null;
  for (const o of owners) if (o.after < id) found = o.member;
  return found;
}

/**
 * The rate window's request log, persisted so a restarted agent knows what it already spent and
 * cannot burst past the server's sliding window.
 */
export class RateSlots {
  private readonly stmts;

  constructor(private readonly db: WritableDb) {
    this.stmts = {
      maxId: db.prepare('SELECT MAX(id) AS m FROM rate_slots'),
      live: db.prepare(
        'SELECT id, taken_at AS takenAt, released_at AS releasedAt FROM rate_slots WHERE released_at IS NULL OR released_at > ? ORDER BY id',
      ),
      take: db.prepare('INSERT INTO rate_slots (taken_at, purpose) VALUES (?, ?) RETURNING id'),
      release: db.prepare('UPDATE rate_slots SET released_at = ? WHERE id = ? AND released_at IS NULL'),
      forget: db.prepare('DELETE FROM rate_slots WHERE id = ?'),
      prune: db.prepare('DELETE FROM rate_slots WHERE released_at IS NOT NULL AND released_at <= ?'),
      orphans: db.prepare('UPDATE rate_slots SET released_at = ? WHERE released_at IS NULL'),
      shift: db.prepare(
        `UPDATE rate_slots SET taken_at = taken_at + CASE WHEN taken_at <= @before THEN @ms ELSE 0 END,
           released_at = released_at + CASE WHEN released_at <= @before THEN @ms ELSE 0 END`,
      ),
      clampFuture: db.prepare(
        'UPDATE rate_slots SET taken_at = MIN(taken_at, @now), released_at = MIN(released_at, @now) WHERE taken_at > @now OR released_at > @now',
      ),
    };
  }

  /** Slots that may still count at `now` for a window of `windowMs`. */
  live(now: number, windowMs: number): StoredSlot[] {
    return this.stmts.live.all(now - windowMs) as StoredSlot[];
  }

  /**
   * From here on this process (`member`, its name in the shared window) takes the slots: answers who
   * took the `live` ones before it, so a restart puts them back into the window under the names
   * they already have there and no request counts twice. Owners no live slot needs are dropped.
   */
  claim(member: string, live: readonly StoredSlot[]): Map<number, string | null> {
    const previous = readSetting(this.db, slotOwners);
    const oldest = Math.min(...live.map((s) => s.id));
    const kept = previous.filter((o, i) => (previous[i + 1]?.after ?? Number.POSITIVE_INFINITY) >= oldest).slice(-16);
    const after = (this.stmts.maxId.get() as { m: number | null }).m ?? 0;
    writeSetting(this.db, slotOwners, [...kept, { member, after }]);
    return new Map(live.map((s) => [s.id, ownerOf(previous, s.id)]));
  }

  take(now: number, purpose: string): number {
    return (this.stmts.take.get(now, purpose) as { id: number }).id;
  }

  release(id: number, at: number): void {
    this.stmts.release.run(at, id);
  }

  /** A slot taken but never used for a request (nothing was sent) gives its place back. */
  forget(id: number): void {
    this.stmts.forget.run(id);
  }

  prune(now: number, windowMs: number): void {
    this.stmts.prune.run(now - windowMs);
  }

  /**
   * The wall clock stepped by `ms`: every slot time read by `before` moves with it, so each keeps its place in the
   * window.
   */
  shift(ms: number, before = Number.MAX_SAFE_INTEGER): void {
    this.stmts.shift.run({ ms, before });
  }

  /**
   * Slots recorded in the future (the clock was stepped back while no agent ran) count as taken
   * and answered now: one more window, never a burst, and never hours of silence.
   */
  clampFuture(now: number): number {
    return this.stmts.clampFuture.run({ now }).changes;
  }

  /**
   * Slots left open by a process that died had their answers (if any) before `now`: counting them
   * as released now is the latest, so the safest, assumption.
   */
  closeOrphans(now: number): number {
    return this.stmts.orphans.run(now).changes;
  }
}
