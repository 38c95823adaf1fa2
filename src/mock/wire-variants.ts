/**
 * The wire variants (variants.ts): what a gateway or a slow link in front of the service does to
 * an answer on its way. `compress` encodes every answer whatever the request asked (nginx
 * `gzip_proxied any`); `trickle` sends the headers at once and the body a few bytes at a time;
 * `postTimesBody` answers a stored punch with a body the client cannot read as the API's JSON.
 * transport.ts applies the first two to every answer but the control routes'.
 */
import type http from 'node:http';
import zlib from 'node:zlib';
import { API_VERSION_SEGMENT } from '../api/shapes.js';
import { faultApplies } from './faults.js';
import type { Reply } from './reply.js';
import type { RequestLogEntry } from './state.js';
import type { ServerVariants } from './variants.js';

type Compression = NonNullable<ServerVariants['compress']>;
type PostTimesBody = NonNullable<ServerVariants['postTimesBody']>;

/** What happens to one answer's bytes on the wire. */
export type WireOptions = { compress?: Compression; trickleBytesPerSecond?: number };

/** The wire variants that apply to this request (`url` as received, query included). */
export function wireOptions(
  v: ServerVariants | null,
  method: string | undefined,
  url: string | undefined,
): WireOptions {
  if (!v) return {};
  const out: WireOptions = {};
  if (v.compress) out.compress = v.compress;
  if (v.trickle) {
    const raw = url ?? '/';
    const path = raw.split('?')[0] ?? '/';
    const apiPath = path.startsWith(`${API_VERSION_SEGMENT}/`) ? path.slice(API_VERSION_SEGMENT.length) : path;
    if (faultApplies({ only: v.trickle.only }, method ?? 'GET', apiPath))
      out.trickleBytesPerSecond = v.trickle.bytesPerSecond;
  }
  return out;
}

/** `payload` compressed as `how`. */
export function compressed(payload: Buffer, how: Compression): Buffer {
  switch (how) {
    case 'gzip':
      return zlib.gzipSync(payload);
    case 'deflate':
      return zlib.deflateSync(payload);
    case 'br':
      return zlib.brotliCompressSync(payload);
  }
}

/**
 * Writes `payload` a few bytes per tick (at most 20 ticks a second), then ends. Stops when the
 * client goes away; `entry.trickled` tells how far it got, so a test sees the client hang up.
 */
export function trickle(
  res: http.ServerResponse,
  payload: Buffer,
  bytesPerSecond: number,
  entry: RequestLogEntry | null,
): void {
  const tickMs = Math.max(50, Math.ceil(1000 / bytesPerSecond));
  const perTick = Math.max(1, Math.round((bytesPerSecond * tickMs) / 1000));
  let sent = 0;
  if (entry) entry.trickled = { sent, of: payload.length };
  const timer = setInterval(() => {
    if (res.destroyed) return;
    const next = payload.subarray(sent, sent + perTick);
    sent += next.length;
    if (entry) entry.trickled = { sent, of: payload.length };
    if (sent >= payload.length) {
      clearInterval(timer);
      res.end(next);
    } else {
      res.write(next);
    }
  }, tickMs);
  res.on('close', () => clearInterval(timer));
  res.flushHeaders();
}

/** `postTimesBody`: the answer to a stored punch, in a form that is not the API's JSON. */
export function postTimesBodyReply(kind: PostTimesBody, created: { _id: string; _created: string }): Reply {
  const json = JSON.stringify({ _id: created._id, _status: 'OK', _created: created._created });
  switch (kind) {
    case 'text':
      return {
        status: 201,
        body: null,
        raw: { contentType: 'text/plain; charset=utf-8', text: `Created ${created._id}\n` },
      };
    case 'html':
      return {
        status: 201,
        body: null,
        raw: {
          contentType: 'text/html; charset=utf-8',
          text: `<html><head><title>201 Created</title></head><body><h1>Created</h1><p>${created._id}</p></body></html>\n`,
        },
      };
    case 'xml':
      // Eve's XML rendering, as served to a client that does not ask for JSON first.
      return {
        status: 201,
        body: null,
        raw: {
          contentType: 'application/xml; charset=utf-8',
          text: `<?xml version="1.0" encoding="UTF-8"?>\n<resource><_created>${created._created}</_created><_id>${created._id}</_id><_status>OK</_status></resource>\n`,
        },
      };
    case 'truncated-json':
      return {
        status: 201,
        body: null,
        raw: { contentType: 'application/json', text: json.slice(0, Math.floor(json.length / 2)) },
      };
    case 'bad-gzip':
      return {
        status: 201,
        body: null,
        headers: { 'content-encoding': 'gzip' },
        raw: { contentType: 'application/json', text: `not gzip at all: ${json}` },
      };
    case 'cut':
      return { status: 201, body: JSON.parse(json) as unknown, cut: true };
  }
}
