/**
 * One request to the service within one deadline (deadline.ts), whose timer is cleared however it
 * ends: sent through the client's dispatcher, its answer's Date told to the time source, its body
 * read whatever the encoding, and classified (classify.ts). What failed before a byte reached the
 * server is `not_sent`; after that, a create is in doubt.
 */
import type { Dispatcher } from 'undici';
import { ACCEPT_ENCODING, readBody } from './answer-body.js';
import { printable } from './answer-text.js';
import { classify, type ApiOutcome } from './classify.js';
import { startDeadline } from './deadline.js';
import { beforeServer } from './net-errors.js';
import { request } from './undici-parts.js';

// Errors raised before a byte of the request could reach the server.
const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return (e as { code?: string })?.code;
}

export function describe(e: unknown): string {
  const code = errorCode(e);
  const msg = e instanceof Error ? e.message : String(e);
  return printable(code ? `${code}: ${msg}` : msg, 300);
}

function parseDate(h: string | string[] | undefined): number | null {
  const v = Array.isArray(h) ? h[0] : h;
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

function headerValue(h: string | string[] | undefined): string | null {
  return (Array.isArray(h) ? h[0] : h) ?? null;
}

/** What a request is for (metrics count them by it). */
export type RequestKind = 'punch' | 'reconcile' | 'roster' | 'site' | 'token_check' | 'probe' | 'self_service';

/** The request: where, what, with which Authorization header, and how it is named in errors. */
export type OneRequest = {
  url: URL;
  method: 'GET' | 'POST';
  body: unknown;
  auth: string;
  kind: RequestKind;
  /** A POST that may create a record: an answer lost after sending puts it in doubt. */
  mayCreate: boolean;
  shown: string;
};

/** The client's parts a request uses. */
export type RequestParts = {
  timeoutMs: number;
  mono?: () => number;
  onServerDate?: (serverDateMs: number, sentMono: number, receivedMono: number) => void;
  onNoServerDate?: (header: string | null) => void;
  onRequest?: (kind: RequestKind, status: number | 'error', error?: string) => void;
  dispatcher: Dispatcher;
  /** Why it failed, in words safe to show (no proxy credentials). */
  failure(e: unknown): string;
};

export async function requestOnce<T>(
  r: OneRequest,
  o: RequestParts,
  parse: (raw: unknown) => T,
): Promise<ApiOutcome<T>> {
  const { url, method, body, kind, mayCreate } = r;
  const deadline = startDeadline(o.timeoutMs);
  try {
    const mono = o.mono ?? (() => performance.now());
    const sentMono = mono();
    let res;
    try {
      res = await request(o.dispatcher, url, {
        method,
        signal: deadline.signal,
        headers: {
          authorization: r.auth,
          accept: 'application/json',
          'accept-encoding': ACCEPT_ENCODING,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      // Never describe(e) alone: a proxy's credentials may be in it (failure() scrubs them).
      const error = deadline.expired() ? deadline.error : o.failure(e);
      o.onRequest?.(kind, 'error', error);
      const code = errorCode(e);
      // A refused certificate or a proxy refusing the tunnel: nothing reached the server either.
      if (!deadline.expired() && ((code && CONNECT_PHASE_CODES.has(code)) || beforeServer(e)))
        return { kind: 'not_sent', error };
      // Anything after the connection was made: the server may have acted on it. For a GET that
      // changes nothing, so it is just a failed read.
      return mayCreate ? { kind: 'unknown', error } : { kind: 'not_sent', error };
    }

    const serverDate = parseDate(res.headers['date']);
    if (serverDate !== null) o.onServerDate?.(serverDate, sentMono, mono());
    else o.onNoServerDate?.(headerValue(res.headers['date']));
    const status = res.statusCode;
    o.onRequest?.(kind, status);
    const contentEncoding = headerValue(res.headers['content-encoding']);
    // Cut mid-body, undecodable, or past the deadline: classify says what that means for this
    // status (a 2xx to a create is in doubt, never a reason to send again).
    const reading = await readBody(res.body, contentEncoding);
    const unreadable = reading.ok
      ? null
      : deadline.expired()
        ? `${deadline.error}, ${reading.bytes} bytes in`
        : reading.problem;
    return classify(
      {
        status,
        contentType: headerValue(res.headers['content-type']),
        location: headerValue(res.headers['location']),
        retryAfter: headerValue(res.headers['retry-after']),
        serverDate,
        text: reading.ok ? reading.text : '',
        contentEncoding,
        bytes: reading.bytes,
        unreadable,
      },
      mayCreate,
      parse,
      r.shown,
    );
  } finally {
    deadline.clear();
  }
}
