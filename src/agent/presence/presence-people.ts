import type { PunchDirection } from '../../domain/time/day-sheet.js';
import {
  applyEvent,
  type PersonPresence,
  type PresenceEvent,
  type PresenceSource,
} from '../../domain/punch/presence.js';
import type { PresenceTables } from '../../store/punches/presence-tables.js';

/**
 * Each person's last known punch at the site, in memory and in the presence table (saved at each change):
 * events applied by the rules of domain/punch/presence.ts, a label corrected, old days dropped. Apart from
 * the keeper (presence-keeper.ts), which decides where events come from and when the board hears of them.
 */
export class PeopleOnSite {
  private readonly people = new Map<string, PersonPresence>();

  constructor(private readonly tables: Pick<PresenceTables, 'people' | 'saveAll'>) {
    for (const p of tables.people()) this.people.set(p.employeeKey, p);
  }

  get(employeeKey: string): PersonPresence | undefined {
    return this.people.get(employeeKey);
  }

  values(): IterableIterator<PersonPresence> {
    return this.people.values();
  }

  /** Those whose last punch is of `date`, latest first. */
  seenOn(date: string): PersonPresence[] {
    return [...this.people.values()].filter((p) => p.localDate === date).sort((a, b) => b.at - a.at);
  }

  /** How many people the events changed (each change saved). */
  apply(events: readonly PresenceEvent[], source: PresenceSource): number {
    const changed: PersonPresence[] = [];
    for (const e of events) {
      const next = applyEvent(this.people.get(e.employeeKey), e, source);
      if (next === null) continue;
      this.people.set(e.employeeKey, next);
      changed.push(next);
    }
    if (changed.length > 0) this.tables.saveAll(changed);
    return changed.length;
  }

  /**
   * This terminal's last punch of the person (`isOwn`) carries the other label: the corrected event, kept, or
   * null when there is nothing to correct.
   */
  relabel(employeeKey: string, direction: PunchDirection, isOwn: (p: PersonPresence) => boolean): PresenceEvent | null {
    const p = this.people.get(employeeKey);
    if (!p || !isOwn(p) || p.direction === direction) return null;
    const fixed = { ...p, id: `${p.id}:relabel`, direction };
    const next = applyEvent(undefined, fixed, 'own') as PersonPresence;
    this.people.set(employeeKey, next);
    this.tables.saveAll([next]);
    return fixed;
  }

  /** Drops those last seen before `before` (a date). */
  prune(before: string): void {
    for (const [k, p] of this.people) if (p.localDate < before) this.people.delete(k);
  }
}
