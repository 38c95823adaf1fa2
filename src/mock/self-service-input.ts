/** What seeds and the control routes give the mock for the employee's own screen: leaves and hours-bank balances. */
import { z } from 'zod';
import { localDatePattern, localTimePattern } from '../api/shapes.js';

/** Balance of an employee nobody set: the spec's two-decimal centesimal hours. */
export const DEFAULT_FINAL_BALANCE = '0.00';
export const balanceSchema = z.string().regex(/^-?\d{1,7}\.\d{2}$/, 'decimal hours with two decimals, e.g. "-3.25"');

/** A leave as seeds and `POST /__mock/work-leaves` give it; `approved` absent leaves `approval_info` undefined. */
export const leaveInputSchema = z
  .strictObject({
    /** `_id` or external id of the employee. */
    employee: z.string().min(1),
    type: z.string().min(1),
    start_date: z.string().regex(localDatePattern, 'YYYY-MM-DD'),
    end_date: z.string().regex(localDatePattern, 'YYYY-MM-DD'),
    start_time: z.string().regex(localTimePattern, 'HH:MM').optional(),
    end_time: z.string().regex(localTimePattern, 'HH:MM').optional(),
    approved: z.boolean().optional(),
  })
  .refine((l) => l.end_date >= l.start_date, { message: 'end_date must not be before start_date', path: ['end_date'] })
  // Spec rule 4: a partial leave carries both times, a whole-day one neither.
  .refine((l) => (l.start_time === undefined) === (l.end_time === undefined), {
    message: 'start_time and end_time go together',
    path: ['end_time'],
  });
export type LeaveInput = z.infer<typeof leaveInputSchema>;
