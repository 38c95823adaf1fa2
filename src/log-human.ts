/**
 * The fields of a human log line (log.ts, style `pretty`) as a person reads them: an instant field
 * (`…At`, epoch milliseconds) in local wall time with how far from now, a duration (`…Ms`) as a
 * span. `lastOkAt=1795904674806 nextInMs=21545881` reads `lastOkAt=19:44 (3 min ago)
 * nextIn=5 h 59 min`. JSON lines keep the numbers: machines read those.
 */
import { localWhen, spanText } from './domain/time/when-text.js';

/** Epoch milliseconds after 2001-09-09: a smaller `…At` number is something else (a count, a mono reading). */
const EPOCH_MS_FLOOR = 1e12;

export function humanField(key: string, value: unknown, now: number, zone: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (/At$/.test(key) && value >= EPOCH_MS_FLOOR) return `${key}=${localWhen(value, now, zone, 'en')}`;
    if (/Ms$/.test(key) && key.length > 2)
      return `${key.slice(0, -2)}=${Math.abs(value) < 1000 ? `${value} ms` : spanText(value)}`;
  }
  return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
}
