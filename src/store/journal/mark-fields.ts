import { afdDateTime } from '../../domain/afd/mark.js';
import { localDateTime, utcOffsetMinutes } from '../../domain/time/local-time.js';

/*
 * The fields of a mark (AFD type 7) the journal computes from a punch: the worker's CPF and the
 * two date-times (domain/afd/mark.ts lays them out).
 */

/** Digits of a CPF as the AFD wants them (11), or null when it is not one. */
export function cpfForMark(cpf: string | null): string | null {
  const digits = (cpf ?? '').replace(/\D/g, '');
  return /^\d{11}$/.test(digits) ? digits : null;
}

/**
 * The zone's offset at `at`, from the local date and time computed for it at capture (arithmetic,
 * not another pass through Intl: a backfill writes thousands); the zone is asked when they do not
 * fit (a whole number of quarter hours within ±14 h).
 */
function offsetAt(localDate: string, localTime: string, at: number, zone: string): number {
  const [y, mo, d] = localDate.split('-').map(Number) as [number, number, number];
  const [h, mi] = localTime.split(':').map(Number) as [number, number];
  const offset = (Date.UTC(y, mo - 1, d, h, mi) - Math.floor(at / 60_000) * 60_000) / 60_000;
  return Number.isInteger(offset) && offset % 15 === 0 && Math.abs(offset) <= 14 * 60
    ? offset
    : utcOffsetMinutes(at, zone);
}

let lastInstant = { minute: NaN, zone: '', text: '' };

/**
 * AAAA-MM-ddThh:mm:00ZZZZZ of `instant` in `zone` (the last one remembered: a backfill records thousands at one
 * instant).
 */
export function afdInstant(instant: number, zone: string): string {
  const minute = Math.floor(instant / 60_000);
  if (lastInstant.minute === minute && lastInstant.zone === zone) return lastInstant.text;
  const l = localDateTime(instant, zone);
  const text = afdDateTime(l.date, l.time, utcOffsetMinutes(instant, zone));
  lastInstant = { minute, zone, text };
  return text;
}

/** The mark's date-time: the punch's local date and time with the zone's offset at the captured instant. */
export function markedAt(localDate: string, localTime: string, at: number, zone: string): string {
  return afdDateTime(localDate, localTime, offsetAt(localDate, localTime, at, zone));
}
