/**
 * The answers of the answer variants (variants.ts): what a server whose choices differ from ours
 * on the points the spec leaves open ("other status codes, error codes and the error body shape:
 * not shown", the `GET /times` parameters and interval), or a proxy in front of it, may send.
 * api-routes.ts and mock-server.ts decide when; this file says what.
 */
import { errorReply, type Reply } from './reply.js';
import type { MockEmployee } from './seed.js';
import type { ServerVariants } from './variants.js';

export const FORBIDDEN_PUNCH_MESSAGE = 'this employee may not record by API';
export const DUPLICATE_RECORD_MESSAGE = 'record already exists';
export const OUTSIDE_SCHEDULE_MESSAGE = "time outside the employee's schedule";
/** Offset used by `timesTimeFormat: 'offset'` for an employee without a (valid) time zone. */
export const DEFAULT_TIMES_OFFSET = '-03:00';
const DEFAULT_TIMES_OFFSET_MINUTES = -180;

type Redirect = NonNullable<ServerVariants['redirect']>;
type NonApiKind = NonNullable<ServerVariants['nonApi']>;
type TimesFormat = NonNullable<ServerVariants['timesTimeFormat']>;

const REDIRECT_REASONS: Record<Redirect['status'], string> = {
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
};

const html = (text: string): { contentType: string; text: string } => ({
  contentType: 'text/html; charset=utf-8',
  text,
});

/** The redirect, with the tiny HTML page a web server sends along (the location is not repeated in it). */
export function redirectReply(r: Redirect): Reply {
  const title = `${r.status} ${REDIRECT_REASONS[r.status]}`;
  return {
    status: r.status,
    body: null,
    headers: { location: r.location },
    raw: html(
      `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
    ),
  };
}

/** What a captive portal or a misconfigured proxy answers to any request. */
export function nonApiReply(kind: NonApiKind): Reply {
  switch (kind) {
    case 'html':
      return {
        status: 200,
        body: null,
        raw: html(
          '<!DOCTYPE html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>Wi-Fi Visitantes</title></head>\n' +
            '<body><h1>Bem-vindo!</h1><p>Aceite os termos de uso para navegar.</p>' +
            '<form method="post" action="/login"><button type="submit">Aceitar e conectar</button></form></body></html>\n',
        ),
      };
    case 'html-404':
      return {
        status: 404,
        body: null,
        raw: html(
          '<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        ),
      };
    case 'text':
      return { status: 200, body: null, raw: { contentType: 'text/plain; charset=utf-8', text: 'OK' } };
  }
}

/** `timesAnswer`: a gateway without the route (404), or a server that wants other parameter names (400). */
export function timesAnswerReply(status: 404 | 400, params: URLSearchParams): Reply {
  if (status === 404) return errorReply(404, 'The requested URL was not found on the server.');
  const issues: Record<string, string> = {};
  for (const key of params.keys()) issues[key] = 'unknown field';
  return errorReply(400, 'invalid query: unknown parameters', issues);
}

/** Whether `forbiddenPunches` names this employee (by `_id` or `external_id`). */
export function isForbiddenPunch(list: readonly string[] | undefined, emp: MockEmployee): boolean {
  if (!list || list.length === 0) return false;
  return list.includes(emp._id) || (emp.external_id !== undefined && list.includes(emp.external_id));
}

/** `errorBodyOn2xx`: a success status carrying an Eve error body. */
export function errorOn2xxReply(): Reply {
  return { status: 200, body: errorReply(422, OUTSIDE_SCHEDULE_MESSAGE).body };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `zone` at `instantMs`; throws RangeError for an unknown zone. */
function offsetMinutesAt(instantMs: number, zone: string): number {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, f);
  }
  const name = f.formatToParts(new Date(instantMs)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  // 'GMT', 'GMT-03:00', 'GMT+05:30'; a local-mean-time offset may carry seconds, which are dropped.
  const m = /^GMT(?:([+-])(\d{1,2}):?(\d{2})?(?::\d{2})?)?$/.exec(name);
  if (!m || m[1] === undefined) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? '0');
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * UTC offset (minutes east) of the wall time `local` (`YYYY-MM-DDTHH:MM`) in `zone`. A wall time
 * that occurs twice (end of daylight saving) gets the offset of one of them (as a service that
 * stores instants must: it is sent no offset); one that never occurs (a gap) the offset in force
 * before the gap. That of `DEFAULT_TIMES_OFFSET` when the zone is absent or unknown.
 */
export function wallTimeOffsetMinutes(local: string, zone: string | undefined): number {
  const fallback = DEFAULT_TIMES_OFFSET_MINUTES;
  if (zone === undefined || zone === '') return fallback;
  const [y, mo, d, h, mi] = local.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  try {
    const first = offsetMinutesAt(asUtc, zone);
    const second = offsetMinutesAt(asUtc - first * 60_000, zone);
    return first === second || offsetMinutesAt(asUtc - second * 60_000, zone) !== second ? first : second;
  } catch {
    return fallback;
  }
}

/** `wallTimeOffsetMinutes` as `±hh:mm`. */
export function wallTimeOffset(local: string, zone: string | undefined): string {
  const minutes = wallTimeOffsetMinutes(local, zone);
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The `time` of the `timesGarbageRecord` variant's record: no form a client reads. */
export const GARBAGE_TIME = 'ontem, 25h61';

/** The instant a stored wall time names in the employee's zone, as ms. */
function instantOf(stored: string, zone: string | undefined): number {
  const [y, mo, d, h, mi] = stored.split(/[-T:]/).map(Number) as [number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi) - wallTimeOffsetMinutes(stored, zone) * 60_000;
}

/** A stored `time` (`YYYY-MM-DDTHH:MM`) as GET /times serves it under `timesTimeFormat`. */
export function timesTime(stored: string, format: TimesFormat | undefined, zone: string | undefined): string {
  switch (format ?? 'minutes') {
    case 'minutes':
      return stored;
    case 'seconds':
      return `${stored}:00`;
    case 'offset':
      return `${stored}:00${wallTimeOffset(stored, zone)}`;
    case 'utc-z':
      return `${new Date(instantOf(stored, zone)).toISOString().slice(0, 19)}Z`;
    case 'utc-offset':
      return `${new Date(instantOf(stored, zone)).toISOString().slice(0, 19)}+00:00`;
    case 'rfc1123':
      return new Date(instantOf(stored, zone)).toUTCString();
  }
}

/** Whether the `absentRoutes` variant takes this request's route away (GET only: POST /times is the punch route). */
export function isAbsentRoute(list: ServerVariants['absentRoutes'], method: string, apiPath: string): boolean {
  if (method !== 'GET' || !list) return false;
  return list.some((route) => apiPath === route || apiPath.startsWith(`${route}/`));
}

/** What a server without the route answers (Flask/Eve's own texts), or a proxy's nginx page. */
export function absentRouteReply(status: ServerVariants['absentRouteStatus']): Reply {
  switch (status ?? 404) {
    case 'html-404':
      return nonApiReply('html-404');
    case 405:
      return errorReply(405, 'The method is not allowed for the requested URL.', undefined, { allow: 'POST, OPTIONS' });
    case 501:
      return errorReply(501, 'The server does not support the action requested by the browser.');
    default:
      return errorReply(
        404,
        'The requested URL was not found on the server. If you entered the URL manually please check your spelling and try again.',
      );
  }
}
