/**
 * Reading `GET /timesheets` for the employee's own screen. The spec shows the members but says an
 * absent field is "not yet defined", so every member may be missing: that reads as null or empty,
 * never as an error. A day or a value that is there but cannot be read is skipped on its own, with
 * where and why, so one odd day never hides the others. Only an answer that is not a JSON object
 * at all is refused whole (the caller turns the throw into an error outcome).
 */
import { localDatePattern, localTimePattern } from './shapes.js';

export type TimesheetSkipReason =
  /** A `days` key that is not a YYYY-MM-DD date. */
  | 'bad_day_key'
  /** A day's value that is not an object. */
  | 'day_not_an_object'
  /** `horarios` present but not a list. */
  | 'bad_horarios'
  /** One entry of `horarios` that is not HH:MM (the rest of the day is kept). */
  | 'bad_time'
  /** `final_balance` present but not a decimal number of hours. */
  | 'bad_balance'
  /** `hours_bank_summary`, its `period`, `days` or `period` present but not an object, or a date in them unreadable. */
  | 'bad_member';

export type TimesheetSkip = { at: string; reason: TimesheetSkipReason };

export type DateRange = { startDate: string | null; endDate: string | null };

export type HoursBank = {
  /** `final_balance` in signed minutes (rounded to the nearest), null when not defined or unreadable. */
  finalBalanceMinutes: number | null;
  /** `final_balance` as sent, for the record. */
  finalBalanceText: string | null;
  /** `period` of the bank (`type` e.g. 'cyclic'); null when not defined. */
  period: (DateRange & { type: string | null }) | null;
};

export type TimesheetDay = { date: string; horarios: string[] };

export type TimesheetReading = {
  employeeId: string | null;
  period: DateRange | null;
  /** null: the service sent no `hours_bank_summary` (not yet defined). */
  hoursBank: HoursBank | null;
  /** Readable days, in date order. */
  days: TimesheetDay[];
  skipped: TimesheetSkip[];
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Whole hours, then up to six decimals of an hour (two are what the spec shows).
const CENTESIMAL = /^([+-])?(\d{1,7})(?:\.(\d{1,6}))?$/;

/**
 * Centesimal hours ("-3.25" = minus 3 h 15 min) in signed minutes, rounded half away from zero so
 * a balance and its opposite read alike. Integer arithmetic: no binary-fraction drift. Null when
 * the text is not such a number.
 */
export function centesimalToMinutes(value: string): number | null {
  const m = CENTESIMAL.exec(value.trim());
  if (!m) return null;
  const hours = Number(m[2]);
  const digits = m[3] ?? '';
  const scale = 10 ** digits.length;
  const frac = digits === '' ? 0 : Number(digits);
  const fracMinutes = Math.floor((frac * 60 * 2 + scale) / (2 * scale));
  const minutes = hours * 60 + fracMinutes;
  return m[1] === '-' && minutes !== 0 ? -minutes : minutes;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

/** A date member: absent is null quietly; present but not YYYY-MM-DD is null and a skip. */
function dateOf(v: unknown, at: string, skipped: TimesheetSkip[]): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' && localDatePattern.test(v)) return v;
  skipped.push({ at, reason: 'bad_member' });
  return null;
}

/** An optional object member: absent is null quietly; present but not an object is null and a skip. */
function objectOf(v: unknown, at: string, skipped: TimesheetSkip[]): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (isObject(v)) return v;
  skipped.push({ at, reason: 'bad_member' });
  return null;
}

function rangeOf(o: Record<string, unknown>, at: string, skipped: TimesheetSkip[]): DateRange {
  return {
    startDate: dateOf(o['start_date'], `${at}.start_date`, skipped),
    endDate: dateOf(o['end_date'], `${at}.end_date`, skipped),
  };
}

function readHoursBank(raw: unknown, skipped: TimesheetSkip[]): HoursBank | null {
  const hb = objectOf(raw, 'hours_bank_summary', skipped);
  if (!hb) return null;
  const balance = hb['final_balance'];
  let finalBalanceMinutes: number | null = null;
  let finalBalanceText: string | null = null;
  // A JSON number is taken too: the meaning is unambiguous even if the spec shows a string.
  if (typeof balance === 'string' || (typeof balance === 'number' && Number.isFinite(balance))) {
    finalBalanceText = String(balance);
    finalBalanceMinutes = centesimalToMinutes(finalBalanceText);
    if (finalBalanceMinutes === null) skipped.push({ at: 'hours_bank_summary.final_balance', reason: 'bad_balance' });
  } else if (balance !== undefined && balance !== null) {
    skipped.push({ at: 'hours_bank_summary.final_balance', reason: 'bad_balance' });
  }
  const p = objectOf(hb['period'], 'hours_bank_summary.period', skipped);
  const period = p ? { type: str(p['type']), ...rangeOf(p, 'hours_bank_summary.period', skipped) } : null;
  return { finalBalanceMinutes, finalBalanceText, period };
}

function readDays(raw: unknown, skipped: TimesheetSkip[]): TimesheetDay[] {
  const days = objectOf(raw, 'days', skipped);
  if (!days) return [];
  const out: TimesheetDay[] = [];
  for (const [date, value] of Object.entries(days)) {
    const at = `days.${date}`;
    if (!localDatePattern.test(date)) {
      skipped.push({ at, reason: 'bad_day_key' });
      continue;
    }
    if (!isObject(value)) {
      skipped.push({ at, reason: 'day_not_an_object' });
      continue;
    }
    const list = value['horarios'];
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      skipped.push({ at: `${at}.horarios`, reason: 'bad_horarios' });
      continue;
    }
    const entries: unknown[] = Array.isArray(list) ? list : [];
    const horarios: string[] = [];
    entries.forEach((t, i) => {
      if (typeof t === 'string' && localTimePattern.test(t)) horarios.push(t);
      else skipped.push({ at: `${at}.horarios[${i}]`, reason: 'bad_time' });
    });
    // HH:MM sorts as text; the service's order is not promised.
    horarios.sort();
    out.push({ date, horarios });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The timesheet answer; throws only when it is not a JSON object. */
export function readTimesheet(raw: unknown): TimesheetReading {
  if (!isObject(raw)) throw new Error('the timesheet answer is not a JSON object');
  const skipped: TimesheetSkip[] = [];
  const p = objectOf(raw['period'], 'period', skipped);
  return {
    employeeId: str(raw['employee_id']),
    period: p ? rangeOf(p, 'period', skipped) : null,
    hoursBank: readHoursBank(raw['hours_bank_summary'], skipped),
    days: readDays(raw['days'], skipped),
    skipped,
  };
}

/** The punches of one day, empty when the timesheet has no such day. */
export function horariosOn(reading: TimesheetReading, date: string): string[] {
  return reading.days.find((d) => d.date === date)?.horarios ?? [];
}
