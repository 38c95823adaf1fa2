/** Pieces the contract's files share: bounded text, times, counts and calendar days. Not re-exported by src/contract.ts. */
import { z } from 'zod';

export const text = (max: number) => z.string().max(max);
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
