/** The terminal's state as the status bar and the admin screen show it. */
import { z } from 'zod';
import { cameraStatusSchema } from './photo.js';
import { count, epochMs } from './common.js';
import { fleetStatusSchema } from './status-fleet.js';
import { rosterStatusSchema } from './status-roster.js';

export { rosterSyncOutcomeSchema, skipReasonSchema } from './status-roster.js';

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

/** The terminal's state for the status bar and the admin screen (agent/status/status.ts `AgentStatus`). No secrets. */
export const statusSchema = z.object({
  /** The terminal software's version (package.json). */
  version: z.string(),
  /**
   * This terminal's name in logs, status and metrics (config `terminalId`, else a random id kept in its data
   * directory).
   */
  terminalId: z.string(),
  now: epochMs,
  online: z.boolean().nullable(),
  /** When `online` last changed. */
  lastContactAt: epochMs.nullable(),
  /** When the service last answered a request (to within 10 s); absent from older agents. */
  lastAnsweredAt: epochMs.nullable().optional(),
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
    punches: z.array(
      z.object({
        id: z.number().int(),
        employeeName: z.string(),
        externalId: z.string().nullable(),
        localDate: z.string(),
        localTime: z.string(),
      }),
    ),
  }),
  rateWindow: z.object({ used: count, limit: count, windowMs: z.number() }),
  /**
   * Where the request budget comes from: redis (one window for the account's terminals), fallback-local (Redis is
   * configured but out of reach: this terminal's own share), local (no Redis), joining (just started: nothing is
   * sent until Redis answers or the own share is chosen). Absent when read from the database with no agent running.
   * `reason`: why the own share (connecting, unreachable, auth: the password refused, timeout, bad_answer: Redis
   * answered what the scripts never return, error); `since`: when the mode began.
   */
  rate: z
    .object({
      shared: z.enum(['redis', 'fallback-local', 'local', 'joining']),
      redisError: z.object({ at: epochMs, message: z.string() }).nullable(),
      reason: z.enum(['connecting', 'unreachable', 'auth', 'timeout', 'bad_answer', 'error']).nullable().optional(),
      since: epochMs.nullable().optional(),
    })
    .optional(),
  roster: rosterStatusSchema,
  unresolved: z.object({ count, oldestAt: epochMs.nullable(), lastCheckedAt: epochMs.nullable() }),
  site: z.object({ id: z.string(), name: z.string(), timezone: z.string().nullable() }).nullable(),
  readers: z.array(readerStatusSchema),
  clockSkewMs: z.number().nullable(),
  /**
   * The last background integrity check of the database (null: none yet); `damaged` is an alert. Absent from older
   * agents.
   */
  integrity: z
    .object({
      at: epochMs,
      ms: z.number(),
      result: z.enum(['ok', 'damaged', 'unchecked']),
      problems: z.array(z.string()),
    })
    .nullable()
    .optional(),
  /**
   * What the terminal keeps: delivered punches (and their journal) `deliveredDays` after delivery, audit lines
   * `auditDays`. `queue.sent` counts the delivered punches still here; `deliveredEver` adds those deleted. Absent from
   * older agents.
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
      /**
       * incremental: free pages are given back after each pass; none: a file of an earlier version (`timeclock data
       * compact` converts it).
       */
      file: z.object({ bytes: count, freeBytes: count, autoVacuum: z.enum(['none', 'full', 'incremental']) }),
      /** A delivered punch's delivery log is kept this many days after delivery (migration 17); absent: older. */
      deliveryLogDays: count.optional(),
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
          problem: z
            .object({ nsr: z.number().int().optional(), seq: z.number().int().optional(), message: z.string() })
            .nullable(),
          ms: z.number(),
        })
        .nullable(),
      /**
       * The last restore of the data directory recognised at a start: NSRs from..to may have been given before it and
       * are skipped.
       */
      lastRestore: z
        .object({ at: epochMs, from: z.number().int(), to: z.number().int(), where: z.string() })
        .nullable()
        .optional(),
      /** The NSR mirror outside the data directory (null: none, a restore of the whole directory is not recognised). */
      guard: z.object({ mirror: z.string().nullable(), mirrorProblem: z.string().nullable() }).nullable().optional(),
      /**
       * The monthly archives beside the database (issue 26 item 9): archives kept and months they cover, their bytes,
       * the
       * last archiving run, and each archive found missing, changed or unsigned while afd.signingKey is set. Absent
       * from older agents.
       */
      archives: z
        .object({
          archives: count,
          months: count,
          oldestMonth: z.string().nullable(),
          newestMonth: z.string().nullable(),
          bytes: count,
          lastPass: z
            .object({
              at: epochMs,
              outcome: z.enum(['done', 'failed']),
              archives: count,
              marks: count,
              removed: count,
              error: z.string().nullable(),
            })
            .nullable(),
          problems: z.array(z.object({ name: z.string(), kind: z.enum(['missing', 'changed', 'unsigned']) })),
        })
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  agentRunning: z.boolean(),
  /** Where the settings the admin screen can change come from now. No secret, only where it is kept. */
  settings: z.object({
    siteId: z.string().nullable(),
    rateLimit: z.object({ limit: count, windowMs: z.number() }),
    /**
     * config: the config file or environment; keyring: the OS secret store; file: a file only the kiosk user can read.
     */
    token: z.object({
      source: z.enum(['config', 'keyring', 'file']),
      setAt: epochMs.nullable(),
      warning: z.string().nullable(),
    }),
  }),
  /**
   * This terminal as one of a fleet: the host it runs on (shown with `terminalId`), its instance in the account's
   * window in Redis (null without Redis), and other live terminals under its id (a cloned data directory, a copied
   * config): each needs its own id. Absent from older agents.
   */
  fleet: fleetStatusSchema.optional(),
  /**
   * Whether the service answers: online; errors (it answers, with server errors: 5xx); offline (no answer, or its
   * host refuses connections). `online` above is true only when online. Null before any request; absent from older
   * agents.
   */
  service: z
    .object({ state: z.enum(['online', 'errors', 'offline']), since: epochMs, reason: z.string().nullable() })
    .nullable()
    .optional(),
  /**
   * Read routes the service does not have (it answered 404, 405 or 501): each asked again once at `nextAt` (an hour,
   * doubling to a day while it lasts); what needs it goes without. Absent from older agents.
   */
  absentRoutes: z
    .array(
      z.object({
        route: z.enum(['GET /timesheets', 'GET /work-leaves', 'GET /times', 'GET /sites']),
        status: count,
        since: epochMs,
        lastAt: epochMs,
        nextAt: epochMs,
        pauses: count,
      }),
    )
    .optional(),
  /**
   * What the terminal makes of the service's `Date` (issue 23): ok (it anchors the time); off (this machine is
   * NTP-synchronised and the service's clock is `offsetMs` off, beyond `boundMs`: punches keep the local time and are
   * marked); unconfirmed (a `Date` `jumpMs` from the time in force waits for a second answer); no_date (answers carry
   * no usable `Date`: punches are sent at this terminal's clock, marked unanchored). Null: no answer yet; absent from
   * older agents.
   */
  serviceClock: z
    .object({
      at: epochMs,
      state: z.enum(['ok', 'off', 'unconfirmed', 'no_date']),
      offsetMs: z.number().nullable(),
      jumpMs: z.number().nullable(),
      ntp: z.enum(['yes', 'no', 'unknown']),
      boundMs: z.number(),
      header: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  /** When a punch was last delivered (among those still in the database); null: none. Absent from older agents. */
  lastDeliveryAt: epochMs.nullable().optional(),
  /**
   * Free bytes for the data directory (null: unknown), whether that is low (under 500 MB), and the punches a running
   * agent refused since its start because they could not be saved (a full disk): how many, the last one's time, why.
   */
  storage: z
    .object({
      freeBytes: z.number().nonnegative().nullable(),
      low: z.boolean(),
      refused: z.object({ count, lastAt: epochMs, why: z.string() }).nullable(),
    })
    .optional(),
  /** Issue 31: the screen's camera with photo.mode on-punch; null: photos off. Absent from older agents. */
  camera: cameraStatusSchema.nullable().optional(),
});
export type StatusView = z.infer<typeof statusSchema>;
