/**
 * The AFD export (src/agent/exports/afd-admin.ts) and the comparison of the journal with the service
 * (src/agent/delivery/audit-runner.ts).
 */
import { z } from 'zod';
import { adminParamsSchema } from './admin-codes.js';
import { calendarDay, count, epochMs } from './common.js';

// ---- AFD export (src/agent/exports/afd-admin.ts) ----------------------------------------------------------

/** About five years: how far back a labour claim reaches (CF art. 7, XXIX); the longest range one AFD export covers. */
export const AFD_MAX_DAYS = 1_830;
/**
 * Where the web bridge serves an exported file, once, by the id the export answered (admin session and token required).
 */
export const AFD_DOWNLOAD_PATH = '/api/afd-download/';

const downloadId = z.string().regex(/^[0-9a-f]{32}$/);

/** A mounted removable drive the export can write to (src/agent/host/removable-drives.ts). */
export const afdDriveSchema = z.object({
  path: z.string(),
  label: z.string(),
  readOnly: z.boolean(),
  freeBytes: z.number().nullable(),
});

/**
 * What the export panel needs first: the site's today, the drives, what the configuration lacks, whether files are
 * signed.
 */
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
  'target_unsafe',
]);

export const afdExportResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
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
    /** The terminal that made it (each numbers its own NSRs; also in the file name). */
    terminal: z.string(),
  }),
  z.object({ ok: z.literal(false), code: afdErrorCodeSchema, params: adminParamsSchema }),
]);
export type AfdExportAnswer = z.infer<typeof afdExportResultSchema>;

// ---- journal against the service (src/sync/reads/audit-compare.ts, src/agent/delivery/audit-runner.ts) -----------

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
  /**
   * Records of the API on those employee-days no mark explains (another terminal or integration may share the account).
   */
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
    .object({
      from: calendarDay,
      to: calendarDay,
      startedAt: epochMs,
      requestsDone: count,
      requestsTotal: count.nullable(),
    })
    .nullable(),
  last: auditSummarySchema.nullable(),
});
export type AuditState = z.infer<typeof auditStateSchema>;

/** After an export: a listed drive unmounted so it can be pulled (src/agent/host/unmount-drive.ts). */
export const unmountDriveResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), label: z.string() }),
  z.object({
    ok: z.literal(false),
    code: z.enum(['drive_unknown', 'unmount_failed']),
    params: z.record(z.string(), z.string()),
  }),
]);
export type UnmountDriveResult = z.infer<typeof unmountDriveResultSchema>;
