/**
 * Who is on site now (issue 30): each person's last known punch, from this terminal, the other
 * terminals of the site (through the fleet's Redis) or the service's records of the day, folded
 * into a board. Pure: instants, the site's date and everything else are passed in.
 *
 * Entry or exit is the label the terminal that took the punch gave it (alternation, as the result
 * screen shows it: domain/time/day-sheet.ts); here the latest punch of a person wins, whichever terminal
 * took it, so a worker who entered at gate A and left at gate B is out.
 */
import type { PunchDirection } from '../time/day-sheet.js';

/** Where a person's last punch was learnt. */
export type PresenceSource = 'own' | 'stream' | 'service';

/** One punch as the site's terminals share it: employee ids and times, never a CPF or a name. */
export type PresenceEvent = {
  /** Unique across the site: `<terminal>:<punch id>` (a repeat delivery of the same event changes nothing). */
  id: string;
  /** The employee's key on the terminals (the roster's id). */
  employeeKey: string;
  employeeExternalId: string | null;
  /** Service-anchored instant of the punch (ms). */
  at: number;
  /** The punch's wall date and time in the employee's zone. */
  localDate: string;
  localTime: string;
  direction: PunchDirection;
  /** The terminal that took it, and the gate it stands at (its configured name, else its id). */
  terminal: string;
  gate: string;
};

/** What a terminal keeps of a person: the last punch, and the entry that began the current stay. */
export type PersonPresence = PresenceEvent & {
  source: PresenceSource;
  /** The entry the person is inside since (null when the last punch is an exit). */
  entryAt: number | null;
  entryGate: string | null;
};

/** The label of a new punch after `last` (the person's last known punch at this site). */
export function nextDirection(
  last: Pick<PersonPresence, 'direction' | 'at'> | null | undefined,
  at: number,
  maxShiftMs: number,
): PunchDirection {
  return last && last.direction === 'entry' && at - last.at >= 0 && at - last.at <= maxShiftMs ? 'exit' : 'entry';
}

/**
 * The person after `e`: a punch older than the one known changes nothing (a late delivery from an
 * outbox), nor does the same event twice. Null: no change.
 */
export function applyEvent(
  current: PersonPresence | undefined,
  e: PresenceEvent,
  source: PresenceSource,
): PersonPresence | null {
  if (current && (current.id === e.id || e.at < current.at)) return null;
  const entryAt = e.direction === 'entry' ? e.at : null;
  return { ...e, source, entryAt, entryGate: entryAt === null ? null : e.gate };
}

/** A person on the board, with what the terminal knows of them by name. */
export type BoardPerson = {
  employeeKey: string;
  /** The API's name for it: the board's JSON is read by scripts that know the service. */
  employee_external_id: string | null;
  name: string | null;
  employer: string | null;
  gate: string;
  entryAt: number;
  entryDate: string;
  entryTime: string;
  /** Minutes since the entry (whole, at least 0). */
  minutesInside: number;
  source: PresenceSource;
};

export type BoardGroup = { name: string; count: number };

export type PresenceBoard = {
  at: number;
  /** The site's date the board is of: entries of an earlier date are not counted as inside. */
  date: string;
  onSite: BoardPerson[];
  /** Whose last punch is an entry of an earlier day (forgot to punch out): shown apart, not counted. */
  forgotExit: BoardPerson[];
  byEmployer: BoardGroup[];
  byGate: BoardGroup[];
  counts: { onSite: number; forgotExit: number };
};

export type NameOf = (employeeKey: string) => { name: string | null; employer: string | null } | null;

const UNKNOWN_EMPLOYER = '';

function groups(people: readonly BoardPerson[], keyOf: (p: BoardPerson) => string): BoardGroup[] {
  const m = new Map<string, number>();
  for (const p of people) m.set(keyOf(p), (m.get(keyOf(p)) ?? 0) + 1);
  return [...m]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

/**
 * The board at `now` for the site's date `today`: inside are those whose last punch is an entry of
 * today; an entry of an earlier day (up to `forgotDays` back) is a forgotten exit. Longest inside
 * first (the warden reads the top of the list first).
 */
export function buildBoard(
  people: Iterable<PersonPresence>,
  today: string,
  now: number,
  nameOf: NameOf,
  forgotAfter = '0000-00-00',
): PresenceBoard {
  const onSite: BoardPerson[] = [];
  const forgotExit: BoardPerson[] = [];
  for (const p of people) {
    if (p.direction !== 'entry' || p.entryAt === null) continue;
    const known = nameOf(p.employeeKey);
    const person: BoardPerson = {
      employeeKey: p.employeeKey,
      employee_external_id: p.employeeExternalId,
      name: known?.name ?? null,
      employer: known?.employer ?? null,
      gate: p.entryGate ?? p.gate,
      entryAt: p.entryAt,
      entryDate: p.localDate,
      entryTime: p.localTime,
      minutesInside: Math.max(0, Math.floor((now - p.entryAt) / 60_000)),
      source: p.source,
    };
    if (p.localDate === today) onSite.push(person);
    else if (p.localDate < today && p.localDate >= forgotAfter) forgotExit.push(person);
  }
  const order = (a: BoardPerson, b: BoardPerson): number =>
    a.entryAt - b.entryAt || a.employeeKey.localeCompare(b.employeeKey);
  onSite.sort(order);
  forgotExit.sort(order);
  return {
    at: now,
    date: today,
    onSite,
    forgotExit,
    byEmployer: groups(onSite, (p) => p.employer ?? UNKNOWN_EMPLOYER),
    byGate: groups(onSite, (p) => p.gate),
    counts: { onSite: onSite.length, forgotExit: forgotExit.length },
  };
}

/** The day before `date` (YYYY-MM-DD), for "yesterday's entries without exit". */
export function dayBefore(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
}

/**
 * The service's records of a person's day (HH:MM, any order; each record one punch) against what
 * the terminal knows: the latest record, labelled by alternation over the day (an odd count ends
 * in an entry), when it is later than the known punch, or of the same minute with the other label
 * (a terminal that did not know of another gate's punch labelled it wrong); else null.
 */
export function fromServiceDay(
  known: PersonPresence | undefined,
  date: string,
  times: readonly string[],
): { time: string; direction: PunchDirection } | null {
  const day = times.map((t) => t.slice(0, 5)).sort();
  const last = day.at(-1);
  if (last === undefined) return null;
  const direction: PunchDirection = day.length % 2 === 1 ? 'entry' : 'exit';
  if (known && known.localDate > date) return null;
  if (known && known.localDate === date) {
    const k = known.localTime.slice(0, 5);
    if (k > last || (k === last && known.direction === direction)) return null;
  }
  return { time: last, direction };
}
