/**
 * The board as the screen and `timeclock presence` show it (contract `presenceBoardSchema`): the
 * people folded by domain/presence.ts, named from the roster, with where the facts come from.
 */
import type { PresenceBoardView } from '../../contract.js';
import { localDateTime } from '../../domain/local-time.js';
import { buildBoard, dayBefore, type NameOf, type PersonPresence } from '../../domain/presence.js';
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

/** Names read once, in one query, on first use. */
export function namesOnce(tables: PresenceReads): NameOf {
  let names: ReturnType<PresenceReads['names']> | null = null;
  return (k) => (names ??= tables.names()).get(k) ?? null;
}

/** Names read in one query and kept `ttlMs` (the roster changes rarely; a board is built on every change). */
export function cachedNames(tables: PresenceReads, now: () => number, ttlMs: number): NameOf {
  let names: ReturnType<PresenceReads['names']> | null = null;
  let at = 0;
  return (k) => {
    if (names === null || now() - at >= ttlMs) {
      names = tables.names();
      at = now();
    }
    return names.get(k) ?? null;
  };
}
