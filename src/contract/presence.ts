/** Who is on site and the evacuation roll call (issue 30): admin calls only, never on the idle screen. */
import { z } from 'zod';
import { count, epochMs, serviceText, text } from './common.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const MAX_PEOPLE = 100_000;

export const boardPersonSchema = z.object({
  employeeKey: text(200),
  employee_external_id: text(200).nullable(),
  name: serviceText.nullable(),
  employer: serviceText.nullable(),
  gate: text(100),
  entryAt: epochMs,
  entryDate: day,
  entryTime: z.string().regex(/^\d{2}:\d{2}/),
  minutesInside: count,
  source: z.enum(['own', 'stream', 'service']),
});

const group = z.object({ name: serviceText, count });

/** Where the board's facts come from and as of when. */
export const presenceSourcesSchema = z.object({
  /** live: the site's stream in Redis is read; cut_off: configured but out of reach (since, why); off: no Redis. */
  stream: z.object({
    state: z.enum(['live', 'cut_off', 'off']),
    reason: text(40).nullable(),
    since: epochMs.nullable(),
    readAt: epochMs.nullable(),
    /**
     * The stream was trimmed past this terminal's position (it lost entries): when, and for how many people the
     * service's day is read again. Absent or null: no gap.
     */
    gap: z
      .object({ at: epochMs, people: count, note: text(100) })
      .nullable()
      .optional(),
  }),
  /** The service's records of the day (read only while the stream is not live): when last, for how many people. */
  service: z.object({ at: epochMs.nullable(), people: count }),
  /** This terminal's entries not yet published (Redis was out of reach), and since when the oldest waits. */
  unpublished: z.object({ count, since: epochMs.nullable() }),
});

export const presenceBoardSchema = z.object({
  at: epochMs,
  date: day,
  terminal: text(100),
  gate: text(100),
  onSite: z.array(boardPersonSchema).max(MAX_PEOPLE),
  forgotExit: z.array(boardPersonSchema).max(MAX_PEOPLE),
  byEmployer: z.array(group).max(MAX_PEOPLE),
  byGate: z.array(group).max(MAX_PEOPLE),
  counts: z.object({ onSite: count, forgotExit: count }),
  sources: presenceSourcesSchema,
});
export type PresenceBoardView = z.infer<typeof presenceBoardSchema>;

export const rollCallPersonSchema = z.object({
  employeeKey: text(200),
  employee_external_id: text(200).nullable(),
  name: serviceText.nullable(),
  employer: serviceText.nullable(),
  gate: text(100),
  safe: z.boolean(),
  markedAt: epochMs.nullable(),
  how: z.enum(['touch', 'badge']).nullable(),
  terminal: text(100).nullable(),
});

export const rollCallSchema = z.object({
  id: text(100),
  active: z.boolean(),
  startedAt: epochMs,
  startedBy: text(100),
  endedAt: epochMs.nullable(),
  date: day,
  people: z.array(rollCallPersonSchema).max(MAX_PEOPLE),
  counts: z.object({ listed: count, safe: count, missing: count }),
  /** This terminal cannot reach the others: it works on what it has, and says so. */
  cutOff: z.boolean(),
  files: z.object({ csv: text(4096), pdf: text(4096) }).nullable(),
});
export type RollCallView = z.infer<typeof rollCallSchema>;

export const rollCallMarkInput = z.strictObject({ employeeKey: text(200).min(1) });
export const rollCallMarkResultSchema = z.object({
  ok: z.boolean(),
  code: z.enum(['marked', 'already', 'not_listed', 'no_roll_call']),
});
