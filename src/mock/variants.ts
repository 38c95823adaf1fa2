/**
 * Server variants: answers the API spec allows but our own choices (src/api/shapes.ts) do not make.
 * The spec leaves them open ("absent field = value not yet defined", "max_results maximum: not
 * shown", "fields of the employee read response / of the site record: not shown", "other status
 * codes, error codes and the error body shape: not shown", the `GET /times` and `GET /timesheets`
 * parameters, the members of a timesheet or a leave that may be absent), so a real
 * deployment (or a proxy in front of it) may serve any of them and the client must cope. Off unless set.
 */
import { z } from 'zod';

/** The read routes the `absentRoutes` variant can take away. */
export const ABSENT_ROUTES = ['/times', '/timesheets', '/work-leaves', '/sites'] as const;

export const serverVariantsSchema = z.strictObject({
  /** List endpoints serve at most this many items per page, whatever `max_results` asks. */
  pageCap: z.number().int().min(1).optional(),
  /** Paginated envelopes without `_links`. */
  omitLinks: z.boolean().optional(),
  /** Paginated envelopes without `_meta`. */
  omitMeta: z.boolean().optional(),
  /** `_meta.total` on pages >= 2 of GET /employees is the real total plus this (never below 0). */
  totalDrift: z.number().int().optional(),
  /** The first `times` (default 1) answers for this page of GET /employees stop half-way through the body. */
  cutBody: z
    .strictObject({
      page: z.number().int().min(1),
      times: z.number().int().min(1).optional(),
    })
    .optional(),
  /** Site reads omit `name`. */
  siteWithoutName: z.boolean().optional(),
  /** GET /employees ignores the site filter parameter (serves every active employee). */
  ignoreSiteFilter: z.boolean().optional(),
  /**
   * GET /employees honours the dialect's `updatedFilterParam` (Eve's `where={"_updated":{"$gte":"…"}}`):
   * only employees changed since then are listed. Off, the parameter is unknown and ignored.
   */
  updatedFilter: z.boolean().optional(),
  /** Employee reads rewrite records by insertion index: see `oddRecordKind`. */
  oddRecords: z.boolean().optional(),

  // Answers of the time-record routes and of whatever stands in front of the API (answer-variants.ts).
  /**
   * POST /times for these employees (external_id or _id) answers 403 (Eve body) and stores nothing; the roster is
   * untouched.
   */
  forbiddenPunches: z.array(z.string().min(1)).optional(),
  /** Every authenticated, admitted /v2.1 request is answered with this redirect (and counted); nothing is processed. */
  redirect: z
    .strictObject({
      status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]),
      /** Sent as is in `Location`: visible ASCII, no spaces (a header value must not carry CR/LF). */
      location: z.string().regex(/^[\x21-\x7e]+$/, 'must be visible ASCII without spaces'),
    })
    .optional(),
  /**
   * Every non-control request, before authentication, gets a page that is not the API's (a captive portal, a wrong
   * proxy).
   */
  nonApi: z.enum(['html', 'html-404', 'text']).optional(),
  /** POST /times for an employee and `time` already held answers 409 instead of storing a second record. */
  conflictOnDuplicate: z.boolean().optional(),
  /** POST /times that would store a record answers 200 with an Eve error body (code 422) and stores nothing. */
  errorBodyOn2xx: z.boolean().optional(),
  /**
   * Form of `time` in GET /times records: as stored (minutes, default), with seconds, with seconds and
   * the employee's offset, or the same instant in UTC (`…T23:27:00Z`, `…T23:27:00+00:00`, RFC 1123
   * "Sat, 28 Nov 2026 23:27:00 GMT" as Eve writes dates).
   */
  timesTimeFormat: z.enum(['minutes', 'seconds', 'offset', 'utc-z', 'utc-offset', 'rfc1123']).optional(),
  /** GET /times leaves out the records of its end date. */
  timesEndExclusive: z.boolean().optional(),
  /** Every GET /times answers this status with an Eve error body. */
  timesAnswer: z.union([z.literal(404), z.literal(400)]).optional(),
  /** 429 answers carry `Retry-After` as an HTTP date (whatever the start option `retryAfterFormat` says). */
  retryAfterDate: z.boolean().optional(),

  // The employee's own screen (self-service-routes.ts).
  /**
   * GET /timesheets takes other parameter names than the mock's dialect and answers 400 (Eve body,
   * `_issues` naming each missing and unknown parameter) to any others: 'employee-from-to' is
   * `employee` (an `_id` or an external id), `from`, `to`; 'data-inicio-fim' is
   * `employee_external_id` | `employee_id`, `data_inicio`, `data_fim`.
   */
  timesheetQuery: z.enum(['employee-from-to', 'data-inicio-fim']).optional(),
  /** GET /timesheets leaves out `hours_bank_summary` (not yet defined). */
  timesheetWithoutHoursBank: z.boolean().optional(),
  /**
   * GET /timesheets serves malformed days: an extra key that is not a date, and the day at index
   * i (0-based from the period's start) by i mod 4: as is, `null`, `horarios` a string, `horarios`
   * with an extra '25:99'.
   */
  timesheetMalformedDays: z.boolean().optional(),
  /** GET /work-leaves items leave out `approval_info` (not yet defined). */
  leavesWithoutApproval: z.boolean().optional(),
  /** Every GET /times list ends with one API record whose `time` no client can read (`GARBAGE_TIME`). */
  timesGarbageRecord: z.boolean().optional(),

  // What stands between the service and the terminal on the wire (wire-variants.ts).
  /**
   * Every answer but the control routes' is compressed so, whatever the request's `Accept-Encoding` (nginx
   * `gzip_proxied any`).
   */
  compress: z.enum(['gzip', 'deflate', 'br']).optional(),
  /**
   * POST /times stores the record, then answers 201 with this body instead of the API's JSON:
   * plain text, an HTML page, Eve's XML, JSON cut short (complete transfer), a body that claims
   * gzip and is not, or the JSON cut off mid-transfer (half of it, then the socket is destroyed).
   */
  postTimesBody: z.enum(['text', 'html', 'xml', 'truncated-json', 'bad-gzip', 'cut']).optional(),
  /**
   * Headers at once, then the body at this rate; `only` selects requests as a fault plan's does (default: every API
   * answer).
   */
  trickle: z
    .strictObject({
      bytesPerSecond: z.number().int().min(1).max(1_000_000),
      only: z
        .strictObject({ method: z.string().min(1).optional(), pathPrefix: z.string().startsWith('/').optional() })
        .optional(),
    })
    .optional(),

  // Strings of any length (issue 23).
  /**
   * What people read is this many characters long: employees' `full_name`, the site's `name`, work
   * leaves' `type` and the message of a 403 to `POST /times`, each padded with itself (padText) in
   * every answer. The stored data is untouched.
   */
  longStrings: z.number().int().min(1).max(1_000_000).optional(),

  // Read routes a deployment (or the gateway in front of it) does not have (answer-variants.ts).
  /**
   * GET requests to these routes, and to those under them ('/sites' covers '/sites/{id}'), answer
   * as a missing route does (`absentRouteStatus`), counted by the rate window; POST /times still works.
   */
  absentRoutes: z.array(z.enum(ABSENT_ROUTES)).optional(),
  /**
   * How an absent route answers: 404 with Eve's body (default), 'html-404' (a proxy's nginx page), 405 (Eve's body and
   * `Allow`) or 501.
   */
  absentRouteStatus: z.union([z.literal(404), z.literal(405), z.literal(501), z.literal('html-404')]).optional(),

  // The service's clock as its answers tell it (transport.ts), or a gateway's in front of it.
  /**
   * The `Date` header of every answer: missing (none at all), garbage (one no parser reads), or
   * offset (the mock's clock plus `offsetMs`, which may be negative).
   */
  date: z
    .strictObject({
      mode: z.enum(['missing', 'garbage', 'offset']),
      offsetMs: z.number().int().optional(),
    })
    .optional(),
});

export type ServerVariants = z.infer<typeof serverVariantsSchema>;

export type OddRecordKind =
  | 'none'
  | 'cpf_null'
  | 'contract_data_null'
  | 'no_full_name'
  | 'city_null'
  | 'unknown_members'
  | 'bad_timezone'
  | 'no_ids';

const ODD_KINDS: readonly OddRecordKind[] = [
  'none',
  'cpf_null',
  'contract_data_null',
  'no_full_name',
  'city_null',
  'unknown_members',
  'bad_timezone',
  'no_ids',
];

/** What the `oddRecords` variant does to the employee at 0-based insertion index `index` (cycle of 8). */
export function oddRecordKind(index: number): OddRecordKind {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError(`oddRecordKind: index must be a non-negative integer, got ${index}`);
  return ODD_KINDS[index % ODD_KINDS.length] as OddRecordKind;
}

/** Rewrites a fresh wire copy of an employee in place (its `contract_data` is copied before a change). */
export function applyOddRecord(wire: Record<string, unknown>, kind: OddRecordKind): Record<string, unknown> {
  switch (kind) {
    case 'none':
      break;
    case 'cpf_null':
      wire.cpf = null;
      break;
    case 'contract_data_null':
      wire.contract_data = null;
      break;
    case 'no_full_name':
      delete wire.full_name;
      break;
    case 'city_null':
      wire.city = null;
      wire.state = null;
      break;
    case 'unknown_members': {
      wire.badge_color = { hex: '#fff' };
      const cd = wire.contract_data;
      wire.contract_data = { ...(typeof cd === 'object' && cd !== null ? cd : {}), unknown_flag: 'x' };
      break;
    }
    case 'bad_timezone':
      wire.timezone = 'Mars/Olympus_Mons';
      break;
    case 'no_ids':
      delete wire._id;
      delete wire.external_id;
      break;
  }
  return wire;
}

/**
 * `text` repeated (space between) to exactly `length` characters, never ending in a space; as it is
 * when already that long, or when `length` is undefined (the `longStrings` variant is off).
 */
export function padText(text: string, length: number | undefined): string {
  if (length === undefined || text.length >= length || text.length === 0) return text;
  const out = `${text} `.repeat(Math.ceil(length / (text.length + 1))).slice(0, length);
  return out.endsWith(' ') ? `${out.slice(0, -1)}.` : out;
}
