/** A punch as the screen sees it: its state, why it was kept or refused, its result and the worker's receipt. */
import { z } from 'zod';
import { adminCodeSchema, adminParamsSchema } from './admin-codes.js';
import { epochMs, serviceText } from './common.js';

export const punchStateSchema = z.enum(['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held']);

/**
 * Why a punch that was kept is not (yet) on its way, for the result screen to word:
 * - awaiting_roster: the terminal has no complete employee list yet; kept, matched when one arrives;
 * - unknown_code: the list is complete but does not know the code (accept-and-resolve);
 * - held_not_allowed: the employee's contract does not allow records by the API
 *   (`allow_external_api_record` false): kept on this terminal, not sent until HR allows it.
 */
export const punchNoteSchema = z.enum(['awaiting_roster', 'unknown_code', 'held_not_allowed', 'held_pin_unverified']);

export const punchRefusalSchema = z.enum([
  'invalid_code',
  'invalid_cpf',
  'unknown_credential',
  'ambiguous_credential',
  'pin_required',
  'pin_wrong',
  'pin_locked',
  'pin_throttled',
  'no_pin',
  'pin_expired',
  'storage_failed',
  'shutting_down',
  'enrollment',
]);

/**
 * The most UTF-8 bytes a receipt's QR code carries: the screen draws it at error correction M, whose
 * largest code (version 40) holds 2,331 bytes. src/agent/receipts/receipt.ts cuts the names in the QR text
 * so that it always fits (a 10,000-character name included).
 */
export const RECEIPT_QR_MAX_BYTES = 2_331;

/**
 * The worker's receipt of a punch ("Comprovante de Registro de Ponto do Trabalhador", Portaria 671 Art. 79), built by
 * src/agent/receipts/receipt.ts, where the QR code's text format is written down. The names are whole here
 * (the screen shortens them for display); the QR text cuts them by its own rule.
 */
export const punchReceiptSchema = z.object({
  nsr: z.string().regex(/^\d{9}$/),
  /** The local date and time of the capture in the punch's zone, with seconds, and that zone's offset (±HH:MM). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  time: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
  utcOffset: z.string().regex(/^[+-]\d{2}:\d{2}$/),
  /** Null: a code no roster knew at capture, or the punch is no longer kept (`punchKept`). */
  employeeName: serviceText.nullable(),
  /**
   * False: retention deleted the punch and the journal keeps only its mark: no name, the time to the minute (seconds
   * 00).
   */
  punchKept: z.boolean(),
  /** Masked (***.456.789-**); null: no CPF registered for the worker. */
  cpf: z.string().nullable(),
  terminalId: serviceText,
  /** As configured (CNPJ or CPF formatted); null where the configuration says nothing. */
  employer: z.object({ name: serviceText.nullable(), cnpj: z.string().nullable(), cpf: z.string().nullable() }),
  /** The record's SHA-256 (64 hex digits); screens show its start, the QR code all of it. */
  hash: z.string().regex(/^[0-9a-fA-F]{64}$/),
  portalUrl: serviceText.nullable(),
  /**
   * The receipt's text (the worker's copy: the whole CPF) at most RECEIPT_QR_MAX_BYTES in UTF-8, by the agent's cut;
   * the QR code's when `qrText` is absent.
   */
  text: serviceText,
  /**
   * The time the terminal learnt later was the right one (its clock was wrong, or the worker's zone
   * was not known yet), as the service received it; `adjustmentNsr`: the AFD type 4 record that
   * says so. The date and time above stay what the mark sealed. Absent or null: none.
   */
  corrected: z
    .object({
      date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      time: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
      utcOffset: z.string().regex(/^[+-]\d{2}:\d{2}$/),
      adjustmentNsr: z
        .string()
        .regex(/^\d{9}$/)
        .nullable(),
    })
    .nullable()
    .optional(),
  /** Timed by the terminal's own clock, not yet confirmed by the service ("horário a confirmar"). */
  timeToConfirm: z.boolean().optional(),
  /** Issue 29: held until a manager confirms who punched (the PIN was not verified). */
  awaitingConfirmation: z.boolean().optional(),
  /** Issue 26. The CPF whole (123.456.789-09), for the worker's own copy (QR, PDF); the screen shows `cpf`. */
  cpfFull: z.string().nullable().optional(),
  /** The configured CNO or CAEPF; null when none. */
  cno: z.string().nullable().optional(),
  /** The REP-P's INPI registration; null when not registered. */
  repRegistration: z.string().nullable().optional(),
  /** The place of work (the site's name, or `receipt.workplace`); null when not known. */
  workplace: serviceText.nullable().optional(),
  /** What the QR code carries: the portal link with the NSR and hash when a portal is configured, else `text`. */
  qrText: serviceText.optional(),
});
export type PunchReceiptView = z.infer<typeof punchReceiptSchema>;

const directionSchema = z.enum(['entry', 'exit']);

/** The most punches one day lists beside a result (the agent keeps the new one and those just before it). */
export const DAY_PUNCHES_MAX = 48;

/**
 * The employee's day beside a punch's result (agent/receipts/self-service.ts): entry or exit (a label,
 * never a choice), the day's punches in order with the new one marked, and what the service told
 * of the hours bank and a leave today, each with when it was fetched. Absent: not an employee's
 * punch (an unknown code), or an older agent.
 */
export const punchDaySchema = z.object({
  direction: directionSchema,
  punches: z
    .array(
      z.object({
        time: z.string().regex(/^\d{2}:\d{2}$/),
        direction: directionSchema,
        fromService: z.boolean(),
        isNew: z.boolean(),
      }),
    )
    .max(DAY_PUNCHES_MAX),
  serviceAt: epochMs.nullable(),
  hoursBank: z.object({ minutes: z.number().int(), at: epochMs }).nullable(),
  /** `type`: the leave's type as the service sent it, any length (the screen shortens it). */
  leave: z.object({ kind: z.enum(['vacation', 'other']), type: serviceText.nullable() }).nullable(),
});
export type PunchDayView = z.infer<typeof punchDaySchema>;

/** What the employee sees after a punch attempt (domain/punch/punch.ts `PunchResult`). */
export const punchResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    punchId: z.number().int().nullable(),
    /** Its NSR in the evidence journal (Portaria 671); absent from older agents. */
    nsr: z.number().int().positive().nullable().optional(),
    employeeName: serviceText.nullable(),
    employeeExternalId: serviceText.nullable(),
    localDate: z.string(),
    localTime: z.string(),
    repeat: z.boolean(),
    note: punchNoteSchema.optional(),
    /** The worker's receipt, when the evidence journal has this punch's mark. */
    receipt: punchReceiptSchema.optional(),
    day: punchDaySchema.optional(),
    /** Timed by the terminal's own clock before the service confirmed it: the screen says "horário a confirmar". */
    timeToConfirm: z.boolean().optional(),
  }),
  z.object({
    ok: z.literal(false),
    reason: punchRefusalSchema,
    /** The details the refusal's text is filled with (src/messages `refusal.<reason>`): a count, a time, a cause. */
    params: adminParamsSchema.optional(),
    employeeExternalId: serviceText.nullable().optional(),
    employeeName: serviceText.optional(),
    /** With `pin_required` after a badge scan: what `answerPin` answers (the screen may not know the badge's code). */
    pinChallenge: z.string().optional(),
    /** With `enrollment`: what became of the badge (the screen words it, as an admin answer). */
    enrollment: z.object({ ok: z.boolean(), code: adminCodeSchema, params: adminParamsSchema.optional() }).optional(),
  }),
]);
export type PunchResultView = z.infer<typeof punchResultSchema>;

/**
 * Set by the screen on its own punch calls (`punch`, `badgeScan`, `answerPin`) and echoed in the
 * `punch` event of that call's result, so the screen that asked knows the event is its own answer
 * again; a punch nobody's call asked for (an HID reader's) has none.
 */
export const requestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** The `punch` event: a result, with the `requestId` of the call it answers, if a call did. */
export const punchEventSchema = z.intersection(punchResultSchema, z.object({ requestId: requestIdSchema.optional() }));
export type PunchEventView = z.infer<typeof punchEventSchema>;
