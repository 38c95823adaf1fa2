import type { PunchDirection } from '../../domain/time/day-sheet.js';
import {
  applyEvent,
  type PersonPresence,
  type PresenceEvent,
  type PresenceSource,
} from '../../domain/punch/presence.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';

/**
 * Each person's last known punch at the site, kept in the presence table alone: events applied by the rules of
 * domain/punch/presence.ts, a label corrected. Read from the table at each use rather than mirrored in memory: a
 * site of 10,000 people kept 10,000 objects on the heap for a board that is read on demand (issue 28 item 10).
 * Old days are dropped by the keeper through the table. Apart from the keeper (presence-keeper.ts), which decides
 * where events come from and when the board hears of them.
 */
export class PeopleOnSite {
  constructor(private readonly tables: Pick<PresenceTables, 'people' | 'person' | 'saveAll'>) {}

  get(employeeKey: string): PersonPresence | undefined {
    return this.tables.person(employeeKey);
  }

  values(): PersonPresence[] {
    return this.tables.people();
  }

  /** Those whose last punch is of `date`, latest first. */
  seenOn(date: string): PersonPresence[] {
    return this.tables
      .people()
      .filter((p) => p.localDate === date)
      .sort((a, b) => b.at - a.at);
  }

  /** How many people the events changed (each change saved). */
  apply(events: readonly PresenceEvent[], source: PresenceSource): number {
    // A batch may name someone twice: the second event applies over the first's result, not the table's.
    const pending = new Map<string, PersonPresence>();
    for (const e of events) {
      const known = pending.get(e.employeeKey) ?? this.tables.person(e.employeeKey);
      const next = applyEvent(known, e, source);
      if (next === null) continue;
      pending.set(e.employeeKey, next);
    }
    if (pending.size > 0) this.tables.saveAll([...pending.values()]);
    return pending.size;
  }

  /**
   * This terminal's last punch of the person (`isOwn`) carries the other label: the corrected event, kept, or
   * null when there is nothing to correct.
   */
  relabel(employeeKey: string, direction: PunchDirection, isOwn: (p: PersonPresence) => boolean): PresenceEvent | null {
    const p = this.tables.person(employeeKey);
    if (!p || !isOwn(p) || p.direction === direction) return null;
    const fixed = { ...p, id: `${p.id}:relabel`, direction };
    const next = applyEvent(undefined, fixed, 'own') as PersonPresence;
    this.tables.saveAll([next]);
    return fixed;
  }
}
