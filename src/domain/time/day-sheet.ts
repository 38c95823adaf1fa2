/**
 * An employee's punches as the result screen shows them: the day's punches in order, whether the
 * new one reads as an entry or an exit, and where the service's records fill in what this terminal
 * did not see (another terminal, the app, a manager's adjustment). Pure: everything is passed in.
 *
 * Entry or exit is a label, never a choice and never a reason to refuse: punches alternate entry,
 * exit, entry…, and a punch more than `maxShiftMinutes` after an entry starts again with "entry"
 * (someone who forgot to punch out yesterday is not told "exit" this morning).
 */
export type PunchDirection = 'entry' | 'exit';

/** A punch at a local wall time (the API's records have no offset: date and minute are what payroll sees). */
export type WallPunch = { readonly date: string; readonly time: string };

export type DayPunch = {
  /** HH:MM */
  readonly time: string;
  readonly direction: PunchDirection;
  /** Seen only in the service's records (another terminal, the app, a manager's adjustment). */
  readonly fromService: boolean;
  /** The punch this sheet is made for. */
  readonly isNew: boolean;
};

export type DaySheet = {
  readonly date: string;
  readonly direction: PunchDirection;
  readonly punches: readonly DayPunch[];
};

/** The default longest shift: a 12-hour shift with its break (the 12x36 scale) still ends in an exit. */
export const DEFAULT_MAX_SHIFT_MINUTES = 16 * 60;

const DAY_MINUTES = 24 * 60;

/** Minutes since 1970-01-01 of a wall time, for gaps between punches (no zone: wall times of one employee). */
export function wallMinutes(p: WallPunch): number {
  const [y, m, d] = p.date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = p.time.split(':').map(Number) as [number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / 60_000) + hh * 60 + mm;
}

function isWall(p: WallPunch): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(p.date) && /^\d{2}:\d{2}/.test(p.time);
}

const minuteOf = (p: WallPunch): WallPunch => ({ date: p.date, time: p.time.slice(0, 5) });
const keyOf = (p: WallPunch): string => `${p.date}T${p.time}`;

/**
 * The sheet of `now`'s day: `own` are this terminal's punches of the employee (the new one among
 * them), `service` the service's records when fetched (any days; those of the same minute as one of
 * ours are the same punch). Punches from the day before count only for the alternation.
 */
export function daySheet(
  now: WallPunch,
  own: readonly WallPunch[],
  service: readonly WallPunch[],
  maxShiftMinutes = DEFAULT_MAX_SHIFT_MINUTES,
): DaySheet {
  const fresh = minuteOf(now);
  const ownKeys = new Set([...own.filter(isWall).map(minuteOf), fresh].map(keyOf));
  const all = new Map<string, { p: WallPunch; fromService: boolean }>();
  for (const k of ownKeys) all.set(k, { p: { date: k.slice(0, 10), time: k.slice(11) }, fromService: false });
  for (const s of service.filter(isWall).map(minuteOf))
    if (!all.has(keyOf(s))) all.set(keyOf(s), { p: s, fromService: true });
  const end = wallMinutes(fresh);
  // What came after the new punch (a clock set back, another terminal) is listed but does not change its label.
  const ordered = [...all.values()]
    .map((e) => ({ ...e, at: wallMinutes(e.p) }))
    .filter((e) => e.at >= end - 2 * DAY_MINUTES)
    .sort((a, b) => a.at - b.at);
  const labelled: { p: WallPunch; fromService: boolean; direction: PunchDirection }[] = [];
  let previous: { at: number; direction: PunchDirection } | null = null;
  for (const e of ordered) {
    const direction: PunchDirection =
      previous !== null && previous.direction === 'entry' && e.at - previous.at <= maxShiftMinutes ? 'exit' : 'entry';
    labelled.push({ p: e.p, fromService: e.fromService, direction });
    previous = { at: e.at, direction };
  }
  const punches = labelled
    .filter((e) => e.p.date === fresh.date)
    .map((e) => ({
      time: e.p.time,
      direction: e.direction,
      fromService: e.fromService,
      isNew: keyOf(e.p) === keyOf(fresh),
    }));
  const direction = punches.find((p) => p.isNew)?.direction ?? 'entry';
  return { date: fresh.date, direction, punches };
}
