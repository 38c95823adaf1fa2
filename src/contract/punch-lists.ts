/**
 * The admin screen's punch lists (src/agent/exports/punch-lists.ts): the punches not yet delivered, one
 * employee's punches of a day, and a date range of punches as CSV (on a removable drive, or in
 * browser mode as a one-time download served at AFD_DOWNLOAD_PATH like the AFD).
 */
import { z } from 'zod';
import { adminParamsSchema } from './admin-codes.js';
import { calendarDay, count, dayNumber, epochMs, serviceText, text } from './common.js';
import { punchStateSchema } from './punch.js';

/** The most punches one waiting list carries (the total says how many there are). */
export const WAITING_MAX = 200;
/** The longest range one CSV export covers. */
export const PUNCH_CSV_MAX_DAYS = 366;
/** The most employees an employee search answers with (a name part can match many). */
export const SEARCH_MAX_EMPLOYEES = 20;

export const waitingStateSchema = z.enum(['pending', 'sending', 'in_doubt', 'held']);

/** A punch as the lists show it; `lastError` is the service's own words (or the network's), never translated. */
const listedPunch = z.object({
  id: z.number().int().positive(),
  employeeName: serviceText,
  externalId: serviceText.nullable(),
  localDate: z.string(),
  localTime: z.string(),
  attempts: count,
  lastError: serviceText.nullable(),
  heldReason: z.string().nullable(),
  nsr: z.number().int().nullable(),
});

export const waitingPunchSchema = listedPunch.extend({ state: waitingStateSchema, capturedAt: epochMs });
export const waitingListSchema = z.object({ total: count, punches: z.array(waitingPunchSchema).max(WAITING_MAX) });
export type WaitingList = z.infer<typeof waitingListSchema>;

export const dayPunchSchema = listedPunch.extend({
  state: punchStateSchema,
  sentAt: epochMs.nullable(),
  rejectReason: serviceText.nullable(),
  remoteId: serviceText.nullable(),
});
export const foundEmployeeSchema = z.object({ id: serviceText, externalId: serviceText.nullable(), name: serviceText });
export const employeePunchesSchema = z.object({
  date: calendarDay,
  /** Empty: nobody matched the query. */
  employees: z.array(foundEmployeeSchema).max(SEARCH_MAX_EMPLOYEES),
  /** More employees matched than were searched. */
  more: z.boolean(),
  punches: z.array(dayPunchSchema),
});
export type EmployeePunches = z.infer<typeof employeePunchesSchema>;

export const findPunchesInput = z.strictObject({
  /** External id, registration number, CPF, API _id, or part of a name. */
  employee: text(200).refine((s) => s.trim().length >= 2, { message: 'at least 2 characters' }),
  /** The local date (default: the site's today). */
  date: calendarDay.optional(),
});

const target = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('drive'), path: text(4096).min(1) }),
  z.strictObject({ kind: z.literal('download') }),
]);

export const exportPunchesInput = z
  .strictObject({ from: calendarDay, to: calendarDay, target })
  .refine((i) => i.from <= i.to, { message: 'from is after to', path: ['to'] })
  .refine((i) => dayNumber(i.to) - dayNumber(i.from) < PUNCH_CSV_MAX_DAYS, {
    message: `at most ${PUNCH_CSV_MAX_DAYS} days`,
    path: ['to'],
  });

export const punchCsvErrorCodeSchema = z.enum([
  'drive_unknown',
  'drive_read_only',
  'write_failed',
  'busy',
  'target_unsafe',
]);

export const punchCsvResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    fileName: z.string(),
    rows: count,
    bytes: count,
    where: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('drive'), label: z.string(), folder: z.string() }),
      z.object({ kind: z.literal('download') }),
    ]),
    /** The one-time id for AFD_DOWNLOAD_PATH (download target only). */
    download: z
      .string()
      .regex(/^[0-9a-f]{32}$/)
      .nullable(),
  }),
  z.object({ ok: z.literal(false), code: punchCsvErrorCodeSchema, params: adminParamsSchema }),
]);
export type PunchCsvAnswer = z.infer<typeof punchCsvResultSchema>;
