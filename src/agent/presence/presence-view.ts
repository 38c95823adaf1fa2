/**
 * The board as the screen and `timeclock presence` show it (contract `presenceBoardSchema`): the
 * people folded by domain/punch/presence.ts, named from the roster, with where the facts come from.
 */
import type { PresenceBoardView } from '../../contract.js';
import { localDateTime } from '../../domain/time/local-time.js';
import { buildBoard, dayBefore, type NameOf, type PersonPresence } from '../../domain/punch/presence.js';
import type { PresenceReads } from '../../store/punches/presence-tables.js';

export type BoardSources = PresenceBoardView['sources'];

export const NO_SOURCES: BoardSources = {
  stream: { state: 'off', reason: null, since: null, readAt: null },
  service: { at: null, people: 0 },
  unpublished: { count: 0, since: null },
};

export function boardView(
  people: Iterable<PersonPresence>,
  tables: PresenceReads,
  at: { now: number; zone: string },
  where: { terminal: string; gate: string },
  sources: Omit<BoardSources, 'unpublished'>,
  names: NameOf = namesOnce(tables),
): PresenceBoardView {
  const today = localDateTime(at.now, at.zone).date;
  const b = buildBoard(people, today, at.now, names, dayBefore(today));
  const waiting = tables.pendingCount();
  return { ...b, ...where, sources: { ...sources, unpublished: { count: waiting.count, since: waiting.oldest } } };
}

/** Names read once, in one query, on first use; anyone else (a roll call's person who left since) by their key. */
export function namesOnce(tables: PresenceReads): NameOf {
  let names: ReturnType<PresenceReads['names']> | null = null;
  return (k) => (names ??= tables.names()).get(k) ?? tables.nameOf(k);
}

/** A name not found is looked for again at most this often (someone not in the roster stays unnamed). */
const MISSED_AGAIN_MS = 10_000;

type Names = ReturnType<PresenceReads['names']>;

/**
 * The names of the board's people (whose last punch is an entry), kept in memory and refreshed by the background
 * round (`refresh`), a page at a time with a turn of the event loop between pages: a board of thousands built while a
 * manager waits reads at most the few people new since the last refresh, and the memory held follows the people on
 * site, not the roster (100,000 names would be tens of MB).
 */
export class RosterNames {
  private names: Names;
  private at: number;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly tables: PresenceReads,
    private readonly now: () => number,
    private readonly everyMs: number,
    private readonly pageSize = 500,
  ) {
    this.names = tables.names();
    this.at = now();
  }

  /** Someone was not found (the roster synced since, or they are not in it): the next round reads again, soon. */
  private missed = false;

  /**
   * A person not in the names read (entered since the last read, or a roll call's person who left) is read by their
   * key, one indexed row, and kept until the next read: the names held are the board's people, never the roster.
   */
  readonly nameOf: NameOf = (k) => {
    const n = this.names.get(k);
    if (n !== undefined) return n;
    this.missed = true;
    if (this.unknown.has(k)) return null;
    const one = this.tables.nameOf(k);
    if (one !== null) this.names.set(k, one);
    else this.unknown.add(k);
    return one;
  };

  /** Keys the roster did not know at the last look (asked again after the next read). */
  private unknown = new Set<string>();

  /** When the names in use were read (bench, status). */
  get readAt(): number {
    return this.at;
  }

  /** When due, reads the names again (a page per turn) and swaps them in whole; settles when done. */
  refresh(): Promise<void> {
    const age = this.now() - this.at;
    if (age < this.everyMs && !(this.missed && (age >= MISSED_AGAIN_MS || this.names.size === 0)))
      return this.refreshing ?? Promise.resolve();
    this.missed = false;
    this.refreshing ??= (async () => {
      const next: Names = new Map();
      for (let after = ''; ;) {
        const page = this.tables.namesPage(after, this.pageSize);
        for (const r of page) next.set(r.id, { name: r.name, employer: r.employer });
        if (page.length < this.pageSize) break;
        after = (page.at(-1) as { id: string }).id;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      this.names = next;
      this.unknown = new Set();
      this.at = this.now();
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }
}
