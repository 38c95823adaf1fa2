/**
 * Pieces the contract's files share: bounded text, times, counts and calendar days. Not re-exported by src/contract.ts.
 */
import { z } from 'zod';

/** Input typed at the screen (a code, a PIN, a manager's reason): bounded, refused whole when longer. */
export const text = (max: number) => z.string().max(max);

/**
 * The most characters a string that comes from the service or the configuration may have in an
 * answer (a name, a leave's type, a site's name, the service's own words): 64 Ki, a bound that
 * protects memory only. The dispatcher cuts longer ones before checking (src/domain/people/long-text.ts,
 * FIELD_TEXT_MAX: the same number), so it can never fail an answer; the screen shortens for display.
 */
export const SERVICE_TEXT_MAX = 65_536;
export const serviceText = z.string().max(SERVICE_TEXT_MAX);
export const epochMs = z.number();
export const count = z.number().int().nonnegative();

export const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a day of the calendar');
export const dayNumber = (s: string): number => Date.parse(`${s}T00:00:00Z`) / 86_400_000;
