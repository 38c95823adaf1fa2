/** What the admin screen lists (rejected, held, unresolved punches) and what its calls answer. */
import { z } from 'zod';
import { adminCodeSchema, adminParamsSchema } from './admin-codes.js';
import { count, epochMs, serviceText } from './common.js';
import { punchStateSchema } from './punch.js';
import { rosterSyncOutcomeSchema } from './status.js';

/** A punch the service refused, as the admin screen lists it (the outbox row, minus internals). */
export const rejectedPunchSchema = z.object({
  id: z.number().int(),
  captured_at: epochMs,
  local_date: z.string(),
  local_time: z.string(),
  time_zone: z.string(),
  employee_external_id: serviceText.nullable(),
  employee_name: serviceText,
  credential_kind: z.string(),
  state: punchStateSchema,
  attempts: count,
  last_error: serviceText.nullable(),
  reject_reason: serviceText.nullable(),
  clock_flag: z.enum(['skewed', 'jumped_back', 'unanchored', 'service_clock_off']).nullable(),
  updated_at: epochMs,
  /** Issue 31: its NSR (the admin screen fetches its photo by it); absent from older agents. */
  nsr: z.number().int().nullable().optional(),
});

/**
 * A held punch as the admin screen lists it: why (not_allowed: the employee's contract; forbidden:
 * the service answered 403 for this employee; unverified: in doubt and the service would not say,
 * a person decides; clock_unverified: its time is this terminal's clock, never confirmed by the
 * service, and cannot be true), with the service's words (or the captured time) in `last_error`.
 */
export const heldPunchSchema = rejectedPunchSchema.extend({
  held_reason: z
    .enum(['not_allowed', 'forbidden', 'unverified', 'pin_unverified', 'disputed', 'clock_unverified'])
    .nullable(),
});

/**
 * What happened, as a code and the details its text is filled with: every screen and the CLI word it from src/messages.
 */
const answered = { code: adminCodeSchema, params: adminParamsSchema.optional() };

export const adminResultSchema = z.object({ ok: z.boolean(), ...answered });

export const enrollResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), ...answered, employeeId: serviceText, previousOwner: serviceText.nullable() }),
  z.object({ ok: z.literal(false), ...answered }),
]);

/** A punch kept for a code the roster did not know, as the admin screen lists it. */
export const unresolvedPunchSchema = z.object({
  id: z.number().int(),
  captured_at: epochMs,
  code: z.string(),
  credential_kind: z.string(),
  last_checked_at: epochMs.nullable(),
});

export const rosterSyncResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), employees: count, requests: count, finishedAt: epochMs }),
  z.object({
    ok: z.literal(false),
    error: serviceText,
    requests: count,
    finishedAt: epochMs,
    outcome: rosterSyncOutcomeSchema.optional(),
  }),
]);
