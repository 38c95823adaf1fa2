/**
 * What an HTTP answer says, in the terms the terminal decides on: about the punch, the token or
 * the set-up. One place, so every caller (uploader, reconciliation, roster, settings) reads an
 * answer the same way. The specification shows neither success codes nor error bodies, so the
 * rules go by what any server says: the status class, whether the body is the API's (JSON) at all,
 * and what a JSON body says of itself.
 */
import { describeBody, printable } from './answer-text.js';
import { errorBodySchema } from './shapes.js';

/**
 * What one API call came to. The split between `not_sent` and `unknown` is what makes
 * exactly-once possible: only the second can have created a record, so only the second needs a
 * look on the server before a resend.
 */
export type ApiOutcome<T> =
  | { kind: 'ok'; status: number; value: T; serverDate: number | null }
  /** 429: not a failure; wait for `Retry-After` (measured against `serverDate`, the same answer's clock). */
  | { kind: 'rate_limited'; retryAfterHeader: string | null; serverDate: number | null }
  /** The request never reached the server (connection refused, DNS, connect timeout). */
  | { kind: 'not_sent'; error: string }
  /**
   * 5xx that means "not processed" (500, 503), or a read whose answer could not be read or parsed
   * (cut mid-body, not the expected shape): safe to ask again later.
   */
  | { kind: 'server_error'; status: number; error: string; serverDate: number | null }
  /**
   * The request may have been processed: timeout, reset or the request deadline after sending,
   * 408, 409, 502/504 on a create, or a 2xx to a create whose body cannot be read or parsed
   * (`status`: the answer's, when there was one).
   */
  | { kind: 'unknown'; error: string; status?: number }
  /** The service refuses this request as it is (400, 404, 422… with the API's body, or a 2xx whose body says ERR). */
  | { kind: 'refused'; status: number; reason: string; serverDate: number | null }
  /** 401: the token is wrong or revoked. */
  | { kind: 'auth'; status: number; reason: string; serverDate: number | null }
  /** 403: this request (on a punch: this employee) is not allowed; the token may be fine. */
  | { kind: 'forbidden'; status: number; reason: string; serverDate: number | null }
  /**
   * Not an answer of the API: a redirect (never followed with the token), an HTML page or another
   * non-JSON body (on a create: only with a non-2xx status). A set-up problem (base URL, proxy,
   * captive portal), never a verdict on a punch.
   */
  | { kind: 'setup'; status: number; reason: string; location: string | null; serverDate: number | null };

/** An HTTP answer as it arrived. */
export type Answer = {
  status: number;
  contentType: string | null;
  location: string | null;
  retryAfter: string | null;
  serverDate: number | null;
  /** The body, decoded (empty when it could not be read). */
  text: string;
  /** `Content-Encoding` as sent (the body in `text` is already decoded). */
  contentEncoding?: string | null;
  /** The body's length on the wire. */
  bytes?: number;
  /** Why the body could not be read (cut off, undecodable, past the deadline); absent when it was. */
  unreadable?: string | null;
};

/** The start of a body or of a string from the service, printable and bounded: never raw bytes. */
function snippet(text: string, max = 200): string {
  return printable(text, max);
}

/** `<status> <message> (<issues>)` from the API's error body, else the start of the body. */
export function reasonOf(status: number, body: unknown, text: string): string {
  const parsed = errorBodySchema.safeParse(body);
  if (parsed.success) {
    const issues = parsed.data._issues
      ? ' (' +
        Object.entries(parsed.data._issues)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ') +
        ')'
      : '';
    return printable(`${status} ${parsed.data._error.message}${issues}`, 400);
  }
  const s = snippet(text);
  return s ? `${status} ${s}` : `HTTP ${status}`;
}

type Body = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'other' };

function bodyOf(text: string): Body {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'other' };
  }
}

/** A 2xx body that says it failed (Eve's `_status: "ERR"`, an `_error` or `_issues`): the reason, else null. */
function failureIn(body: unknown, status: number, text: string): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const st = b['_status'];
  if (
    b['_error'] !== undefined ||
    b['_issues'] !== undefined ||
    (typeof st === 'string' && st.toUpperCase() !== 'OK')
  ) {
    const r = reasonOf(status, body, text);
    return errorBodySchema.safeParse(body).success
      ? r
      : `${status} the answer says the request failed: ${snippet(text)}`;
  }
  return null;
}

/**
 * Classifies an answer. `mayCreate`: the request could have created a record (POST /times), so an
 * answer that leaves that open is `unknown`, not a failure. `parse` turns a 2xx JSON body (or
 * undefined for an empty one) into the value; when it throws, a read failed and a create is unknown.
 */
export function classify<T>(a: Answer, mayCreate: boolean, parse: (raw: unknown) => T, what: string): ApiOutcome<T> {
  const { status, serverDate, text } = a;
  if (status >= 300 && status < 400) {
    const where = a.location === null ? '(no Location header)' : printable(a.location, 200);
    return {
      kind: 'setup',
      status,
      reason: `the service answered from another address: ${where} (HTTP ${status})`,
      location: a.location === null ? null : printable(a.location, 500),
      serverDate,
    };
  }
  const success = status >= 200 && status < 300;
  if (a.unreadable) {
    const error = `the HTTP ${status} answer to ${what} could not be read: ${printable(a.unreadable, 200)} (${describeBody(a)})`;
    // A 2xx to a create: the record may well be stored. Look (reconciliation) before any resend.
    if (mayCreate) return { kind: 'unknown', error: success ? `${error}; the record may be stored` : error };
    return { kind: 'server_error', status, error, serverDate };
  }
  const body = bodyOf(text);
  const notApi = (): ApiOutcome<T> => ({
    kind: 'setup',
    status,
    reason: `this address does not look like the API (HTTP ${status}, ${describeBody(a)}: ${snippet(text, 80)})`,
    location: null,
    serverDate,
  });
  if (success) {
    if (body.kind === 'other') {
      const shown = `HTTP ${status}, ${describeBody(a)}: ${snippet(text, 80)}`;
      // Whatever answered said it took the record: never send it blind a second time.
      if (mayCreate)
        return {
          kind: 'unknown',
          error: `the answer to ${what} is not the API's JSON (${shown}); the record may be stored`,
        };
      // A read: JSON that does not parse (cut short, mangled) failed; a page of another kind (a
      // captive portal's HTML) says the address is not the API's.
      if (claimsJson(a.contentType))
        return {
          kind: 'server_error',
          status,
          error: `the answer to ${what} is not readable JSON (${shown})`,
          serverDate,
        };
      return notApi();
    }
    const raw = body.kind === 'json' ? body.value : undefined;
    const failed = failureIn(raw, status, text);
    if (failed) return { kind: 'refused', status, reason: failed, serverDate };
    try {
      return { kind: 'ok', status, value: parse(raw), serverDate };
    } catch (e) {
      const error = `unexpected answer to ${what}: ${printable((e as Error).message, 300)}`;
      return mayCreate ? { kind: 'unknown', error } : { kind: 'server_error', status, error, serverDate };
    }
  }
  const json = body.kind === 'json' ? body.value : undefined;
  const reason = reasonOf(status, json, text);
  if (status === 429) return { kind: 'rate_limited', retryAfterHeader: a.retryAfter, serverDate };
  if (status === 401) return { kind: 'auth', status, reason, serverDate };
  if (status === 403) return { kind: 'forbidden', status, reason, serverDate };
  // The service may already have it (409), or a gateway gave up waiting for it (408, 502, 504).
  if (status === 408 || status === 409 || status === 502 || status === 504) {
    if (mayCreate) return { kind: 'unknown', error: reason, status };
    if (status === 409) return { kind: 'refused', status, reason, serverDate };
    return { kind: 'server_error', status, error: reason, serverDate };
  }
  if (status >= 500) return { kind: 'server_error', status, error: reason, serverDate };
  // A 404 page of a proxy or a wrong base path is not the API refusing this punch.
  if (body.kind === 'other') return notApi();
  return { kind: 'refused', status, reason, serverDate };
}

/** `application/json`, `application/problem+json`… (and no type at all: an API that forgot it). */
function claimsJson(contentType: string | null): boolean {
  if (contentType === null) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** An outcome in a few words, for logs, status and the admin screen's details. */
export function describeOutcome(res: ApiOutcome<unknown>): string {
  switch (res.kind) {
    case 'ok':
      return `HTTP ${res.status}`;
    case 'rate_limited':
      return '429 rate limited';
    case 'refused':
    case 'auth':
    case 'forbidden':
    case 'setup':
      return res.reason;
    case 'not_sent':
    case 'server_error':
    case 'unknown':
      return res.error;
  }
}
