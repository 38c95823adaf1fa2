/** Every call the bridges serve: its input, its output, and whether it needs an admin session. */
import { z } from 'zod';
import {
  adminResultSchema,
  enrollResultSchema,
  heldPunchSchema,
  rejectedPunchSchema,
  rosterSyncResultSchema,
  unresolvedPunchSchema,
} from './admin.js';
import { adminLoginCodeSchema } from './admin-codes.js';
import {
  AFD_MAX_DAYS,
  AUDIT_MAX_DAYS,
  afdExportResultSchema,
  afdTargetsSchema,
  auditStateSchema,
  auditSummarySchema,
  unmountDriveResultSchema,
} from './afd-audit.js';
import { calendarDay, dayNumber, epochMs, text } from './common.js';
import { punchReceiptSchema, punchResultSchema, requestIdSchema } from './punch.js';
import {
  employeePunchesSchema,
  exportPunchesInput,
  findPunchesInput,
  punchCsvResultSchema,
  waitingListSchema,
} from './punch-lists.js';
import { screenSettingsSchema } from './screen-settings.js';
import { adminRoleSchema, forgotPinInputSchema, pinResetRequestSchema } from './pin-reset.js';
import { cameraStateInput, punchPhotoInput, punchPhotoResult, punchPhotoViewSchema } from './photo.js';
import { statusSchema } from './status.js';
import { presenceBoardSchema, rollCallMarkInput, rollCallMarkResultSchema, rollCallSchema } from './presence.js';

const empty = z.strictObject({});
const done = z.object({ ok: z.literal(true) });
/** How a manager names an employee: external id, registration number, CPF or API _id. */
const employeeQuery = text(200).min(1);
const pin = text(64).min(1);

export type CallSpec = { input: z.ZodType; output: z.ZodType; admin: boolean };

/**
 * Every call the bridges serve. `admin: true` calls need an admin session (after `adminLogin`).
 * The keypad's submit is `punch` with `{kind: 'id'}` and the PIN when one is asked for.
 */
export const calls = {
  punch: {
    input: z.strictObject({
      credential: z.strictObject({ kind: z.enum(['badge', 'id']), value: text(200) }),
      pin: pin.optional(),
      requestId: requestIdSchema.optional(),
    }),
    output: punchResultSchema,
    admin: false,
  },
  /** A keyboard-wedge burst the renderer detected. Null: the same scan already came by another way. */
  badgeScan: {
    input: z.strictObject({ code: text(200), source: z.literal('wedge'), requestId: requestIdSchema.optional() }),
    output: punchResultSchema.nullable(),
    admin: false,
  },
  /**
   * The PIN for the badge scan that answered `pin_required` with this `pinChallenge` (a reader's scan the screen only
   * saw as an event).
   */
  answerPin: {
    input: z.strictObject({ challenge: text(64).min(1), pin, requestId: requestIdSchema.optional() }),
    output: punchResultSchema,
    admin: false,
  },
  status: { input: empty, output: statusSchema, admin: false },
  screenSettings: { input: empty, output: screenSettingsSchema, admin: false },
  adminLogin: {
    input: z.strictObject({ pin }),
    /**
     * `lockedForMs` with `too_many`: how long login stays locked (the screen says "locked for N min", never "wrong
     * PIN").
     */
    output: z.object({
      ok: z.boolean(),
      code: adminLoginCodeSchema,
      expiresAt: epochMs.optional(),
      lockedForMs: z
        .number()
        .int()
        .positive()
        .max(7 * 24 * 3_600_000)
        .optional(),
      role: adminRoleSchema.optional(),
    }),
    admin: false,
  },
  /** Ends the admin session; harmless without one. */
  adminLogout: { input: empty, output: done, admin: false },
  /** Same as adminLogout, from the screen's lock button: must work whatever state the session is in. */
  lock: { input: empty, output: done, admin: false },
  listRejected: { input: empty, output: z.array(rejectedPunchSchema), admin: true },
  retryRejected: {
    input: z.strictObject({ punchId: z.number().int().positive() }),
    output: adminResultSchema,
    admin: true,
  },
  /** Every rejected punch back in the queue at once. */
  retryAllRejected: { input: empty, output: adminResultSchema, admin: true },
  listHeld: { input: empty, output: z.array(heldPunchSchema), admin: true },
  /** A person's decision on a held punch: send it again, or take it as delivered (both written to the audit log). */
  decideHeld: {
    /**
     * resend: send it (also: confirm a punch whose PIN was not verified); delivered: take it as on the service;
     * dispute: keep it here, never sent, with the reason.
     */
    input: z.strictObject({
      punchId: z.number().int().positive(),
      decision: z.enum(['resend', 'delivered', 'dispute']),
      reason: text(300).min(1).optional(),
    }),
    output: adminResultSchema,
    admin: true,
  },
  syncRoster: { input: empty, output: rosterSyncResultSchema, admin: true },
  /** Punches kept for codes no roster knew (listed for the manager after a complete sync). */
  listUnresolved: { input: empty, output: z.array(unresolvedPunchSchema), admin: true },
  /** Applies a roster sync held because it would shrink the roster by more than half. */
  confirmRosterShrink: { input: empty, output: adminResultSchema, admin: true },
  enrollBadge: {
    input: z.strictObject({ code: text(200), employee: employeeQuery }),
    output: enrollResultSchema,
    admin: true,
  },
  unenrollBadge: { input: z.strictObject({ code: text(200) }), output: adminResultSchema, admin: true },
  enrollNextScan: {
    input: z.strictObject({ employee: employeeQuery, timeoutMs: z.number().int().min(1_000).max(120_000).optional() }),
    output: enrollResultSchema,
    admin: true,
  },
  setPin: { input: z.strictObject({ employee: employeeQuery, pin }), output: adminResultSchema, admin: true },
  /** Replaces the API token (kept in the OS secret store, or a file only the kiosk user reads); never echoed back. */
  setApiToken: { input: z.strictObject({ token: text(512).min(1) }), output: adminResultSchema, admin: true },
  /** Points the terminal at another site (its roster is synced again). */
  setSite: { input: z.strictObject({ siteId: text(64).min(1) }), output: adminResultSchema, admin: true },
  /** The account's request budget, when the service grants more or less than 60 a minute. */
  setRateBudget: {
    input: z.strictObject({
      limit: z.number().int().min(1).max(10_000),
      windowMs: z.number().int().min(1_000).max(3_600_000),
    }),
    output: adminResultSchema,
    admin: true,
  },
  clearPin: { input: z.strictObject({ employee: employeeQuery }), output: adminResultSchema, admin: true },
  /** A punch's receipt looked up by its NSR; null: no mark with that NSR on this terminal. */
  receipt: {
    input: z.strictObject({ nsr: z.number().int().min(1).max(999_999_999) }),
    output: punchReceiptSchema.nullable(),
    admin: true,
  },
  /** The export panel's start: the site's today, the removable drives mounted now, what the configuration lacks. */
  afdTargets: { input: empty, output: afdTargetsSchema, admin: true },
  /**
   * The journal's marks dated from..to (inclusive) as an AFD, on a listed removable drive or for download (web bridge).
   */
  exportAfd: {
    input: z
      .strictObject({
        from: calendarDay,
        to: calendarDay,
        target: z.discriminatedUnion('kind', [
          z.strictObject({ kind: z.literal('drive'), path: text(4096).min(1) }),
          z.strictObject({ kind: z.literal('download') }),
        ]),
      })
      .refine((i) => i.from <= i.to, { message: 'from is after to', path: ['to'] })
      .refine((i) => dayNumber(i.to) - dayNumber(i.from) < AFD_MAX_DAYS, {
        message: `at most ${AFD_MAX_DAYS} days`,
        path: ['to'],
      }),
    output: afdExportResultSchema,
    admin: true,
  },
  /**
   * Compares the journal's marks dated from..to with the service's records; answers when done (paced by the rate
   * limit).
   */
  auditCompare: {
    input: z
      .strictObject({ from: calendarDay, to: calendarDay })
      .refine((i) => i.from <= i.to, { message: 'from is after to', path: ['to'] })
      .refine((i) => dayNumber(i.to) - dayNumber(i.from) < AUDIT_MAX_DAYS, {
        message: `at most ${AUDIT_MAX_DAYS} days`,
        path: ['to'],
      }),
    output: auditSummarySchema,
    admin: true,
  },
  /** The comparison under way, if any, and the last one's summary. */
  auditCompareState: { input: empty, output: auditStateSchema, admin: true },
  /**
   * The punches not yet delivered (pending, sending, in doubt, held), oldest first, at most WAITING_MAX, and how many
   * there are.
   */
  listWaiting: { input: empty, output: waitingListSchema, admin: true },
  /**
   * An employee's punches of a local date (default: the site's today), by external id, registration number, CPF or part
   * of a name.
   */
  findPunches: { input: findPunchesInput, output: employeePunchesSchema, admin: true },
  /**
   * The punches dated from..to (inclusive, at most PUNCH_CSV_MAX_DAYS) as CSV, on a listed removable drive or for
   * download (web bridge).
   */
  exportPunchesCsv: { input: exportPunchesInput, output: punchCsvResultSchema, admin: true },
  /** Unmounts a listed removable drive (after an export) so it can be pulled out safely. */
  unmountDrive: { input: z.strictObject({ path: text(4096).min(1) }), output: unmountDriveResultSchema, admin: true },
  /** A punch's PDF receipt (Art. 80) and its detached signature, base64, by NSR; null: no mark with that NSR. */
  receiptPdf: {
    input: z.strictObject({ nsr: z.number().int().min(1).max(999_999_999) }),
    output: z
      .object({
        fileName: z.string().regex(/^comprovante-\d{9}\.pdf$/),
        pdf: z.string().max(1_000_000),
        p7s: z.string().max(100_000).nullable(),
      })
      .nullable(),
    admin: true,
  },
  /**
   * "Esqueci meu PIN" on the PIN step: the punch taken and held for the manager (never refused), and a PIN reset asked
   * for.
   */
  forgotPin: { input: forgotPinInputSchema, output: punchResultSchema, admin: false },
  /** Workers who forgot their PIN and have not had a new one set, oldest first. */
  listPinResets: { input: empty, output: z.array(pinResetRequestSchema), admin: true },
  /** The shift lead's PIN (the manager's only): a login that may only confirm held punches and reset workers' PINs. */
  setShiftLeadPin: { input: z.strictObject({ pin }), output: adminResultSchema, admin: true },
  /**
   * Issue 31: the photo the screen took at a punch's scan (or why it has none), sent after the punch's answer; never on
   * the punch's path.
   */
  punchPhoto: { input: punchPhotoInput, output: punchPhotoResult, admin: false },
  /** Issue 31: the screen's camera opened (ok) or out (why); status, doctor and the admin screen say it. */
  cameraState: { input: cameraStateInput, output: done, admin: false },
  /** Issue 31: a punch's photo for the manager (admin punches, held lists, receipt view), by NSR. */
  punchPhotoView: {
    input: z.strictObject({ nsr: z.number().int().min(1).max(999_999_999) }),
    output: punchPhotoViewSchema,
    admin: true,
  },
  /** Who is on site now, by employer and gate, with the sources and as of when (issue 30). */
  presenceBoard: { input: empty, output: presenceBoardSchema, admin: true },
  /** The roll call under way, else the last one (null: none ever). */
  rollCall: { input: empty, output: rollCallSchema.nullable(), admin: true },
  /** Freezes the list of people on site now and starts a roll call (the one under way when there is one). */
  rollCallStart: { input: empty, output: rollCallSchema, admin: true },
  /** Marks a listed person safe by touch. */
  rollCallMark: { input: rollCallMarkInput, output: rollCallMarkResultSchema, admin: true },
  /** Ends the roll call; its CSV and PDF are kept with the day's evidence. */
  rollCallEnd: { input: empty, output: rollCallSchema.nullable(), admin: true },
} as const satisfies Record<string, CallSpec>;
