/**
 * The bridge contract: every call the kiosk screens may make and every event they receive, as zod
 * schemas. The single source for the Electron IPC handlers (main), the preload's contextBridge
 * object, the web bridge (loopback HTTP) and the renderer. Imports only zod, so the renderer can
 * type-check against it without Node or the agent. The handlers (src/web/handlers.ts) are typed
 * against it, so the compiler checks that the agent's own result types fit these schemas.
 *
 * Inputs are strict objects with bounded strings: a wrong-shaped message is refused whole, with a
 * typed error, before it reaches the agent. Outputs are plain (non-strict) objects: parsing an
 * output strips whatever the schema does not name, so nothing beyond the contract leaves the agent.
 */
import { z } from 'zod';

// ---- shared pieces ------------------------------------------------------------------------------

const text = (max: number) => z.string().max(max);
const epochMs = z.number();
const count = z.number().int().nonnegative();

export const punchStateSchema = z.enum(['pending', 'sending', 'in_doubt', 'sent', 'rejected', 'held']);

/**
 * Why a punch that was kept is not (yet) on its way, for the result screen to word:
 * - awaiting_roster: the terminal has no complete employee list yet; kept, matched when one arrives;
 * - unknown_code: the list is complete but does not know the code (accept-and-resolve);
 * - held_not_allowed: the employee's contract does not allow records by the API
 *   (`allow_external_api_record` false): kept on this terminal, not sent until HR allows it.
 */
/** What a roster sync came to (src/sync/roster-sync.ts `RosterSyncResult`). */
export const rosterSyncOutcomeSchema = z.enum(['applied', 'incomplete', 'shrink_held', 'failed', 'cancelled']);

/** Why a roster record was skipped: nothing identifies it, or it is not a record at all. */
export const skipReasonSchema = z.enum(['no_ids', 'not_an_object']);

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
 * What an admin call's answer says happened, for the screen to word in its own language (the
 * `message` beside it is English, for the CLI, logs and tests). Every answer the agent makes to an
 * admin call carries one.
 */
export const adminCodeSchema = z.enum([
  // retryRejected
  'retry_queued',
  'retry_not_rejected',
  // employees, badges, PINs
  'employee_not_found',
  'badge_invalid',
  'badge_enrolled',
  'badge_moved',
  'badge_unenrolled',
  'badge_not_enrolled',
  'enroll_timeout',
  'enroll_replaced',
  'pin_set',
  'pin_cleared',
  'pin_not_set',
  'pin_bad_format',
  'pin_save_failed',
  'admin_pin_set',
  // settings
  'settings_busy',
  'token_saved',
  'token_saved_unchecked',
  'token_invalid',
  'token_demo',
  'token_refused',
  'token_save_failed',
  'site_set',
  'site_set_unchecked',
  'site_same',
  'site_invalid',
  'site_unknown',
  'site_refused',
  'site_needs_token',
  'site_save_failed',
  'budget_set',
  'budget_invalid',
  'budget_save_failed',
  // roster
  'roster_shrink_applied',
  'roster_shrink_none',
  // held and rejected punches
  'retry_all_queued',
  'held_resend_queued',
  'held_marked_delivered',
  'held_not_held',
  'held_disputed',
  'held_reason_required',
]);
export type AdminCode = z.infer<typeof adminCodeSchema>;

/** The details an answer's text is filled with (names, ids, the service's reason…); never a token or a PIN. */
export const adminParamsSchema = z.record(z.string(), z.string());
export type AdminParams = z.infer<typeof adminParamsSchema>;

/**
 * The worker's receipt of a punch ("Comprovante de registro", Portaria 671 Art. 79), built by
 * src/agent/receipt.ts, where the QR code's text format is written down.
 */
export const punchReceiptSchema = z.object({
  nsr: z.string().regex(/^\d{9}$/),
  /** The local date and time of the capture in the punch's zone, with seconds, and that zone's offset (±HH:MM). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  time: z.string().regex(/^\d{2}:\d{2}:\d{2}$/),
  utcOffset: z.string().regex(/^[+-]\d{2}:\d{2}$/),
  /** Null: a code no roster knew at capture, or the punch is no longer kept (`punchKept`). */
  employeeName: z.string().nullable(),
  /** False: retention deleted the punch and the journal keeps only its mark: no name, the time to the minute (seconds 00). */
  punchKept: z.boolean(),
  /** Masked (***.456.789-**); null: no CPF registered for the worker. */
  cpf: z.string().nullable(),
  terminalId: z.string(),
  /** As configured (CNPJ or CPF formatted); null where the configuration says nothing. */
  employer: z.object({ name: z.string().nullable(), cnpj: z.string().nullable(), cpf: z.string().nullable() }),
  /** The record's SHA-256 (64 hex digits); screens show its start, the QR code all of it. */
  hash: z.string().regex(/^[0-9a-fA-F]{64}$/),
  portalUrl: z.string().nullable(),
  /** Exactly the text the QR code carries (the screen makes the code from it). */
  text: z.string().max(2_000),
});
export type PunchReceiptView = z.infer<typeof punchReceiptSchema>;

/** What the employee sees after a punch attempt (domain/punch.ts `PunchResult`). */
export const punchResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    punchId: z.number().int().nullable(),
    /** Its NSR in the evidence journal (Portaria 671); absent from older agents. */
    nsr: z.number().int().positive().nullable().optional(),
    employeeName: z.string().nullable(),
    employeeExternalId: z.string().nullable(),
    localDate: z.string(),
    localTime: z.string(),
    repeat: z.boolean(),
    message: z.string(),
    note: punchNoteSchema.optional(),
    /** The worker's receipt, when the evidence journal has this punch's mark. */
    receipt: punchReceiptSchema.optional(),
  }),
  z.object({
    ok: z.literal(false),
    reason: punchRefusalSchema,
    message: z.string(),
    employeeExternalId: z.string().nullable().optional(),
    employeeName: z.string().optional(),
    /** With `pin_required` after a badge scan: what `answerPin` answers (the screen may not know the badge's code). */
    pinChallenge: z.string().optional(),
    /** With `enrollment`: what became of the badge (the screen words it, as an admin answer). */
    enrollment: z.object({ ok: z.boolean(), code: adminCodeSchema, params: adminParamsSchema.optional() }).optional(),
  }),
]);
export type PunchResultView = z.infer<typeof punchResultSchema>;

/** One configured HID reader as the status screen shows it. */
export const readerStatusSchema = z.object({
  name: z.string(),
  connected: z.boolean(),
  device: z.string().nullable(),
  connectedSince: epochMs.nullable(),
  lastScanAt: epochMs.nullable(),
  scans: count,
  errors: count,
  disconnects: count,
  lastDisconnectAt: epochMs.nullable(),
  lastError: z.string().nullable(),
});

/** The terminal's state for the status bar and the admin screen (agent/status.ts `AgentStatus`). No secrets. */
export const statusSchema = z.object({
  /** The terminal software's version (package.json). */
  version: z.string(),
  /** This terminal's name in logs, status and metrics (config `terminalId`, else the host name). */
  terminalId: z.string(),
  now: epochMs,
  online: z.boolean().nullable(),
  lastContactAt: epochMs.nullable(),
  queue: z.object({ pending: count, sending: count, in_doubt: count, sent: count, rejected: count, held: count }),
  unsent: count,
  oldestUnsentAgeMs: z.number().nullable(),
  lastError: z.object({ at: epochMs, message: z.string() }).nullable(),
  sendingPaused: z.object({ reason: z.enum(['retry_after', 'auth']), until: epochMs }).nullable(),
  authRefused: z.object({ at: epochMs, reason: z.string() }).nullable(),
  /** The service answered from another address or not as the API (a redirect, an HTML page): sending backs off. */
  setupProblem: z.object({ at: epochMs, reason: z.string(), location: z.string().nullable() }).nullable(),
  /** A configuration that is valid but risky (a request budget above the account's 60 per minute). */
  warnings: z.array(z.string()),
  /**
   * Punches sent with a local minute another punch of the same employee also has (a DST fall-back
   * shows one local minute twice, an hour apart): both kept and sent; payroll should know.
   */
  collisions: z.object({
    count,
    punches: z.array(z.object({ id: z.number().int(), employeeName: z.string(), externalId: z.string().nullable(), localDate: z.string(), localTime: z.string() })),
  }),
  rateWindow: z.object({ used: count, limit: count, windowMs: z.number() }),
  /**
   * Where the request budget comes from: redis (one window for the account's terminals), fallback-local (Redis is
   * configured but out of reach: this terminal's own share), local (no Redis). Absent when read from the database alone.
   */
  rate: z
    .object({
      shared: z.enum(['redis', 'fallback-local', 'local']),
      redisError: z.object({ at: epochMs, message: z.string() }).nullable(),
    })
    .optional(),
  roster: z.object({
    size: count,
    lastSync: z
      .object({
        at: epochMs,
        ok: z.boolean(),
        employees: count.nullable(),
        error: z.string().nullable(),
        lastOkAt: epochMs.nullable(),
        /** Absent in records of older versions. */
        outcome: rosterSyncOutcomeSchema.optional(),
      })
      .nullable(),
    progress: z.object({ pagesDone: count, pagesTotal: count.nullable() }).nullable(),
    health: z.object({
      missingWorkSchedule: count,
      missingEmployer: count,
      /** Employees whose time zone the terminal cannot use (the site's, else the terminal's, is used). */
      badTimeZone: count,
      employees: z.array(
        z.object({
          id: z.string(),
          externalId: z.string().nullable(),
          name: z.string(),
          missing: z.array(z.enum(['work_schedule', 'employer', 'timezone'])),
        }),
      ),
    }),
    enrolledBadges: count,
    /** False: no complete employee list (never synced, or the last sync failed and the list is older than its refresh interval). */
    complete: z.boolean(),
    /** Records of the last sync the terminal could not use (no _id and no external_id…), counted and the first listed. */
    skipped: z.object({ count, examples: z.array(z.object({ position: count, id: z.string().nullable(), reason: skipReasonSchema })) }).nullable(),
    /** A sync that would shrink the roster by more than half, held until a second sync agrees or a manager confirms. */
    heldShrink: z.object({ employees: count, inUse: count, since: epochMs, recheckAt: epochMs.nullable() }).nullable(),
    /**
     * With a site configured: verified (the service's site total is below the account's), suspect (the same
     * total with and without the filter: the service may ignore it), unknown (no totals to compare).
     */
    siteFilter: z.enum(['verified', 'suspect', 'unknown']).nullable(),
    /** Employees whose contract does not allow API records (allow_external_api_record false): their punches are held. */
    notAllowed: z.object({
      count,
      employees: z.array(z.object({ id: z.string(), externalId: z.string().nullable(), name: z.string(), heldPunches: count })),
    }),
    /** When the next roster sync is due (back-off after a failure, refresh after a success); null when none is planned. */
    nextSyncAt: epochMs.nullable(),
    /** How refreshes go: by changes (the service filters on `_updated`), full syncs, or not known before a first full sync. */
    refreshBy: z.enum(['changes', 'full']).nullable(),
  }),
  unresolved: z.object({ count, oldestAt: epochMs.nullable(), lastCheckedAt: epochMs.nullable() }),
  site: z.object({ id: z.string(), name: z.string(), timezone: z.string().nullable() }).nullable(),
  readers: z.array(readerStatusSchema),
  clockSkewMs: z.number().nullable(),
  /** The last background integrity check of the database (null: none yet); `damaged` is an alert. Absent from older agents. */
  integrity: z
    .object({ at: epochMs, ms: z.number(), result: z.enum(['ok', 'damaged', 'unchecked']), problems: z.array(z.string()) })
    .nullable()
    .optional(),
  /**
   * What the terminal keeps: delivered punches (and their journal) `deliveredDays` after delivery, audit lines
   * `auditDays`. `queue.sent` counts the delivered punches still here; `deliveredEver` adds those deleted. Absent from older agents.
   */
  retention: z
    .object({
      deliveredDays: count,
      auditDays: count,
      deliveredEver: count,
      deletedEver: z.object({ punches: count, journal: count, audit: count }),
      lastPass: z
        .object({
          at: epochMs,
          ms: z.number(),
          outcome: z.enum(['done', 'stopped', 'failed']),
          deleted: z.object({ punches: count, journal: count, audit: count }),
          freedBytes: count,
          longestBatchMs: z.number(),
          error: z.string().nullable(),
        })
        .nullable(),
      /** incremental: free pages are given back after each pass; none: a file of an earlier version (`timeclock data compact` converts it). */
      file: z.object({ bytes: count, freeBytes: count, autoVacuum: z.enum(['none', 'full', 'incremental']) }),
    })
    .optional(),
  /**
   * The evidence journal (Portaria 671): its id, the NSR the next punch takes, and the last verification of its
   * chains (`ok` false: `problem` names the first record that does not match; punches are still taken). Null: a
   * database from before the journal; absent from older agents.
   */
  journal: z
    .object({
      journalId: z.string(),
      nextNsr: z.number().int().positive(),
      lastVerify: z
        .object({
          at: epochMs,
          ok: z.boolean(),
          marks: count,
          facts: count,
          problem: z.object({ nsr: z.number().int().optional(), seq: z.number().int().optional(), message: z.string() }).nullable(),
          ms: z.number(),
        })
        .nullable(),
    })
    .nullable()
    .optional(),
  agentRunning: z.boolean(),
  /** Where the settings the admin screen can change come from now. No secret, only where it is kept. */
  settings: z
    .object({
      siteId: z.string().nullable(),
      rateLimit: z.object({ limit: count, windowMs: z.number() }),
      /** config: the config file or environment; keyring: the OS secret store; file: a file only the kiosk user can read. */
      token: z.object({ source: z.enum(['config', 'keyring', 'file']), setAt: epochMs.nullable(), warning: z.string().nullable() }),
    }),
});
export type StatusView = z.infer<typeof statusSchema>;

/** A punch the service refused, as the admin screen lists it (the outbox row, minus internals). */
export const rejectedPunchSchema = z.object({
  id: z.number().int(),
  captured_at: epochMs,
  local_date: z.string(),
  local_time: z.string(),
  time_zone: z.string(),
  employee_external_id: z.string().nullable(),
  employee_name: z.string(),
  credential_kind: z.string(),
  state: punchStateSchema,
  attempts: count,
  last_error: z.string().nullable(),
  reject_reason: z.string().nullable(),
  clock_flag: z.enum(['skewed', 'jumped_back', 'unanchored']).nullable(),
  updated_at: epochMs,
});


/**
 * A held punch as the admin screen lists it: why (not_allowed: the employee's contract; forbidden:
 * the service answered 403 for this employee; unverified: in doubt and the service would not say,
 * a person decides), with the service's words in `last_error`.
 */
export const heldPunchSchema = rejectedPunchSchema.extend({
  held_reason: z.enum(['not_allowed', 'forbidden', 'unverified', 'pin_unverified', 'disputed']).nullable(),
});

const answered = { message: z.string(), code: adminCodeSchema.optional(), params: adminParamsSchema.optional() };

export const adminResultSchema = z.object({ ok: z.boolean(), ...answered });

export const enrollResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), ...answered, employeeId: z.string(), previousOwner: z.string().nullable() }),
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
  z.object({ ok: z.literal(false), error: z.string(), requests: count, finishedAt: epochMs, outcome: rosterSyncOutcomeSchema.optional() }),
]);

/** How the screen behaves on this terminal (from the config): read once when the page loads. */
export const screenSettingsSchema = z.object({
  language: z.enum(['pt-BR', 'en']),
  /** The keyboard-wedge detector's options (src/input/wedge-detector.ts), so the page tells bursts from typing as the headless terminal does. */
  wedge: z.object({
    maxInterKeyMs: z.number().nonnegative(),
    minLength: count,
    maxLength: count,
    terminators: z.array(z.string()),
    holdMs: z.number().nonnegative(),
  }),
  /** Input kinds that need the employee's PIN after the credential. */
  pinRequiredFor: z.array(z.enum(['badge', 'id'])),
  /** False: no admin login on this terminal (the screen hides the way in). */
  adminEnabled: z.boolean(),
  /** How long a result stays on screen before the idle screen returns. */
  resultMs: z.number().int().positive(),
  /** A result with a receipt stays at least this long: a phone takes seconds to read its QR code. */
  receiptMs: z.number().int().positive().optional(),
});
export type ScreenSettings = z.infer<typeof screenSettingsSchema>;

const empty = z.strictObject({});
const done = z.object({ ok: z.literal(true) });
/** How a manager names an employee: external id, registration number, CPF or API _id. */
const employeeQuery = text(200).min(1);
const pin = text(64).min(1);

// ---- AFD export (src/agent/afd-admin.ts) ----------------------------------------------------------

/** About five years: how far back a labour claim reaches (CF art. 7, XXIX); the longest range one AFD export covers. */
export const AFD_MAX_DAYS = 1_830;
/** Where the web bridge serves an exported file, once, by the id the export answered (admin session and token required). */
export const AFD_DOWNLOAD_PATH = '/api/afd-download/';

const calendarDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a day of the calendar');
const dayNumber = (s: string): number => Date.parse(`${s}T00:00:00Z`) / 86_400_000;
const downloadId = z.string().regex(/^[0-9a-f]{32}$/);

/** A mounted removable drive the export can write to (src/agent/removable-drives.ts). */
export const afdDriveSchema = z.object({ path: z.string(), label: z.string(), readOnly: z.boolean(), freeBytes: z.number().nullable() });

/** What the export panel needs first: the site's today, the drives, what the configuration lacks, whether files are signed. */
export const afdTargetsSchema = z.object({
  today: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  drives: z.array(afdDriveSchema),
  /** Configuration keys the AFD header needs and does not have (an export is refused until they are set). */
  missing: z.array(z.string()),
  signed: z.boolean(),
});

export const afdErrorCodeSchema = z.enum([
  'bad_range',
  'employer_missing',
  'config_invalid',
  'signing_failed',
  'exists',
  'journal_invalid',
  'write_failed',
  'drive_unknown',
  'drive_read_only',
  'busy',
]);

export const afdExportResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    message: z.string(),
    /** The Annex's file name; the signature is this name + ".p7s". */
    fileName: z.string(),
    marks: count,
    firstNsr: z.number().int().nullable(),
    lastNsr: z.number().int().nullable(),
    bytes: count,
    signed: z.boolean(),
    where: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('drive'), label: z.string(), folder: z.string() }),
      z.object({ kind: z.literal('download') }),
    ]),
    /** One-time ids for AFD_DOWNLOAD_PATH (download target only). */
    downloads: z.object({ file: downloadId, p7s: downloadId.nullable() }).nullable(),
  }),
  z.object({ ok: z.literal(false), code: afdErrorCodeSchema, message: z.string(), params: adminParamsSchema }),
]);
export type AfdExportAnswer = z.infer<typeof afdExportResultSchema>;

// ---- journal against the service (src/sync/audit-compare.ts, src/agent/audit-runner.ts) ----------------

/** The longest range one comparison covers (its requests go at the lowest priority, after punches and roster pages). */
export const AUDIT_MAX_DAYS = 366;

/** The last comparison of the journal's marks with the service's records, as the admin screen shows it. */
export const auditSummarySchema = z.object({
  at: epochMs,
  startedAt: epochMs,
  from: calendarDay,
  to: calendarDay,
  marks: count,
  found: count,
  missing: count,
  unchecked: count,
  /** Records of the API on those employee-days no mark explains (another terminal or integration may share the account). */
  unexplained: count,
  /** Missing although the journal says they were delivered. */
  missingDelivered: count,
  requests: count,
  firstMissing: z.array(z.number().int().positive()).max(10),
  /** Stopped before every request was made (the terminal stopped). */
  stopped: z.boolean(),
});
export type AuditSummary = z.infer<typeof auditSummarySchema>;

export const auditStateSchema = z.object({
  running: z
    .object({ from: calendarDay, to: calendarDay, startedAt: epochMs, requestsDone: count, requestsTotal: count.nullable() })
    .nullable(),
  last: auditSummarySchema.nullable(),
});
export type AuditState = z.infer<typeof auditStateSchema>;

// ---- calls -----------------------------------------------------------------------------------------

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
    }),
    output: punchResultSchema,
    admin: false,
  },
  /** A keyboard-wedge burst the renderer detected. Null: the same scan already came by another way. */
  badgeScan: {
    input: z.strictObject({ code: text(200), source: z.literal('wedge') }),
    output: punchResultSchema.nullable(),
    admin: false,
  },
  /** The PIN for the badge scan that answered `pin_required` with this `pinChallenge` (a reader's scan the screen only saw as an event). */
  answerPin: { input: z.strictObject({ challenge: text(64).min(1), pin }), output: punchResultSchema, admin: false },
  status: { input: empty, output: statusSchema, admin: false },
  screenSettings: { input: empty, output: screenSettingsSchema, admin: false },
  adminLogin: {
    input: z.strictObject({ pin }),
    output: z.object({ ok: z.boolean(), message: z.string(), expiresAt: epochMs.optional() }),
    admin: false,
  },
  /** Ends the admin session; harmless without one. */
  adminLogout: { input: empty, output: done, admin: false },
  /** Same as adminLogout, from the screen's lock button: must work whatever state the session is in. */
  lock: { input: empty, output: done, admin: false },
  listRejected: { input: empty, output: z.array(rejectedPunchSchema), admin: true },
  retryRejected: { input: z.strictObject({ punchId: z.number().int().positive() }), output: adminResultSchema, admin: true },
  /** Every rejected punch back in the queue at once. */
  retryAllRejected: { input: empty, output: adminResultSchema, admin: true },
  listHeld: { input: empty, output: z.array(heldPunchSchema), admin: true },
  /** A person's decision on a held punch: send it again, or take it as delivered (both written to the audit log). */
  decideHeld: {
    /** resend: send it (also: confirm a punch whose PIN was not verified); delivered: take it as on the service; dispute: keep it here, never sent, with the reason. */
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
  enrollBadge: { input: z.strictObject({ code: text(200), employee: employeeQuery }), output: enrollResultSchema, admin: true },
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
    input: z.strictObject({ limit: z.number().int().min(1).max(10_000), windowMs: z.number().int().min(1_000).max(3_600_000) }),
    output: adminResultSchema,
    admin: true,
  },
  clearPin: { input: z.strictObject({ employee: employeeQuery }), output: adminResultSchema, admin: true },
  /** A punch's receipt looked up by its NSR; null: no mark with that NSR on this terminal. */
  receipt: { input: z.strictObject({ nsr: z.number().int().min(1).max(999_999_999) }), output: punchReceiptSchema.nullable(), admin: true },
  /** The export panel's start: the site's today, the removable drives mounted now, what the configuration lacks. */
  afdTargets: { input: empty, output: afdTargetsSchema, admin: true },
  /** The journal's marks dated from..to (inclusive) as an AFD, on a listed removable drive or for download (web bridge). */
  exportAfd: {
    input: z
      .strictObject({
        from: calendarDay,
        to: calendarDay,
        target: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('drive'), path: text(4096).min(1) }), z.strictObject({ kind: z.literal('download') })]),
      })
      .refine((i) => i.from <= i.to, { message: 'from is after to', path: ['to'] })
      .refine((i) => dayNumber(i.to) - dayNumber(i.from) < AFD_MAX_DAYS, { message: `at most ${AFD_MAX_DAYS} days`, path: ['to'] }),
    output: afdExportResultSchema,
    admin: true,
  },
  /** Compares the journal's marks dated from..to with the service's records; answers when done (paced by the rate limit). */
  auditCompare: {
    input: z
      .strictObject({ from: calendarDay, to: calendarDay })
      .refine((i) => i.from <= i.to, { message: 'from is after to', path: ['to'] })
      .refine((i) => dayNumber(i.to) - dayNumber(i.from) < AUDIT_MAX_DAYS, { message: `at most ${AUDIT_MAX_DAYS} days`, path: ['to'] }),
    output: auditSummarySchema,
    admin: true,
  },
  /** The comparison under way, if any, and the last one's summary. */
  auditCompareState: { input: empty, output: auditStateSchema, admin: true },
} as const satisfies Record<string, CallSpec>;


export type CallName = keyof typeof calls;
export type CallInput<N extends CallName> = z.infer<(typeof calls)[N]['input']>;
export type CallOutput<N extends CallName> = z.infer<(typeof calls)[N]['output']>;
export const callNames = Object.keys(calls) as CallName[];

export function isCallName(name: string): name is CallName {
  return Object.prototype.hasOwnProperty.call(calls, name);
}

// ---- events ----------------------------------------------------------------------------------------

export const events = {
  punch: punchResultSchema,
  status: statusSchema,
} as const satisfies Record<string, z.ZodType>;

/** Reader changes arrive today inside `status` (its `readers`); a dedicated event is declared only. */
export const plannedEvents = {
  reader: readerStatusSchema,
} as const satisfies Record<string, z.ZodType>;

export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

// ---- results and errors ------------------------------------------------------------------------------

export const errorCodes = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'internal'] as const;
export type ErrorCode = (typeof errorCodes)[number];

export const bridgeErrorSchema = z.object({
  ok: z.literal(false),
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    /** For `bad_request` from validation: where the input was wrong (paths and messages, never values). */
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional(),
  }),
});
export type BridgeError = z.infer<typeof bridgeErrorSchema>;
export type CallSuccess<N extends CallName> = { ok: true; value: CallOutput<N> };
export type CallResult<N extends CallName> = CallSuccess<N> | BridgeError;

/** The envelope of a call's answer, for a client that wants to check what it received. */
export function callResultSchema<N extends CallName>(name: N): z.ZodType<CallResult<N>> {
  // The output schema looked up by `name` is that call's, which the compiler cannot follow through the index.
  return z.union([z.object({ ok: z.literal(true), value: calls[name].output }), bridgeErrorSchema]) as z.ZodType<CallResult<N>>;
}

/** The bridge as the renderer sees it: exactly `calls` and `events`, whatever carries them. */
export type Bridge = { [N in CallName]: (input: CallInput<N>) => Promise<CallResult<N>> } & {
  on<E extends EventName>(event: E, fn: (payload: EventPayload<E>) => void): () => void;
};

/**
 * The Content-Security-Policy of the kiosk screen, wherever it is served from (the web bridge's
 * responses, the Electron session, the page's own meta tag).
 */
export const KIOSK_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
