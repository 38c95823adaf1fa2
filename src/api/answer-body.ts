/**
 * Reads an answer's body and undoes its `Content-Encoding` (gzip, deflate, br, or a list of them),
 * whatever the request asked for: a gateway may compress although we said nothing (nginx
 * `gzip_proxied any`). Decoding here with node:zlib rather than undici's decompress interceptor:
 * that one is experimental (it prints a warning), passes error answers through compressed, and
 * drops the header, so a failure could not say what the body claimed to be.
 *
 * A body that cannot be had (cut off, over the size bound, undecodable) is a reading with the
 * reason, never an exception: the caller decides what a status with such a body means.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { printable } from './answer-text.js';

/** What the client asks for: every coding it decodes (and it decodes these whatever it asked). */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Bounds on what one answer may hold, before and after decoding (a roster page is far below). */
export const MAX_WIRE_BYTES = 64 * 1024 * 1024;
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

export type BodyReading =
  | { ok: true; text: string; bytes: number }
  /** `bytes`: what arrived before it failed. `cut`: the transfer itself failed (not the decoding). */
  | { ok: false; problem: string; bytes: number; cut: boolean };

type Decoder = (buf: Buffer, opts: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>;
const gunzip = promisify(zlib.gunzip) as Decoder;
const inflate = promisify(zlib.inflate) as Decoder;
const inflateRaw = promisify(zlib.inflateRaw) as Decoder;
const brotli = promisify(zlib.brotliDecompress) as Decoder;

/** `deflate` is meant to be zlib-wrapped; some servers send it raw. */
const inflateEither: Decoder = async (buf, opts) => {
  try {
    return await inflate(buf, opts);
  } catch {
    return inflateRaw(buf, opts);
  }
};

const DECODERS: Record<string, Decoder> = { gzip: gunzip, 'x-gzip': gunzip, deflate: inflateEither, br: brotli };

/** The codings of a `Content-Encoding` header, in the order they were applied (`identity` left out). */
export function encodingsOf(header: string | null): string[] {
  if (header === null) return [];
  return header
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '' && s !== 'identity');
}

/** Undoes `codings` (last applied, first undone); throws with the reason. */
export async function decode(buf: Buffer, codings: readonly string[]): Promise<Buffer> {
  if (codings.length > 4) throw new Error(`${codings.length} content codings stacked`);
  let out = buf;
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding];
    if (!decoder) throw new Error(`unsupported content encoding '${printable(coding, 40)}'`);
    try {
      out = await decoder(out, { maxOutputLength: MAX_DECODED_BYTES });
    } catch (e) {
      throw new Error(`not valid ${coding} data (${(e as Error).message})`);
    }
  }
  return out;
}

/** Reads `body` to its end, then decodes it by `contentEncoding`. */
export async function readBody(
  body: AsyncIterable<Buffer | Uint8Array> & { destroy(err?: Error): unknown },
  contentEncoding: string | null,
): Promise<BodyReading> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > MAX_WIRE_BYTES) {
        body.destroy();
        return { ok: false, problem: `the body is larger than ${MAX_WIRE_BYTES} bytes`, bytes, cut: false };
      }
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    }
  } catch (e) {
    return { ok: false, problem: `cut off after ${bytes} bytes (${errorText(e)})`, bytes, cut: true };
  }
  const raw = Buffer.concat(chunks, bytes);
  const codings = encodingsOf(contentEncoding);
  if (codings.length === 0 || raw.length === 0) return { ok: true, text: raw.toString('utf8'), bytes };
  try {
    return { ok: true, text: (await decode(raw, codings)).toString('utf8'), bytes };
  } catch (e) {
    return { ok: false, problem: `the body could not be decoded: ${(e as Error).message}`, bytes, cut: false };
  }
}

function errorText(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  const msg = e instanceof Error ? e.message : String(e);
  return printable(typeof code === 'string' ? `${code}: ${msg}` : msg, 160);
}
