/**
 * Reading an answer's body off the wire (issue 23): every content coding a gateway may apply is
 * undone whatever was asked, and a body that cannot be had is a reason in printable words.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decode, encodingsOf, readBody } from '../../src/api/answer-body.js';
import { describeBody, printable } from '../../src/api/answer-text.js';

const JSON_TEXT = '{"_id":"6a1f","_status":"OK","full_name":"Conceição"}';
const bodyOf = (...chunks: Buffer[]) => Readable.from(chunks);

describe('readBody decodes what arrives', () => {
  it.each([
    ['gzip', zlib.gzipSync(JSON_TEXT)],
    ['x-gzip', zlib.gzipSync(JSON_TEXT)],
    ['deflate', zlib.deflateSync(JSON_TEXT)],
    ['deflate', zlib.deflateRawSync(JSON_TEXT)], // raw deflate, as some servers send it
    ['br', zlib.brotliCompressSync(JSON_TEXT)],
    ['GZIP', zlib.gzipSync(JSON_TEXT)],
    ['identity', Buffer.from(JSON_TEXT)],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(JSON_TEXT))],
  ])('%s', async (encoding, bytes) => {
    const half = Math.floor(bytes.length / 2);
    const r = await readBody(bodyOf(bytes.subarray(0, half), bytes.subarray(half)), encoding);
    expect(r).toEqual({ ok: true, text: JSON_TEXT, bytes: bytes.length });
  });

  it.each([
    ['gzip', Buffer.from('not gzip at all'), /could not be decoded: not valid gzip data/],
    ['gzip', zlib.gzipSync(JSON_TEXT).subarray(0, 20), /not valid gzip data \(unexpected end of file\)/],
    ['br', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00]), /not valid br data/],
    ['zstd', Buffer.from('x'), /unsupported content encoding 'zstd'/],
    ['gzip,gzip,gzip,gzip,gzip', Buffer.from('x'), /5 content codings stacked/],
  ])('%s that is not: a reading with the reason, no exception', async (encoding, bytes, why) => {
    const r = await readBody(bodyOf(bytes), encoding);
    expect(r).toMatchObject({ ok: false, problem: expect.stringMatching(why), bytes: bytes.length, cut: false });
  });

  it('a body that breaks off is a cut reading with the bytes that came', async () => {
    const broken = new Readable({ read() {} });
    broken.push(Buffer.from('{"_id":'));
    setImmediate(() => broken.destroy(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })));
    expect(await readBody(broken, null)).toEqual({
      ok: false,
      problem: 'cut off after 7 bytes (UND_ERR_SOCKET: other side closed)',
      bytes: 7,
      cut: true,
    });
  });

  it('a decompression bomb stops at the bound', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(65 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(decode(bomb, ['gzip'])).rejects.toThrow(/not valid gzip data/);
  });

  it('encodingsOf lists codings in the order applied, identity left out', () => {
    expect(encodingsOf(null)).toEqual([]);
    expect(encodingsOf(' identity ')).toEqual([]);
    expect(encodingsOf('gzip, BR')).toEqual(['gzip', 'br']);
  });
});

describe('text from the wire, made printable', () => {
  it('control, format and undecodable characters become ?; white space one space; bounded', () => {
    expect(printable('a\u0000b\u001b[0m\r\n\tc\u202ed\u200be\ufffdf\u0085g')).toBe('a?b?[0m c?d?e?f?g');
    expect(printable('ção 日本 🙂')).toBe('ção 日本 🙂');
    expect(printable('x'.repeat(500), 10)).toBe(`${'x'.repeat(9)}…`);
    // A cut never leaves half a surrogate pair.
    expect(printable('🙂'.repeat(20), 5)).toBe('🙂🙂🙂🙂…');
    const raw = zlib.gzipSync(JSON_TEXT).toString('latin1');
    expect(printable(raw)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('describeBody says type, length and encoding, never the bytes', () => {
    expect(describeBody({ contentType: 'text/html; charset=utf-8', bytes: 312, contentEncoding: 'gzip' })).toBe(
      'text/html; charset=utf-8, 312 bytes gzip-encoded',
    );
    expect(describeBody({ contentType: null, bytes: 0, contentEncoding: null })).toBe('no content type, 0 bytes');
    expect(describeBody({ contentType: 'text/plain' })).toBe('text/plain');
  });
});
