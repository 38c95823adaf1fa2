/**
 * Every class of answer, on a create (POST /times) and on a read: what it says about the punch,
 * the token or the set-up (issue 11). The specification shows neither success codes nor error
 * bodies, so the table covers what any server, gateway or proxy may answer.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classify, type Answer, type ApiOutcome } from '../../src/api/classify.js';

const API_ERROR = JSON.stringify({
  _status: 'ERR',
  _error: { code: 422, message: 'invalid time' },
  _issues: { time: 'bad' },
});
const HTML = '<html><body><h1>Welcome to the hotel Wi-Fi</h1></body></html>';

function answer(status: number, text = '', over: Partial<Answer> = {}): Answer {
  const contentType = text.startsWith('<') ? 'text/html' : text === '' ? null : 'application/json';
  return { status, contentType, location: null, retryAfter: null, serverDate: 1_000, text, ...over };
}

const created = (raw: unknown) => ({
  remoteId: typeof raw === 'object' && raw !== null && '_id' in raw ? String((raw as { _id: unknown })._id) : null,
});
const strictRead = (raw: unknown) => {
  if (typeof raw !== 'object' || raw === null) throw new Error('not an object');
  return raw;
};
const post = (a: Answer): ApiOutcome<unknown> => classify(a, true, created, 'POST /times');
const read = (a: Answer): ApiOutcome<unknown> => classify(a, false, strictRead, 'GET /times');

describe('answer classification', () => {
  it.each<[string, Answer, Partial<ApiOutcome<unknown>>, Partial<ApiOutcome<unknown>>]>([
    [
      '201 with the created id',
      answer(201, '{"_id":"abc","_status":"OK"}'),
      { kind: 'ok', value: { remoteId: 'abc' } },
      { kind: 'ok' },
    ],
    ['204 with no body', answer(204), { kind: 'ok', value: { remoteId: null } }, { kind: 'server_error' }],
    [
      '200 whose body says ERR',
      answer(200, API_ERROR),
      { kind: 'refused', reason: '200 invalid time (time: bad)' },
      { kind: 'refused' },
    ],
    [
      '200 with _status other than OK, no _error',
      answer(200, '{"_status":"FAILED"}'),
      { kind: 'refused' },
      { kind: 'refused' },
    ],
    // On a create, whatever answered 2xx may have stored the record: in doubt, never sent blind again (issue 23).
    ['200 HTML page (a captive portal)', answer(200, HTML), { kind: 'unknown' }, { kind: 'setup' }],
    [
      '200 text/plain "OK" (a wrong proxy)',
      answer(200, 'OK', { contentType: 'text/plain' }),
      { kind: 'unknown' },
      { kind: 'setup' },
    ],
    [
      '301 to https',
      answer(301, '', { location: 'https://api.example.com/v2.1/times' }),
      { kind: 'setup', location: 'https://api.example.com/v2.1/times' },
      { kind: 'setup' },
    ],
    [
      '302 to a login page',
      answer(302, HTML, { location: '/login' }),
      { kind: 'setup', location: '/login' },
      { kind: 'setup' },
    ],
    ['307 without Location', answer(307), { kind: 'setup', location: null }, { kind: 'setup' }],
    ['308', answer(308, '', { location: 'https://x/v2.1' }), { kind: 'setup' }, { kind: 'setup' }],
    [
      '400 with the API error body',
      answer(400, API_ERROR),
      { kind: 'refused', status: 400 },
      { kind: 'refused', status: 400 },
    ],
    [
      '401',
      answer(401, '{"_error":{"message":"please provide proper credentials"}}'),
      { kind: 'auth', status: 401 },
      { kind: 'auth' },
    ],
    [
      '403 with the API error body',
      answer(403, '{"_error":{"message":"not allowed"}}'),
      { kind: 'forbidden', reason: '403 not allowed' },
      { kind: 'forbidden' },
    ],
    [
      '404 with a JSON body (the API: unknown employee)',
      answer(404, API_ERROR),
      { kind: 'refused', status: 404 },
      { kind: 'refused', status: 404 },
    ],
    [
      '404 HTML page (a proxy, a wrong base path)',
      answer(404, HTML),
      { kind: 'setup', status: 404 },
      { kind: 'setup' },
    ],
    ['404 with no body', answer(404), { kind: 'refused', status: 404 }, { kind: 'refused' }],
    ['408', answer(408), { kind: 'unknown' }, { kind: 'server_error' }],
    [
      '409: the service may already have it',
      answer(409, API_ERROR),
      { kind: 'unknown' },
      { kind: 'refused', status: 409 },
    ],
    [
      '422 with the API error body',
      answer(422, API_ERROR),
      { kind: 'refused', reason: '422 invalid time (time: bad)' },
      { kind: 'refused' },
    ],
    [
      '429 with Retry-After',
      answer(429, '', { retryAfter: '5' }),
      { kind: 'rate_limited', retryAfterHeader: '5', serverDate: 1_000 },
      { kind: 'rate_limited' },
    ],
    ['500', answer(500, API_ERROR), { kind: 'server_error', status: 500 }, { kind: 'server_error' }],
    ['502 from a gateway', answer(502, HTML), { kind: 'unknown' }, { kind: 'server_error', status: 502 }],
    ['503', answer(503), { kind: 'server_error', status: 503 }, { kind: 'server_error' }],
    ['504 from a gateway', answer(504), { kind: 'unknown' }, { kind: 'server_error', status: 504 }],
  ])('%s', (_what, a, onCreate, onRead) => {
    expect(post(a)).toMatchObject(onCreate);
    expect(read(a)).toMatchObject(onRead);
  });

  it('a 2xx body a read cannot use is a transient failure of that read; on a create it is unknown only when the parser throws', () => {
    expect(read(answer(200, '[1,2]'))).toMatchObject({ kind: 'ok' });
    expect(read(answer(200, '"text"'))).toMatchObject({
      kind: 'server_error',
      error: expect.stringMatching(/unexpected answer to GET \/times/),
    });
    expect(
      classify(
        answer(201, '{}'),
        true,
        () => {
          throw new Error('x');
        },
        'POST /times',
      ),
    ).toMatchObject({ kind: 'unknown' });
  });

  it('a reason never carries more than the start of a long page', () => {
    const r = post(answer(404, `<html>${'x'.repeat(5_000)}</html>`));
    expect(r.kind).toBe('setup');
    expect(r.kind === 'setup' && r.reason.length).toBeLessThan(200);
  });

  it('a reason never carries a control character of the body, a header or an error message', () => {
    const r = post(answer(404, '<html>\u0000\u001b[31mred\u0007\r\n\u202eevil\u200b</html>'));
    expect(r.kind === 'setup' && r.reason).toMatch(
      /^this address does not look like the API \(HTTP 404, text\/html[^:]*: <html>\?\?\[31mred\? \?evil\?<\/html>\)$/,
    );
    const api = post(
      answer(422, JSON.stringify({ _error: { message: 'bad\u0000time\nhere' }, _issues: { time: '\u001bx' } })),
    );
    expect(api).toMatchObject({ kind: 'refused', reason: '422 bad?time here (time: ?x)' });
    const moved = read(answer(302, '', { location: 'https://x.example/\u0085a' }));
    expect(moved).toMatchObject({ kind: 'setup', location: 'https://x.example/?a' });
  });
});

/** A body as the client reads it off the wire: decoded, its length and encoding known, or why it could not be. */
const wire = (status: number, text: string, contentType: string | null, over: Partial<Answer> = {}): Answer =>
  answer(status, text, { contentType, bytes: Buffer.byteLength(text), contentEncoding: null, ...over });
// What raw gzip bytes look like when read as text (the status output of issue 23).
const GZIP_AS_TEXT = gzipSync(Buffer.from('{"_id":"abc","_status":"OK"}')).toString('utf8');
const noControl = (s: string) => expect(s).not.toMatch(/[\u0000-\u001f\u007f-\u009f\ufffd]/);

describe('a 2xx whose body is not readable JSON (issue 23)', () => {
  it.each<[string, Answer]>([
    ['text/plain', wire(201, 'Created 6a1f\n', 'text/plain; charset=utf-8')],
    ['text/html', wire(201, HTML, 'text/html; charset=utf-8')],
    [
      'XML',
      wire(201, '<?xml version="1.0"?><resource><_id>6a1f</_id><_status>OK</_status></resource>', 'application/xml'),
    ],
    ['truncated JSON', wire(201, '{"_id":"6a1f","_sta', 'application/json')],
    ['compressed bytes nobody decoded', wire(201, GZIP_AS_TEXT, 'application/json', { contentEncoding: null })],
    [
      'a body that claims gzip and is not',
      wire(201, '', 'application/json', {
        contentEncoding: 'gzip',
        bytes: 40,
        unreadable: 'the body could not be decoded: not valid gzip data (incorrect header check)',
      }),
    ],
    [
      'a body cut off mid-transfer',
      wire(201, '', 'application/json', {
        bytes: 12,
        unreadable: 'cut off after 12 bytes (UND_ERR_SOCKET: other side closed)',
      }),
    ],
    [
      'a body past the request deadline',
      wire(200, '', 'application/json', {
        bytes: 3,
        unreadable:
          'the request timed out: no complete answer within 900 ms (the deadline from api.timeoutMs 300 ms), 3 bytes in',
      }),
    ],
  ])(
    '%s: a create is in doubt (checked before any resend), a read failed; both say what came, printably',
    (_what, a) => {
      const onCreate = post(a);
      expect(onCreate).toMatchObject({ kind: 'unknown', error: expect.stringMatching(/the record may be stored$/) });
      const error = onCreate.kind === 'unknown' ? onCreate.error : '';
      expect(error).toContain(`${a.bytes} bytes`);
      expect(error).toContain(a.contentType ?? '');
      expect(error.length).toBeLessThan(500);
      noControl(error);
      const onRead = read(a);
      if (a.unreadable || a.contentType === 'application/json') {
        expect(onRead).toMatchObject({
          kind: 'server_error',
          status: a.status,
          error: expect.stringMatching(/GET \/times/),
        });
        noControl(onRead.kind === 'server_error' ? onRead.error : '');
      } else {
        // A page of another kind on a read: this address is not the API's (a captive portal).
        expect(onRead).toMatchObject({ kind: 'setup' });
      }
    },
  );

  it('an encoding is named with the length on the wire', () => {
    const r = post(
      wire(201, '', 'application/json', {
        contentEncoding: 'br',
        bytes: 17,
        unreadable: 'the body could not be decoded: not valid br data (Decompression failed)',
      }),
    );
    expect(r).toMatchObject({
      kind: 'unknown',
      error: expect.stringContaining('application/json, 17 bytes br-encoded'),
    });
  });

  it('an empty 2xx and a JSON 2xx keep their meaning', () => {
    expect(post(wire(204, '', null))).toMatchObject({ kind: 'ok', value: { remoteId: null } });
    expect(post(wire(201, '{"_id":"6a1f"}', 'application/json', { contentEncoding: 'gzip', bytes: 30 }))).toMatchObject(
      { kind: 'ok', value: { remoteId: '6a1f' } },
    );
  });

  it('a non-2xx whose body could not be read: a create stays in doubt, a read failed (as a cut body did)', () => {
    const cut = { bytes: 5, unreadable: 'cut off after 5 bytes (ECONNRESET: read ECONNRESET)' };
    expect(post(wire(404, '', 'text/html', cut))).toMatchObject({ kind: 'unknown' });
    expect(read(wire(404, '', 'text/html', cut))).toMatchObject({ kind: 'server_error', status: 404 });
  });
});
