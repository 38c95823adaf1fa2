/**
 * The shape of the terminal's configuration, with every default and bound: what a file and the
 * environment must come to. Loading (file, environment, error messages) is config.ts's.
 */
import { z } from 'zod';
import { apiDialectSchema, API_VERSION_SEGMENT, MAX_PAGE_SIZE, objectIdPattern } from './api/shapes.js';
import { parseProxyUrl } from './api/proxy.js';
import { isValidTimeZone } from './domain/time/local-time.js';
import { readerConfigSchema } from './input/reader-config.js';
import { DEFAULT_WEDGE_OPTIONS, wedgeOptionsSchema } from './input/wedge-detector.js';
import { metricsSchema, rateLimitSchema, terminalIdSchema } from './config-fleet.js';
import { presenceSchema } from './config-presence.js';
import { retentionSchema } from './store/upkeep/retention.js';
import { afdSchema, employerSchema, journalSchema, receiptSchema } from './config-evidence.js';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const lookupKey = z.enum(['badge', 'external_id', 'registration_number', 'cpf']);

/** https, or http to this machine (the demo, a local proxy, tests). */
export function isHttpsOrLoopback(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return true; // the url check reports it
  }
  if (u.protocol === 'https:') return true;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export const configSchema = z
  .object({
    api: z
      .object({
        baseUrl: z
          .string()
          .url()
          .refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL')
          .refine((u) => u.replace(/\/+$/, '').endsWith(API_VERSION_SEGMENT), `must end with ${API_VERSION_SEGMENT}`),
        token: z
          .string({
            error: (iss) =>
              iss.input === undefined
                ? 'is required when api.baseUrl is set (TIMECLOCK_API_TOKEN)'
                : 'must be a string',
          })
          .min(1, 'is required when api.baseUrl is set (TIMECLOCK_API_TOKEN)'),
        timeoutMs: int(100, 120_000).default(10_000),
        dialect: apiDialectSchema.prefault({}),
        /**
         * Every this often a TCP connect to the service's host (no request, nothing the budget counts) tells it is gone
         * or back; 0: off.
         */
        livenessEveryMs: int(0, 60_000).default(5_000),
        /** Allows http:// to a host other than this machine: the token then travels in clear. */
        allowInsecure: z.boolean().default(false),
        /**
         * An HTTP(S) proxy for the API (README "Networks"): wins over HTTPS_PROXY / HTTP_PROXY;
         * NO_PROXY still applies. May carry user:password, kept like the token (never printed).
         */
        proxy: z
          .string()
          .superRefine((v, ctx) => {
            const parsed = parseProxyUrl(v);
            if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
          })
          .optional(),
        /**
         * A PEM file of one or more CA certificates trusted for the API besides Node's own (a private CA, a
         * TLS-inspecting proxy).
         */
        caFile: z.string().min(1).optional(),
      })
      .strict()
      .superRefine((api, ctx) => {
        if (!api.allowInsecure && !isHttpsOrLoopback(api.baseUrl)) {
          ctx.addIssue({
            code: 'custom',
            path: ['baseUrl'],
            message:
              'must be https:// (the token would travel in clear); http:// is accepted for a loopback address, or with api.allowInsecure: true',
          });
        }
      })
      .optional(),
    siteId: z.string().regex(objectIdPattern, 'must be a 24-character hexadecimal id').optional(),
    dataDir: z.string().min(1),
    timezone: z.string().refine(isValidTimeZone, 'is not a known IANA time zone').optional(),
    rateLimit: rateLimitSchema,
    /**
     * This terminal's name in logs, status and metrics (default: a random id kept in the data directory, see
     * terminalIdOf).
     */
    terminalId: terminalIdSchema.optional(),
    /** Prometheus metrics and /healthz (off unless `listen` is set). */
    metrics: metricsSchema,
    roster: z
      .object({
        pageSize: int(1, MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
        refreshMs: int(60_000, 7 * 24 * 3_600_000).default(6 * 3_600_000),
        /** After a failed or incomplete sync: the first retry after about this long, doubling up to retryMaxMs. */
        retryBaseMs: int(100, 3_600_000).default(5_000),
        retryMaxMs: int(100, 24 * 3_600_000).default(10 * 60_000),
        /** A sync that would shrink the roster by more than half is applied when another, this much later, agrees. */
        shrinkRecheckMs: int(100, 24 * 3_600_000).default(5 * 60_000),
        /** Where the service filters on `_updated`, refreshes fetch only changes; a full sync still this often. */
        fullEveryMs: int(60_000, 30 * 24 * 3_600_000).default(24 * 3_600_000),
      })
      .strict()
      .prefault({}),
    retry: z
      .object({
        baseMs: int(10, 600_000).default(2_000),
        maxMs: int(10, 3_600_000).default(60_000),
        inDoubtGraceMs: int(0, 3_600_000).optional(),
        authRetryMs: int(1_000, 24 * 3_600_000).default(300_000),
        /** A punch the service refused with 403 for its employee (the token fine) is tried again this much later. */
        heldRetryMs: int(100, 7 * 24 * 3_600_000).default(30 * 60_000),
        /** Reconciliation answers that prove nothing (404, 400…) before an in-doubt punch is handed to a person. */
        maxChecks: int(1, 1_000).default(6),
      })
      .strict()
      .prefault({}),
    identity: z
      .object({
        /** Keys tried in this order; the first that finds an employee wins. */
        order: z.array(lookupKey).min(1).default(['badge', 'external_id', 'registration_number', 'cpf']),
        /** Which keys each input kind may use: a badge reader should not match a typed CPF, say. */
        allowed: z
          .object({
            badge: z.array(lookupKey).default(['badge', 'external_id']),
            id: z.array(lookupKey).default(['external_id', 'registration_number', 'cpf']),
          })
          .strict()
          .prefault({}),
        /** reject: refuse unknown credentials; accept-and-resolve: keep them, match after the next sync. */
        unknown: z.enum(['reject', 'accept-and-resolve']).default('reject'),
        /** A repeat of the same employee within this many ms is not a new punch (0: same minute only). */
        repeatWindowMs: int(0, 12 * 3_600_000).default(0),
      })
      .strict()
      .prefault({}),
    pin: z
      .object({
        /** Input kinds that must be followed by the employee's PIN ([] = PINs off). */
        requiredFor: z.array(z.enum(['badge', 'id'])).default([]),
        maxFailures: int(1, 20).default(5),
        lockoutMs: int(1_000, 24 * 3_600_000).default(15 * 60_000),
        /**
         * hold (default): while an employee is locked out, their punches are still taken, flagged "PIN
         * not verified" and held for the manager to confirm or dispute (a Brazilian clock may not
         * refuse a punch); refuse: answered "locked until HH:MM", nothing kept.
         */
        onLockout: z.enum(['hold', 'refuse']).default('hold'),
        /** The PIN step names whose PIN it asks for (their first name). */
        showName: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    /** USB HID badge readers (see README "Badge readers"); keyboard-wedge readers need none. */
    readers: z.array(readerConfigSchema).max(8).default([]),
    /** How a keyboard-wedge reader's burst is told from a person typing (headless terminal, kiosk screen). */
    wedge: wedgeOptionsSchema.default(DEFAULT_WEDGE_OPTIONS),
    upload: z
      .object({ maxInFlight: int(1, 16).default(4) })
      .strict()
      .prefault({}),
    clockSkewThresholdMs: int(1_000, 24 * 3_600_000).default(30_000),
    /** The kiosk screen: its language and how long a punch's result stays up. */
    screen: z
      .object({
        /** The site's language; the screen's button cycles pt-BR, es, en and comes back to this one when idle. */
        language: z.enum(['pt-BR', 'es', 'en']).default('pt-BR'),
        /** light: for sites in daylight; dark (default): for indoor kiosks. */
        theme: z.enum(['dark', 'light']).default('dark'),
        /** Say the result aloud in the screen's language (the first name and "entrada registrada"); off by default. */
        speech: z.boolean().default(false),
        resultMs: int(1_000, 60_000).default(4_000),
        /** A result with a receipt (QR code) stays at least this long; the next scan replaces it at once. */
        receiptMs: int(1_000, 120_000).default(12_000),
      })
      .strict()
      .prefault({}),
    /**
     * The employee's day on the result screen (agent/receipts/self-service.ts): fetched at the budget's lowest
     * priority, never on the punch path.
     */
    selfService: z
      .object({
        /**
         * Fetch the hours bank, the day's punches elsewhere and leaves from the service (entry/exit and this terminal's
         * punches show anyway).
         */
        enabled: z.boolean().default(true),
        /** A fetched day is fetched again after this long (the hours bank moves slowly). */
        refreshMs: int(60_000, 24 * 3_600_000).default(15 * 60_000),
        leavesRefreshMs: int(60_000, 7 * 24 * 3_600_000).default(6 * 3_600_000),
        /** Every this often, those who punched in and not out are fetched (0: only after punches). */
        prefetchEveryMs: int(0, 3_600_000).default(60_000),
        /**
         * These reads go only while the request window is below this share of the limit: a shift change finds it nearly
         * empty.
         */
        maxShare: z.number().min(0.01).max(0.5).default(0.1),
        /** A punch this long after an entry starts again with "entry" (a forgotten exit). */
        maxShiftHours: int(4, 24).default(16),
      })
      .strict()
      .prefault({}),
    demo: z
      .object({ port: int(0, 65_535).default(0) })
      .strict()
      .prefault({}),
    logLevel: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    /** How long delivered punches and audit lines are kept (store/upkeep/retention.ts). */
    retention: retentionSchema,
    /** The employer, the receipt, AFD signing and the evidence journal's checks (config-evidence.ts). */
    employer: employerSchema,
    receipt: receiptSchema,
    afd: afdSchema,
    journal: journalSchema,
    /**
     * The service's clock (README "Networks"): how far its `Date` may be from the time in force, and this machine's NTP
     * state.
     */
    clock: z
      .object({
        /**
         * A `Date` further than this from an NTP-synchronised local clock is not used (the local time is kept, the
         * punches marked, the operator told); from an unsynchronised one, it needs a second answer that agrees.
         */
        serviceSkewBoundMs: int(10_000, 7 * 24 * 3_600_000).default(5 * 60_000),
        /**
         * auto: ask the system (timedatectl, chronyc, ntpstat; w32tm on Windows); yes / no: say it, for a box the
         * terminal cannot ask.
         */
        ntpSynchronized: z.enum(['auto', 'yes', 'no']).default('auto'),
      })
      .strict()
      .prefault({}),
    /** Issue 31: a photo per punch (README "Photo per punch"); off unless the employer turns it on. */
    photo: z
      .object({
        /** on-punch: the screen keeps the camera open and takes a frame at each scan or keypad confirm. */
        mode: z.enum(['off', 'on-punch']).default('off'),
        /** Photos are removed this many days after their punch (a journal fact says so). */
        keepDays: int(1, 3_650).default(30),
        /** The JPEG's size in pixels (the frame is scaled to fit) and its largest size in bytes. */
        width: int(80, 640).default(320),
        height: int(60, 480).default(240),
        maxBytes: int(4_000, 45_000).default(30_000),
      })
      .strict()
      .prefault({}),
    /** Who is on site and the roll call (config-presence.ts). */
    presence: presenceSchema,
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
