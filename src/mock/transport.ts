/** HTTP plumbing of the mock: reading bodies, Basic auth, Retry-After and sending a Reply. */
import type http from 'node:http';
import { BASIC_AUTH_USER } from '../api/shapes.js';
import type { Reply } from './reply.js';
import type { RequestLogEntry } from './state.js';
import type { ServerVariants } from './variants.js';
import { compressed, trickle, type WireOptions } from './wire-variants.js';

const MAX_BODY_BYTES = 1024 * 1024;

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function readBody(req: http.IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES)
        tooLarge = true; // keep draining so the connection stays usable
      else chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
    // A client that goes away mid-body may emit no 'error'; settle anyway (no-op after 'end').
    req.on('close', () => reject(new Error('client closed the connection before the body ended')));
  });
}

/** The accepted token carried as the Basic auth password of user 'public', or null. */
export function authenticate(header: string | undefined, tokens: ReadonlySet<string>): string | null {
  if (header === undefined) return null;
  const m = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return user === BASIC_AUTH_USER && tokens.has(password) ? password : null;
}

export function retryAfterHeader(format: 'seconds' | 'http-date', at: number, now: number): string {
  if (format === 'seconds') return String(Math.max(1, Math.ceil((at - now) / 1000)));
  // HTTP dates have whole seconds: round up so a client obeying it never arrives early.
  return new Date(Math.ceil(at / 1000) * 1000).toUTCString();
}

/** An unparseable `Date` (the `date: garbage` variant): what a broken gateway has been seen to send. */
export const GARBAGE_DATE = 'Someday, 32 Foo 20XX 25:61:00 GMT';

/** The `Date` header the `date` variant asks for (null: none at all), else `now`'s. */
export function dateHeader(now: number, variant?: ServerVariants['date']): string | null {
  if (!variant) return new Date(now).toUTCString();
  if (variant.mode === 'missing') return null;
  if (variant.mode === 'garbage') return GARBAGE_DATE;
  return new Date(now + (variant.offsetMs ?? 0)).toUTCString();
}

/**
 * Sends `reply` as JSON (or its `raw` text) with a Date header of `now` (or as the `date` variant
 * says); records the status in the log entry. `wire`: the wire variants of this answer
 * (compressed, trickled), none by default.
 */
export function send(
  res: http.ServerResponse,
  reply: Reply,
  entry: RequestLogEntry | null,
  now: number,
  wire: WireOptions = {},
  date?: ServerVariants['date'],
): void {
  if (res.destroyed || res.headersSent) return;
  const dateValue = dateHeader(now, date);
  // Node adds a Date of its own unless told not to.
  if (dateValue === null) res.sendDate = false;
  let payload: Buffer = Buffer.from(reply.raw ? reply.raw.text : JSON.stringify(reply.body), 'utf8');
  const headers: Record<string, string | number> = { ...reply.headers };
  // A reply that already says how it is encoded (`postTimesBody: 'bad-gzip'`) is left as it is.
  if (wire.compress && payload.length > 0 && headers['content-encoding'] === undefined) {
    payload = compressed(payload, wire.compress);
    headers['content-encoding'] = wire.compress;
    headers.vary = 'Accept-Encoding';
  }
  res.writeHead(reply.status, {
    ...headers,
    'content-type': reply.raw ? reply.raw.contentType : 'application/json',
    'content-length': payload.length,
    ...(dateValue === null ? {} : { date: dateValue }),
  });
  if (entry) entry.status = reply.status;
  if (reply.cut) {
    // The full length was promised; deliver half of it, then hang up (the `cutBody` variant).
    if (entry) entry.fault = 'cut_body';
    res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.destroy());
    return;
  }
  if (wire.trickleBytesPerSecond !== undefined && payload.length > 0) {
    trickle(res, payload, wire.trickleBytesPerSecond, entry);
    return;
  }
  res.end(payload);
}
