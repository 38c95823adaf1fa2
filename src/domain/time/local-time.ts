/**
 * Wall time in a time zone, computed from a UTC instant. Pure: the instant is passed in.
 * The API's `time` has minute precision and no offset, so the local date and minute are what
 * payroll sees; they are computed once at capture and stored with the punch.
 */
export type LocalDateTime = { date: string; time: string };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

export function localDateTime(instantMs: number, zone: string): LocalDateTime {
  const parts = formatterFor(zone).formatToParts(new Date(instantMs));
  const get = (t: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === t)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

/** First valid zone of the candidates (employee's, site's, system's), else UTC. */
export function chooseTimeZone(candidates: ReadonlyArray<string | null | undefined>): string {
  for (const c of candidates) if (c && isValidTimeZone(c)) return c;
  return 'UTC';
}

/** `YYYY-MM-DD` plus `days` (calendar arithmetic, no zone involved). */
export function addDays(localDate: string, days: number): string {
  const [y, m, d] = localDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Whether the local minute of `at` may have been lived before (a DST fall-back turns the clock
 * back, at most a few hours): only then can a punch share its local minute with an earlier one.
 */
export function localMinuteMayRepeat(
  at: number,
  zone: string,
  local: LocalDateTime = localDateTime(at, zone),
): boolean {
  for (const back of [30, 60, 120, 180]) {
    const earlier = localDateTime(at - back * 60_000, zone);
    if (earlier.date > local.date || (earlier.date === local.date && earlier.time >= local.time)) return true;
  }
  return false;
}

/** The zone's offset from UTC at `instantMs`, in whole minutes (e.g. -180 for America/Sao_Paulo). */
export function utcOffsetMinutes(instantMs: number, zone: string): number {
  const { date, time } = localDateTime(instantMs, zone);
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(y, m - 1, d, hh, mm);
  return Math.round((asUtc - Math.floor(instantMs / 60_000) * 60_000) / 60_000);
}
