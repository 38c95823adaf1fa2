/** A bridge call's body: JSON, at most 64 KiB, or the framing refusal with its own status. */
import type http from 'node:http';
import type { ErrorCode } from '../contract.js';

const MAX_BODY = 64 * 1024;

/** A refusal of the HTTP framing itself (content type, size, JSON), with its own status. */
export type FramingRefusal = { code: ErrorCode; message: string; status?: number; headers?: Record<string, string> };

/** The body as JSON, read after the admin gate (as before the dispatcher): or why the framing is refused. */
export async function readJson(req: http.IncomingMessage): Promise<{ input: unknown } | { refused: FramingRefusal }> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return { refused: { code: 'bad_request', message: 'body must be application/json', status: 415 } };
  }
  const body = await readBody(req);
  if (body === 'too_large')
    return {
      refused: {
        code: 'bad_request',
        message: `body larger than ${MAX_BODY} bytes`,
        status: 413,
        headers: { connection: 'close' },
      },
    };
  try {
    return { input: JSON.parse(body.toString('utf8')) };
  } catch {
    return { refused: { code: 'bad_request', message: 'body is not JSON' } };
  }
}

/** The body, or 'too_large' past MAX_BODY (the rest is drained, not kept). */
function readBody(req: http.IncomingMessage): Promise<Buffer | 'too_large'> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > MAX_BODY) {
        req.off('data', onData);
        req.resume();
        resolve('too_large');
      } else chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
