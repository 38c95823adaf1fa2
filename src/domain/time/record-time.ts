/**
 * A time record's `time` as a service writes it, read (pure: no clock, no I/O). The spec shows
 * `YYYY-MM-DDTHH:MM`, wall time in the employee's zone; a service that stores instants may add
 * seconds, fractions and an offset (`…-03:00`, `…+00:00`, `…Z`) or write an HTTP date (Eve's
 * RFC 1123 form, "Sat, 28 Nov 2026 23:27:00 GMT"). Anything else is not read: a guess could prove
 * a punch absent and make a second record.
 */
import { localDateTime } from './local-time.js';

/**
 * `wall`: no offset, wall time of the zone the record was sent in; `instant`: ms since the epoch, cut to the minute.
 */
export type RecordTime = { kind: 'wall'; minute: string } | { kind: 'instant'; at: number };

/** The zone a wall minute was read in: an IANA zone, or a fixed offset east of UTC (minutes). */
export type WallZone = { zone: string } | { offsetMinutes: number };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const HTTP_DATE =
  /^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))? (GMT|UTC|UT|Z|[+-]\d{4})$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MINUTE_MS = 60_000;

/** ms of the wall time as if it were UTC, or null when a field is out of range (Feb 30, 24:00, :60). */
function wallMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls day 31 of a 30-day month over into the next: the round trip tells.
  return new Date(ms).getUTCDate() === d ? ms : null;
}

function offsetOf(sign: string, hh: string, mm: string | undefined): number | null {
  const h = Number(hh);
  const m = Number(mm ?? '0');
  if (h > 23 || m > 59) return null;
  return (sign === '-' ? -1 : 1) * (h * 60 + m);
}

/** The record's `time`, or null when it is not one of the forms above (or not a real date and time). */
export function parseRecordTime(text: string): RecordTime | null {
  const t = text.trim();
  const iso = ISO.exec(t);
  if (iso) {
    const [, y, mo, d, h, mi, s, z, sign, oh, om] = iso;
    const ms = wallMs(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? '0'));
    if (ms === null) return null;
    if (z === undefined && sign === undefined) return { kind: 'wall', minute: `${y}-${mo}-${d}T${h}:${mi}` };
    const offset = z !== undefined ? 0 : offsetOf(sign as string, oh as string, om);
    if (offset === null) return null;
    return { kind: 'instant', at: Math.floor((ms - offset * MINUTE_MS) / MINUTE_MS) * MINUTE_MS };
  }
  const http = HTTP_DATE.exec(t);
  if (http) {
    const [, wd, d, mon, y, h, mi, s, zone] = http;
    const ms = wallMs(Number(y), MONTHS.indexOf(mon as string) + 1, Number(d), Number(h), Number(mi), Number(s ?? '0'));
    if (ms === null) return null;
    const offset = /^[+-]/.test(zone as string)
      ? offsetOf((zone as string)[0] as string, (zone as string).slice(1, 3), (zone as string).slice(3))
      : 0;
    if (offset === null) return null;
    const at = ms - offset * MINUTE_MS;
    // A weekday that is not the date's says the text is not what it seems: not read.
    if (wd !== undefined && DAYS[new Date(ms).getUTCDay()] !== wd) return null;
    return { kind: 'instant', at: Math.floor(at / MINUTE_MS) * MINUTE_MS };
  }
  return null;
}

/** The wall minute (`YYYY-MM-DDTHH:MM`) of an instant in `where`. */
export function wallMinuteAt(at: number, where: WallZone): string {
  if ('zone' in where) {
    const l = localDateTime(at, where.zone);
    return `${l.date}T${l.time}`;
  }
  return new Date(at + where.offsetMinutes * MINUTE_MS).toISOString().slice(0, 16);
}

/**
 * The wall minute a record names in `where`: its own when it has no offset, else its instant's.
 * Comparing wall minutes in the sender's zone, not instants, is what keeps a DST fall-back right:
 * the terminal sent `01:45` without an offset, and a service that stores instants may read either
 * 01:45 of that night (two instants an hour apart); both are the minute the terminal sent.
 */
export function recordWallMinute(t: RecordTime, where: WallZone): string {
  return t.kind === 'wall' ? t.minute : wallMinuteAt(t.at, where);
}

/** Whether the record names the wall minute `minute` (`YYYY-MM-DDTHH:MM`) sent from `where`. */
export function recordNamesMinute(t: RecordTime, minute: string, where: WallZone): boolean {
  return recordWallMinute(t, where) === minute;
}

/** `YYYY-MM-DDTHH:MM` plus an offset (minutes east) as the instant it names, floored to the minute. */
export function instantOfWall(minute: string, offsetMinutes: number): number {
  const [y, mo, d, h, mi] = minute.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi) - offsetMinutes * MINUTE_MS;
}
